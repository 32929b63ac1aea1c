#include "channels/channelregistry.h"
#include "channels/fedapay/fedapayadapter.h"
#include "channels/fedapay/fedapayevents.h"
#include "channels/fedapay/fedapaysigner.h"

#include <QTest>

using namespace OncePay;

namespace {

const QByteArray kSecret = "wh_live_9Jx0aQ2rT5uV8yZ1bC4eF7hK";
const QByteArray kOldSecret = "wh_live_old_3mN6pQ9sV2xY5";
const qint64 kNowSec = 1'719'781'968;
const qint64 kNowMs = kNowSec * 1000;

FedaPayAdapter adapter(QStringList secrets = {QString::fromLatin1(kSecret)})
{
    ChannelSettings s;
    s.secrets = secrets;
    return FedaPayAdapter(s);
}

FedaPayEvents::Params params(qint64 amount = 9113)
{
    FedaPayEvents::Params p;
    p.transactionId = 250828;
    p.orderId = "ORD-20240630-0021";
    p.attemptId = "att-21-1";
    p.amount = amount;
    p.fees = 167;
    p.timestampMs = kNowMs - 1000;
    return p;
}

template <typename R> QString reasonOf(const R &r)
{
    return r.ok() ? QString() : r.error().reason;
}

QByteArray entityWith(const QByteArray &amount, const QByteArray &currency)
{
    return QByteArray(
               R"({"name":"transaction.approved","object":"transaction","entity":{"klass":"v1/transaction","id":7,"amount":)") +
           amount + R"(,"currency_id":1,"currency":{"iso":)" + currency +
           R"(},"custom_metadata":{"order_id":"O1"}}})";
}

} // namespace

class TstFedaPay : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validApproved()
    {
        const InboundRequest req =
            FedaPaySigner::sign(FedaPayEvents::approved(params()), kSecret, kNowSec);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        const auto cb = adapter().parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->channel, QStringLiteral("fedapay"));
        QCOMPARE(cb->kind, CallbackKind::PaymentSucceeded);
        QCOMPARE(cb->channelEventType, QStringLiteral("transaction.approved"));
        QCOMPARE(cb->channelEventId, QStringLiteral("transaction.approved:250828"));
        QCOMPARE(cb->callbackId, QStringLiteral("fedapay:transaction.approved:250828"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("250828"));
        QCOMPARE(cb->orderRef, QStringLiteral("ORD-20240630-0021"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-21-1"));
        QVERIFY(cb->hasAmount);
        QCOMPARE(cb->amountMinor, qint64(9113)); // XOF has no minor unit
        QCOMPARE(cb->currency, QStringLiteral("XOF"));
        QCOMPARE(cb->occurredAtMs, kNowMs - 1000);
    }

    void otherStates()
    {
        const auto a = adapter();
        auto declined =
            a.parse(FedaPaySigner::sign(FedaPayEvents::declined(params()), kSecret, kNowSec));
        QVERIFY(declined.ok());
        QCOMPARE(declined->kind, CallbackKind::PaymentFailed);
        auto canceled =
            a.parse(FedaPaySigner::sign(FedaPayEvents::canceled(params()), kSecret, kNowSec));
        QVERIFY(canceled.ok());
        QCOMPARE(canceled->kind, CallbackKind::PaymentFailed);
        QCOMPARE(canceled->callbackId, QStringLiteral("fedapay:transaction.canceled:250828"));
        auto refunded =
            a.parse(FedaPaySigner::sign(FedaPayEvents::refunded(params(5000)), kSecret, kNowSec));
        QVERIFY(refunded.ok());
        QCOMPARE(refunded->kind, CallbackKind::Refunded);
        QCOMPARE(refunded->amountMinor, qint64(5000));
        QCOMPARE(refunded->refundId, QStringLiteral("250828"));
        QCOMPARE(refunded->channelTxnId, QStringLiteral("250828"));
    }

    void ownEventIdWins()
    {
        const QByteArray body =
            R"({"id":98765,"name":"transaction.approved","object":"transaction","entity":{"klass":"v1/transaction","id":7,"amount":100,"currency_id":1}})";
        const auto cb = adapter().parse(FedaPaySigner::sign(body, kSecret, kNowSec));
        QVERIFY(cb.ok());
        QCOMPARE(cb->callbackId, QStringLiteral("fedapay:98765"));
        QCOMPARE(cb->currency, QStringLiteral("XOF")); // from currency_id alone
        QVERIFY(cb->orderRef.isEmpty());
    }

    void hostileSignatures_data()
    {
        QTest::addColumn<QByteArray>("signatureHeader"); // "-" = header absent
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<QString>("reason");
        const QByteArray body = FedaPayEvents::approved(params());
        const QByteArray good = FedaPaySigner::signatureHeader(body, {kSecret}, kNowSec);
        QByteArray flipped = body;
        flipped[40] = char(flipped[40] ^ 0x01);
        QByteArray reordered = body;
        reordered.replace(R"("object":"transaction")", R"("object" : "transaction")");
        QVERIFY(reordered != body);

        QTest::newRow("valid") << good << body << kNowMs << QString();
        QTest::newRow("290 s old passes") << good << body << kNowMs + 290'000 << QString();
        QTest::newRow("290 s ahead passes") << good << body << kNowMs - 290'000 << QString();
        QTest::newRow("one bit flipped") << good << flipped << kNowMs << "bad_signature";
        QTest::newRow("re-serialised") << good << reordered << kNowMs << "bad_signature";
        QTest::newRow("truncated body")
            << good << body.left(body.size() - 2) << kNowMs << "bad_signature";
        QTest::newRow("wrong secret") << FedaPaySigner::signatureHeader(body, {"wh_wrong"}, kNowSec)
                                      << body << kNowMs << "bad_signature";
        QTest::newRow("other body's signature")
            << FedaPaySigner::signatureHeader(FedaPayEvents::declined(params()), {kSecret}, kNowSec)
            << body << kNowMs << "bad_signature";
        QTest::newRow("missing header") << QByteArray("-") << body << kNowMs << "missing_signature";
        QTest::newRow("empty header") << QByteArray("") << body << kNowMs << "missing_signature";
        QTest::newRow("empty signature") << QByteArray("t=" + QByteArray::number(kNowSec) + ",s=")
                                         << body << kNowMs << "missing_signature";
        QTest::newRow("scheme key v1 instead of s")
            << QByteArray(good).replace(",s=", ",v1=") << body << kNowMs << "missing_signature";
        QTest::newRow("no timestamp")
            << good.mid(good.indexOf(',') + 1) << body << kNowMs << "bad_signature";
        QTest::newRow("310 s old") << FedaPaySigner::signatureHeader(body, {kSecret}, kNowSec - 310)
                                   << body << kNowMs << "stale_timestamp";
        QTest::newRow("310 s ahead")
            << FedaPaySigner::signatureHeader(body, {kSecret}, kNowSec + 310) << body << kNowMs
            << "stale_timestamp";
    }

    void hostileSignatures()
    {
        QFETCH(QByteArray, signatureHeader);
        QFETCH(QByteArray, body);
        QFETCH(qint64, nowMs);
        QFETCH(QString, reason);
        InboundRequest req;
        req.body = body;
        if (signatureHeader != "-")
            req.addHeader("X-FEDAPAY-SIGNATURE", signatureHeader);
        QCOMPARE(reasonOf(adapter().verify(req, nowMs)), reason);
    }

    void rotation()
    {
        const QByteArray body = FedaPayEvents::approved(params());
        const auto both = adapter({QString::fromLatin1(kSecret), QString::fromLatin1(kOldSecret)});
        QVERIFY(both.verify(FedaPaySigner::sign(body, kOldSecret, kNowSec), kNowMs).ok());
        QVERIFY(both.verify(FedaPaySigner::sign(body, kSecret, kNowSec), kNowMs).ok());
        QVERIFY(adapter()
                    .verify(FedaPaySigner::sign(body, {"wh_other", kSecret}, kNowSec), kNowMs)
                    .ok());
        QCOMPARE(reasonOf(adapter({}).verify(FedaPaySigner::sign(body, kSecret, kNowSec), kNowMs)),
                 QStringLiteral("not_configured"));
    }

    void hostileBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("name=transaction.approved") << "malformed";
        QTest::newRow("no name") << QByteArray(R"({"entity":{"id":1}})") << "malformed";
        QTest::newRow("no entity")
            << QByteArray(R"({"name":"transaction.approved"})") << "malformed";
        QTest::newRow("entity without id")
            << QByteArray(R"({"name":"transaction.approved","entity":{"amount":1}})")
            << "malformed";
        QTest::newRow("fractional id")
            << QByteArray(R"({"name":"transaction.approved","entity":{"id":1.5}})") << "malformed";
        QTest::newRow("not a transaction")
            << QByteArray(
                   R"({"name":"transaction.approved","entity":{"klass":"v1/payout","id":1,"amount":1,"currency_id":1}})")
            << "malformed";
        QTest::newRow("negative") << entityWith("-9113", "\"XOF\"") << "bad_amount";
        QTest::newRow("fraction") << entityWith("91.13", "\"XOF\"") << "bad_amount";
        QTest::newRow("exponent") << entityWith("9e3", "\"XOF\"") << "bad_amount";
        QTest::newRow("string") << entityWith("\"9113\"", "\"XOF\"") << "bad_amount";
        QTest::newRow("overflow") << entityWith("18446744073709551616", "\"XOF\"") << "bad_amount";
        QTest::newRow("unknown currency") << entityWith("100", "\"ZZZ\"") << "unknown_currency";
        QTest::newRow("unknown currency id")
            << QByteArray(
                   R"({"name":"transaction.approved","entity":{"id":1,"amount":1,"currency_id":99}})")
            << "unknown_currency";
    }

    void hostileBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, reason);
        const InboundRequest req = FedaPaySigner::sign(body, kSecret, kNowSec);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        QCOMPARE(reasonOf(adapter().parse(req)), reason);
    }

    void zeroDecimalAmounts()
    {
        // XOF and the other zero-decimal currencies: the integer is the amount, not cents.
        for (const char *code : {"XOF", "JPY", "KRW"}) {
            const auto cb = adapter().parse(FedaPaySigner::sign(
                entityWith("5000", QByteArray("\"") + code + "\""), kSecret, kNowSec));
            QVERIFY(cb.ok());
            QCOMPARE(cb->amountMinor, qint64(5000));
            QCOMPARE(cb->currency, QString::fromLatin1(code));
        }
        const auto usd =
            adapter().parse(FedaPaySigner::sign(entityWith("5000", "\"usd\""), kSecret, kNowSec));
        QVERIFY(usd.ok());
        QCOMPARE(usd->currency, QStringLiteral("USD"));
    }

    void unhandledTypeIsOther()
    {
        const QByteArray body = FedaPayEvents::transactionEvent("pending", params());
        const auto cb = adapter().parse(FedaPaySigner::sign(body, kSecret, kNowSec));
        QVERIFY(cb.ok());
        QCOMPARE(cb->kind, CallbackKind::Other);
        QCOMPARE(cb->skipReason, QStringLiteral("unhandled event type transaction.pending"));
        QCOMPARE(cb->callbackId, QStringLiteral("fedapay:transaction.pending:250828"));
        QVERIFY(!cb->hasAmount);
    }

    void registry()
    {
        AppConfig config = AppConfig::defaults(QDir::tempPath());
        config.channels["fedapay"]["webhook_secrets"] = QString::fromLatin1(kSecret);
        const ChannelRegistry registry(config);
        const ChannelAdapter *a = registry.adapter("fedapay");
        QVERIFY(a);
        QVERIFY(a->verify(FedaPaySigner::sign(FedaPayEvents::approved(params()), kSecret, kNowSec),
                          kNowMs)
                    .ok());
    }
};

QTEST_GUILESS_MAIN(TstFedaPay)
#include "tst_fedapay.moc"
