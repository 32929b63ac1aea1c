#include "channels/channelregistry.h"
#include "channels/kakaopay/kakaopayadapter.h"
#include "channels/kakaopay/kakaopayevents.h"
#include "channels/kakaopay/kakaopaysigner.h"
#include "channels/signature.h"

#include <QTest>

using namespace OncePay;

namespace {

// Standard Webhooks' own example secret layout: "whsec_" + base64 of the key.
const QByteArray kSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const QByteArray kOldSecret = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const QByteArray kId = "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W";
const qint64 kNowSec = 1'719'878'400;
const qint64 kNowMs = kNowSec * 1000;

KakaoPayAdapter adapter(QStringList secrets = {QString::fromLatin1(kSecret)})
{
    ChannelSettings s;
    s.secrets = secrets;
    return KakaoPayAdapter(s);
}

KakaoPayEvents::Params params(qint64 total = 45000)
{
    KakaoPayEvents::Params p;
    p.orderId = "ORD-20240702-0042";
    p.attemptId = "att-42-1";
    p.amountTotal = total;
    p.approvedAtMs = kNowMs - 2000;
    return p;
}

template <typename R> QString reasonOf(const R &r)
{
    return r.ok() ? QString() : r.error().reason;
}

InboundRequest withHeaders(const QByteArray &body, const QByteArray &id, const QByteArray &ts,
                           const QByteArray &sig)
{
    InboundRequest r;
    r.body = body;
    if (id != "-")
        r.addHeader("webhook-id", id);
    if (ts != "-")
        r.addHeader("webhook-timestamp", ts);
    if (sig != "-")
        r.addHeader("webhook-signature", sig);
    return r;
}

} // namespace

class TstKakaoPay : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void standardWebhooksKnownAnswer()
    {
        // The Standard Webhooks specification's published test vector.
        const QByteArray body = R"({"test": 2432232314})";
        const QByteArray header = KakaoPaySigner::signatureHeader(
            body, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, {kSecret});
        QCOMPARE(header, QByteArray("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
    }

    void validApprove()
    {
        const InboundRequest req =
            KakaoPaySigner::sign(KakaoPayEvents::approveResult(params()), kSecret, kId, kNowSec);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        const auto cb = adapter().parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->channel, QStringLiteral("kakaopay"));
        QCOMPARE(cb->kind, CallbackKind::PaymentSucceeded);
        QCOMPARE(cb->channelEventType, QStringLiteral("APPROVE"));
        QCOMPARE(cb->callbackId, QStringLiteral("kakaopay:") + QString::fromLatin1(kId));
        QCOMPARE(cb->channelTxnId, QStringLiteral("T6846ac3ee3d1f2a0b1c2"));
        QCOMPARE(cb->orderRef, QStringLiteral("ORD-20240702-0042"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-42-1"));
        QCOMPARE(cb->amountMinor, qint64(45000)); // KRW has no minor unit
        QCOMPARE(cb->currency, QStringLiteral("KRW"));
        QCOMPARE(cb->occurredAtMs, kNowMs - 2000); // KST without zone, read as UTC+9
    }

    void cancelAndStatus()
    {
        const auto a = adapter();
        const QByteArray full = KakaoPayEvents::cancelResult(params(), 45000, "A-cancel-1", kNowMs);
        auto refund = a.parse(KakaoPaySigner::sign(full, kSecret, "msg_c1", kNowSec));
        QVERIFY(refund.ok());
        QCOMPARE(refund->kind, CallbackKind::Refunded);
        QCOMPARE(refund->channelEventType, QStringLiteral("CANCEL_PAYMENT"));
        // Read as the running total cancelled on the tid (canceled_amount), as an order
        // status reports it too: the same cancel from both is one refund (tst_refunds).
        QCOMPARE(refund->refundId, QStringLiteral("cumulative:T6846ac3ee3d1f2a0b1c2:45000"));
        QCOMPARE(refund->amountMinor, qint64(45000));
        QCOMPARE(refund->channelTxnId, QStringLiteral("T6846ac3ee3d1f2a0b1c2"));

        const QByteArray part = KakaoPayEvents::cancelResult(params(), 5000, "A-cancel-2", kNowMs);
        auto partial = a.parse(KakaoPaySigner::sign(part, kSecret, "msg_c2", kNowSec));
        QVERIFY(partial.ok());
        QCOMPARE(partial->channelEventType, QStringLiteral("PART_CANCEL_PAYMENT"));
        QCOMPARE(partial->kind, CallbackKind::Refunded);
        QCOMPARE(partial->amountMinor, qint64(5000));
        QCOMPARE(partial->refundId, QStringLiteral("cumulative:T6846ac3ee3d1f2a0b1c2:5000"));

        // The second partial cancel: the running canceled_amount, 5,000 + 7,000.
        const QByteArray second =
            KakaoPayEvents::cancelResult(params(), 7000, "A-cancel-3", kNowMs, 5000);
        auto more = a.parse(KakaoPaySigner::sign(second, kSecret, "msg_c3", kNowSec));
        QVERIFY(more.ok());
        QCOMPARE(more->amountMinor, qint64(12000));
        QCOMPARE(more->refundId, QStringLiteral("cumulative:T6846ac3ee3d1f2a0b1c2:12000"));

        // A cancel answer without the running total is one refund: its own aid and amount.
        auto lone = a.parse(KakaoPaySigner::sign(
            R"({"tid":"T8","aid":"A8","status":"PART_CANCEL_PAYMENT","partner_order_id":"O8",
                "amount":{"total":45000},"approved_cancel_amount":{"total":3000}})",
            kSecret, "msg_s8", kNowSec));
        QVERIFY(lone.ok());
        QCOMPARE(lone->refundId, QStringLiteral("A8"));
        QCOMPARE(lone->amountMinor, qint64(3000));

        // An order status of a cancelled payment has only the running total: cumulative.
        auto status = a.parse(KakaoPaySigner::sign(
            R"({"tid":"T9","status":"PART_CANCEL_PAYMENT","partner_order_id":"O9",
                "amount":{"total":45000},"canceled_amount":{"total":12000}})",
            kSecret, "msg_s9", kNowSec));
        QVERIFY(status.ok());
        QCOMPARE(status->kind, CallbackKind::Refunded);
        QCOMPARE(status->amountMinor, qint64(12000));
        QCOMPARE(status->refundId, QStringLiteral("cumulative:T9:12000"));

        struct Row {
            const char *status;
            CallbackKind kind;
        };
        for (const Row &row : {Row{"SUCCESS_PAYMENT", CallbackKind::PaymentSucceeded},
                               Row{"FAIL_PAYMENT", CallbackKind::PaymentFailed},
                               Row{"QUIT_PAYMENT", CallbackKind::PaymentFailed},
                               Row{"FAIL_AUTH_PASSWORD", CallbackKind::PaymentFailed},
                               Row{"READY", CallbackKind::PaymentPending},
                               Row{"SOMETHING_NEW", CallbackKind::Other}}) {
            const QByteArray body = KakaoPayEvents::statusResult(params(), row.status);
            auto cb = a.parse(KakaoPaySigner::sign(body, kSecret, "msg_s", kNowSec));
            QVERIFY2(cb.ok(), row.status);
            QCOMPARE(cb->kind, row.kind);
            if (row.kind == CallbackKind::Other)
                QCOMPARE(cb->skipReason, QStringLiteral("unhandled kakaopay status SOMETHING_NEW"));
        }
    }

    void hostileSignatures_data()
    {
        QTest::addColumn<QByteArray>("id");
        QTest::addColumn<QByteArray>("timestamp");
        QTest::addColumn<QByteArray>("signature");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<QString>("reason");
        const QByteArray body = KakaoPayEvents::approveResult(params());
        const QByteArray ts = QByteArray::number(kNowSec);
        const QByteArray good = KakaoPaySigner::signatureHeader(body, kId, kNowSec, {kSecret});
        QByteArray flipped = body;
        flipped[30] = char(flipped[30] ^ 0x01);
        QByteArray spaced = body;
        spaced.replace(",", ", ");

        QTest::newRow("valid") << kId << ts << good << body << kNowMs << QString();
        QTest::newRow("290 s old passes")
            << kId << ts << good << body << kNowMs + 290'000 << QString();
        QTest::newRow("290 s ahead passes")
            << kId << ts << good << body << kNowMs - 290'000 << QString();
        QTest::newRow("several, one valid")
            << kId << ts << QByteArray("v1,AAAA v2,xyz ") + good << body << kNowMs << QString();
        QTest::newRow("one bit flipped")
            << kId << ts << good << flipped << kNowMs << "bad_signature";
        QTest::newRow("re-serialised") << kId << ts << good << spaced << kNowMs << "bad_signature";
        QTest::newRow("truncated")
            << kId << ts << good << body.chopped(1) << kNowMs << "bad_signature";
        QTest::newRow("wrong secret")
            << kId << ts << KakaoPaySigner::signatureHeader(body, kId, kNowSec, {"whsec_d3Jvbmc="})
            << body << kNowMs << "bad_signature";
        QTest::newRow("other body's signature")
            << kId << ts
            << KakaoPaySigner::signatureHeader(KakaoPayEvents::statusResult(params(), "READY"), kId,
                                               kNowSec, {kSecret})
            << body << kNowMs << "bad_signature";
        QTest::newRow("other id") << QByteArray("msg_other") << ts << good << body << kNowMs
                                  << "bad_signature";
        QTest::newRow("timestamp swapped")
            << kId << QByteArray::number(kNowSec + 1) << good << body << kNowMs << "bad_signature";
        QTest::newRow("missing id")
            << QByteArray("-") << ts << good << body << kNowMs << "missing_signature";
        QTest::newRow("missing timestamp")
            << kId << QByteArray("-") << good << body << kNowMs << "missing_signature";
        QTest::newRow("missing signature")
            << kId << ts << QByteArray("-") << body << kNowMs << "missing_signature";
        QTest::newRow("empty signature")
            << kId << ts << QByteArray("") << body << kNowMs << "missing_signature";
        QTest::newRow("v1 without value")
            << kId << ts << QByteArray("v1,") << body << kNowMs << "missing_signature";
        QTest::newRow("scheme misspelt") << kId << ts << QByteArray(good).replace("v1,", "v1a,")
                                         << body << kNowMs << "missing_signature";
        QTest::newRow("non-numeric timestamp")
            << kId << QByteArray("2024-07-02") << good << body << kNowMs << "bad_signature";
        QTest::newRow("310 s old")
            << kId << QByteArray::number(kNowSec - 310)
            << KakaoPaySigner::signatureHeader(body, kId, kNowSec - 310, {kSecret}) << body
            << kNowMs << "stale_timestamp";
        QTest::newRow("310 s ahead")
            << kId << QByteArray::number(kNowSec + 310)
            << KakaoPaySigner::signatureHeader(body, kId, kNowSec + 310, {kSecret}) << body
            << kNowMs << "stale_timestamp";
    }

    void hostileSignatures()
    {
        QFETCH(QByteArray, id);
        QFETCH(QByteArray, timestamp);
        QFETCH(QByteArray, signature);
        QFETCH(QByteArray, body);
        QFETCH(qint64, nowMs);
        QFETCH(QString, reason);
        QCOMPARE(reasonOf(adapter().verify(withHeaders(body, id, timestamp, signature), nowMs)),
                 reason);
    }

    void rotationAndSecrets()
    {
        const QByteArray body = KakaoPayEvents::approveResult(params());
        const auto both = adapter({QString::fromLatin1(kSecret), QString::fromLatin1(kOldSecret)});
        QVERIFY(both.verify(KakaoPaySigner::sign(body, kOldSecret, kId, kNowSec), kNowMs).ok());
        QVERIFY(both.verify(KakaoPaySigner::sign(body, kSecret, kId, kNowSec), kNowMs).ok());
        QVERIFY(adapter()
                    .verify(KakaoPaySigner::sign(body, {kOldSecret, kSecret}, kId, kNowSec), kNowMs)
                    .ok());
        QCOMPARE(reasonOf(adapter().verify(KakaoPaySigner::sign(body, kOldSecret, kId, kNowSec),
                                           kNowMs)),
                 QStringLiteral("bad_signature"));
        // The whsec_ prefix is optional, as in the reference libraries.
        QVERIFY(adapter({QString::fromLatin1(kSecret.mid(6))})
                    .verify(KakaoPaySigner::sign(body, kSecret, kId, kNowSec), kNowMs)
                    .ok());
        QCOMPARE(
            reasonOf(adapter({}).verify(KakaoPaySigner::sign(body, kSecret, kId, kNowSec), kNowMs)),
            QStringLiteral("not_configured"));
        QCOMPARE(reasonOf(adapter({"plain-shared-secret"})
                              .verify(KakaoPaySigner::sign(body, kSecret, kId, kNowSec), kNowMs)),
                 QStringLiteral("not_configured"));
        QCOMPARE(reasonOf(adapter({"whsec_***not base64***"})
                              .verify(KakaoPaySigner::sign(body, kSecret, kId, kNowSec), kNowMs)),
                 QStringLiteral("not_configured"));
        const QByteArray fresh = KakaoPaySigner::generateSecret();
        QVERIFY(fresh.startsWith("whsec_"));
        QVERIFY(adapter({QString::fromLatin1(fresh)})
                    .verify(KakaoPaySigner::sign(body, fresh, kId, kNowSec), kNowMs)
                    .ok());
    }

    void hostileBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("reason");
        auto approve = [](const char *total) -> QByteArray {
            return QByteArray(
                       R"({"aid":"A1","tid":"T1","partner_order_id":"O1","approved_at":"2024-07-02T09:00:00","amount":{"total":)") +
                   total + "}}";
        };
        QTest::newRow("not json") << QByteArray("tid=T1") << "malformed";
        QTest::newRow("array") << QByteArray("[]") << "malformed";
        QTest::newRow("no tid") << QByteArray(
                                       R"({"aid":"A1","approved_at":"x","amount":{"total":1}})")
                                << "malformed";
        QTest::newRow("negative") << approve("-45000") << "bad_amount";
        QTest::newRow("fraction") << approve("450.5") << "bad_amount";
        QTest::newRow("exponent") << approve("4.5e4") << "bad_amount";
        QTest::newRow("string") << approve("\"45000\"") << "bad_amount";
        QTest::newRow("overflow") << approve("9223372036854775808") << "bad_amount";
        QTest::newRow("no amount")
            << QByteArray(R"({"aid":"A1","tid":"T1","approved_at":"x"})") << "bad_amount";
    }

    void hostileBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, reason);
        const InboundRequest req = KakaoPaySigner::sign(body, kSecret, kId, kNowSec);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        QCOMPARE(reasonOf(adapter().parse(req)), reason);
    }

    void unrecognisedResultIsOther()
    {
        const QByteArray body =
            R"({"tid":"T1","next_redirect_pc_url":"https://online-pay.kakao.com/x"})";
        const auto cb = adapter().parse(KakaoPaySigner::sign(body, kSecret, kId, kNowSec));
        QVERIFY(cb.ok());
        QCOMPARE(cb->kind, CallbackKind::Other);
        QVERIFY(!cb->skipReason.isEmpty());
    }

    void registry()
    {
        AppConfig config = AppConfig::defaults(QDir::tempPath());
        config.channels["kakaopay"]["webhook_secret"] = QString::fromLatin1(kSecret);
        const ChannelRegistry registry(config);
        const ChannelAdapter *a = registry.adapter("kakaopay");
        QVERIFY(a);
        QVERIFY(a->verify(KakaoPaySigner::sign(KakaoPayEvents::approveResult(params()), kSecret,
                                               kId, kNowSec),
                          kNowMs)
                    .ok());
    }
};

QTEST_GUILESS_MAIN(TstKakaoPay)
#include "tst_kakaopay.moc"
