#include "channels/channelregistry.h"
#include "channels/paypal/paypaladapter.h"
#include "channels/paypal/paypalevents.h"
#include "channels/paypal/paypalsigner.h"
#include "channels/signature.h"

#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

Q_DECLARE_METATYPE(OncePay::InboundRequest)

namespace {

const QByteArray kWebhookId = "8PT597110X687430LKGECATA";
const qint64 kNowMs = 1'719'878'400'000;

template <typename R> QString reasonOf(const R &r)
{
    return r.ok() ? QString() : r.error().reason;
}

// The request with one header replaced, or removed when `value` is "-".
InboundRequest withHeader(InboundRequest r, const QByteArray &name, const QByteArray &value)
{
    r.headers.removeIf([&](const auto &h) { return h.first == name; });
    if (value != "-")
        r.addHeader(name, value);
    return r;
}

PayPalEvents::Params params(const QString &value = "21.12", const QString &currency = "USD")
{
    PayPalEvents::Params p;
    p.orderId = "ORD-20240702-0007";
    p.attemptId = "att-7-2";
    p.value = value;
    p.currency = currency;
    p.createTimeMs = kNowMs - 4000;
    return p;
}

} // namespace

class TstPayPal : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    PayPalSigner m_signer;
    PayPalSigner m_otherSigner; // a key that is not PayPal's
    QString m_cert;
    QString m_otherCert;

    PayPalAdapter adapter(const QString &certFile = {},
                          const QByteArray &webhookId = kWebhookId) const
    {
        ChannelSettings s;
        s.extra["webhook_id"] = QString::fromLatin1(webhookId);
        s.extra["cert_file"] = certFile.isNull() ? m_cert : certFile;
        return PayPalAdapter(s);
    }

    InboundRequest signedRequest(const QByteArray &body, qint64 at = kNowMs) const
    {
        return m_signer.sign(body, kWebhookId, at, "b2384410-f8d2-11ec-8e7b-8bbd3d3e4a0d");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_signer.isValid());
        m_cert = m_dir.filePath("paypal-cert.pem");
        m_otherCert = m_dir.filePath("other-cert.pem");
        QVERIFY(m_signer.writeCertificate(m_cert).ok());
        QVERIFY(m_otherSigner.writeCertificate(m_otherCert).ok());
    }

    void crc32KnownAnswer()
    {
        QCOMPARE(Signature::crc32("123456789"), quint32(0xCBF43926));
        QCOMPARE(Signature::crc32(""), quint32(0));
    }

    void validCompleted()
    {
        const InboundRequest req = signedRequest(PayPalEvents::captureCompleted(params()));
        const auto a = adapter();
        QVERIFY2(a.configurationError().isEmpty(), qPrintable(a.configurationError()));
        const auto v = a.verify(req, kNowMs);
        QVERIFY2(v.ok(), qPrintable(v.ok() ? QString() : v.error().message));
        const auto cb = a.parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->channel, QStringLiteral("paypal"));
        QCOMPARE(cb->kind, CallbackKind::PaymentSucceeded);
        QCOMPARE(cb->channelEventType, QStringLiteral("PAYMENT.CAPTURE.COMPLETED"));
        QCOMPARE(cb->callbackId, QStringLiteral("paypal:WH-58D329510W468432D-8HN650336L201105X"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("29Y24445UY2083144"));
        QCOMPARE(cb->orderRef, QStringLiteral("ORD-20240702-0007"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-7-2"));
        QCOMPARE(cb->amountMinor, qint64(2112));
        QCOMPARE(cb->currency, QStringLiteral("USD"));
        QCOMPARE(cb->occurredAtMs, kNowMs - 4000 + 123);
    }

    void otherEvents()
    {
        const auto a = adapter();
        auto denied =
            a.parse(signedRequest(PayPalEvents::captureEvent("PAYMENT.CAPTURE.DENIED", params())));
        QVERIFY(denied.ok());
        QCOMPARE(denied->kind, CallbackKind::PaymentFailed);
        auto pending =
            a.parse(signedRequest(PayPalEvents::captureEvent("PAYMENT.CAPTURE.PENDING", params())));
        QVERIFY(pending.ok());
        QCOMPARE(pending->kind, CallbackKind::PaymentPending);
        for (const char *type : {"PAYMENT.CAPTURE.REFUNDED", "PAYMENT.CAPTURE.REVERSED"}) {
            auto refund = a.parse(signedRequest(PayPalEvents::refundEvent(type, params("10.00"))));
            QVERIFY2(refund.ok(), type);
            QCOMPARE(refund->kind, CallbackKind::Refunded);
            QCOMPARE(refund->channelTxnId, QStringLiteral("29Y24445UY2083144")); // from the up link
            QCOMPARE(refund->refundId, QStringLiteral("55105082X5896632E"));
            QCOMPARE(refund->amountMinor, qint64(1000));
            QCOMPARE(refund->orderRef, QStringLiteral("ORD-20240702-0007"));
        }
        const QByteArray noUp =
            R"({"id":"WH-1","event_type":"PAYMENT.CAPTURE.REFUNDED","resource":{"id":"R1","amount":{"currency_code":"USD","value":"1.00"},"links":[]}})";
        QCOMPARE(reasonOf(a.parse(signedRequest(noUp))), QStringLiteral("malformed"));
        auto other =
            a.parse(signedRequest(PayPalEvents::captureEvent("CHECKOUT.ORDER.APPROVED", params())));
        QVERIFY(other.ok());
        QCOMPARE(other->kind, CallbackKind::Other);
        QCOMPARE(other->skipReason,
                 QStringLiteral("CHECKOUT.ORDER.APPROVED is not a payment result; the capture's "
                                "own event decides"));
        QVERIFY(!other->hasAmount);
        auto unknown = a.parse(
            signedRequest(PayPalEvents::captureEvent("PAYMENT.PAYOUTS-ITEM.HELD", params())));
        QVERIFY(unknown.ok());
        QCOMPARE(unknown->kind, CallbackKind::Other);
        QCOMPARE(unknown->skipReason,
                 QStringLiteral("unhandled event type PAYMENT.PAYOUTS-ITEM.HELD"));
    }

    // A capture PayPal refuses ends the attempt, whichever of its two words it uses: the
    // order must leave `paying` (a DECLINED capture used to be skipped and the order stuck).
    void failedCaptures_data()
    {
        QTest::addColumn<QString>("type");
        QTest::newRow("denied") << "PAYMENT.CAPTURE.DENIED";
        QTest::newRow("declined") << "PAYMENT.CAPTURE.DECLINED";
    }
    void failedCaptures()
    {
        QFETCH(QString, type);
        const InboundRequest req = signedRequest(PayPalEvents::captureEvent(type, params()));
        QVERIFY(adapter().verify(req, kNowMs).ok());
        auto cb = adapter().parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->kind, CallbackKind::PaymentFailed);
        QCOMPARE(cb->channelEventType, type);
        QCOMPARE(cb->orderRef, QStringLiteral("ORD-20240702-0007"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-7-2"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("29Y24445UY2083144"));
        QVERIFY(cb->skipReason.isEmpty());
    }

    // Approved but not captured in time: PayPal cancels the order and returns the money. The
    // attempt failed; the order and attempt come from the purchase unit, as in PayPal's sample.
    void approvalReversed()
    {
        PayPalEvents::Params p = params();
        p.paypalOrderId = "5O190127TN364715T";
        const InboundRequest req = signedRequest(PayPalEvents::approvalReversed(p));
        QVERIFY(adapter().verify(req, kNowMs).ok());
        auto cb = adapter().parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->kind, CallbackKind::PaymentFailed);
        QCOMPARE(cb->channelEventType, QStringLiteral("CHECKOUT.PAYMENT-APPROVAL.REVERSED"));
        QCOMPARE(cb->orderRef, QStringLiteral("ORD-20240702-0007"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-7-2"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("5O190127TN364715T"));
        QVERIFY(!cb->hasAmount); // nothing was captured
        QCOMPARE(cb->occurredAtMs, kNowMs - 4000);

        const QByteArray noOrder =
            R"({"id":"WH-2","event_type":"CHECKOUT.PAYMENT-APPROVAL.REVERSED","resource":{"purchase_units":[{"custom_id":"o-1"}]}})";
        QCOMPARE(reasonOf(adapter().parse(signedRequest(noOrder))), QStringLiteral("malformed"));
    }

    // A refund made in PayPal's dashboard, in the shape of PayPal's own sample: no custom_id,
    // the capture only through the "up" link, a second partial refund whose running total
    // (seller_payable_breakdown.total_refunded_amount) is not its amount. The worker finds
    // the order by (paypal, capture id): the adapter must hand over exactly that id, this
    // refund's own id and its own amount.
    void dashboardRefundWithoutCustomId()
    {
        const QByteArray body =
            R"({"id":"WH-7AB81472RW104954X-5FS51219UT286033H",)"
            R"("create_time":"2024-07-01T23:59:56.000Z","resource_type":"refund",)"
            R"("event_type":"PAYMENT.CAPTURE.REFUNDED",)"
            R"("summary":"A $ 10.00 USD capture payment was refunded",)"
            R"("resource":{"seller_payable_breakdown":{)"
            R"("gross_amount":{"currency_code":"USD","value":"10.00"},)"
            R"("paypal_fee":{"currency_code":"USD","value":"0.00"},)"
            R"("net_amount":{"currency_code":"USD","value":"10.00"},)"
            R"("total_refunded_amount":{"currency_code":"USD","value":"15.00"}},)"
            R"("amount":{"currency_code":"USD","value":"10.00"},)"
            R"("invoice_id":"att-7-2","status":"COMPLETED",)"
            R"("update_time":"2024-07-01T16:59:53-07:00",)"
            R"("create_time":"2024-07-01T16:59:53-07:00","links":[)"
            R"({"href":"https://api.paypal.com/v2/payments/refunds/8RK38914GE317350B",)"
            R"("rel":"self","method":"GET"},)"
            R"({"href":"https://api.paypal.com/v2/payments/captures/2GG279541U471931P",)"
            R"("rel":"up","method":"GET"}],"id":"8RK38914GE317350B"},)"
            R"("links":[{"rel":"self","method":"GET","href":)"
            R"("https://api.paypal.com/v1/notifications/webhooks-events/WH-7AB81472RW104954X-5FS51219UT286033H"}],)"
            R"("event_version":"1.0","resource_version":"2.0"})";
        const InboundRequest req = signedRequest(body);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        auto cb = adapter().parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->kind, CallbackKind::Refunded);
        QVERIFY(cb->orderRef.isEmpty());
        QCOMPARE(cb->attemptRef, QStringLiteral("att-7-2"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("2GG279541U471931P")); // the capture
        QCOMPARE(cb->refundId, QStringLiteral("8RK38914GE317350B"));     // this refund
        QVERIFY(cb->hasAmount);
        QCOMPARE(cb->amountMinor, qint64(1000)); // its own amount, not the running total
        QCOMPARE(cb->currency, QStringLiteral("USD"));
        QCOMPARE(cb->occurredAtMs, kNowMs - 4000);

        // The generator gives the same shape when no order is set.
        PayPalEvents::Params p = params("10.00");
        p.orderId.clear();
        const QByteArray generated =
            PayPalEvents::refundEvent(QStringLiteral("PAYMENT.CAPTURE.REFUNDED"), p);
        QVERIFY(!generated.contains("custom_id"));
        auto fromGenerated = adapter().parse(signedRequest(generated));
        QVERIFY(fromGenerated.ok());
        QVERIFY(fromGenerated->orderRef.isEmpty());
        QCOMPARE(fromGenerated->channelTxnId, QStringLiteral("29Y24445UY2083144"));
        QCOMPARE(fromGenerated->refundId, QStringLiteral("55105082X5896632E"));
    }

    void hostileSignatures_data()
    {
        QTest::addColumn<InboundRequest>("request");
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<QString>("reason");
        const QByteArray body = PayPalEvents::captureCompleted(params());
        const InboundRequest good = signedRequest(body);
        auto withBody = [&](const QByteArray &b) {
            InboundRequest r = good;
            r.body = b;
            return r;
        };
        QByteArray flipped = body;
        flipped[50] = char(flipped[50] ^ 0x01);
        QByteArray reserialised = body;
        reserialised.replace(",\"", ", \"");

        QTest::newRow("valid") << good << kNowMs << QString();
        QTest::newRow("290 s old passes") << good << kNowMs + 290'000 << QString();
        QTest::newRow("290 s ahead passes") << good << kNowMs - 290'000 << QString();
        QTest::newRow("sandbox cert url passes")
            << signedRequestWithCertUrl(
                   body, "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1")
            << kNowMs << QString();
        QTest::newRow("one bit flipped") << withBody(flipped) << kNowMs << "bad_signature";
        QTest::newRow("re-serialised") << withBody(reserialised) << kNowMs << "bad_signature";
        QTest::newRow("truncated") << withBody(body.chopped(1)) << kNowMs << "bad_signature";
        QTest::newRow("wrong key")
            << m_otherSigner.sign(body, kWebhookId, kNowMs) << kNowMs << "bad_signature";
        QTest::newRow("other body's signature")
            << withHeader(good, "paypal-transmission-sig",
                          m_signer.signature(
                              PayPalEvents::refundEvent("PAYMENT.CAPTURE.REFUNDED", params()),
                              kWebhookId, good.header("paypal-transmission-id"),
                              good.header("paypal-transmission-time")))
            << kNowMs << "bad_signature";
        QTest::newRow("event id as webhook id")
            << m_signer.sign(body, "WH-58D329510W468432D-8HN650336L201105X", kNowMs) << kNowMs
            << "bad_signature";
        QTest::newRow("transmission id swapped")
            << withHeader(good, "paypal-transmission-id", "c3f1a0b0-0000-11ec-8e7b-8bbd3d3e4a0d")
            << kNowMs << "bad_signature";
        QTest::newRow("pipe in transmission id")
            << m_signer.sign(body, kWebhookId, kNowMs, "a|b") << kNowMs << "bad_signature";
        for (const char *h : {"paypal-transmission-id", "paypal-transmission-time",
                              "paypal-transmission-sig", "paypal-cert-url", "paypal-auth-algo"})
            QTest::addRow("missing %s", h)
                << withHeader(good, h, "-") << kNowMs << "missing_signature";
        QTest::newRow("empty signature")
            << withHeader(good, "paypal-transmission-sig", "") << kNowMs << "missing_signature";
        QTest::newRow("signature not base64")
            << withHeader(good, "paypal-transmission-sig", "not*base64") << kNowMs
            << "bad_signature";
        QTest::newRow("other algorithm")
            << withHeader(good, "paypal-auth-algo", "SHA1withRSA") << kNowMs << "bad_signature";
        for (const char *url :
             {"https://evil.example.com/v1/notifications/certs/CERT-1",
              "https://paypal.com.evil.example/certs/CERT-1", "https://evilpaypal.com/certs/CERT-1",
              "http://api.paypal.com/v1/notifications/certs/CERT-1",
              "https://api.paypal.com@evil.example/certs/CERT-1",
              "https://user@api.paypal.com/certs/CERT-1",
              "https://api.paypal.com:8443/certs/CERT-1", "not a url"})
            QTest::addRow("cert url %s", url)
                << signedRequestWithCertUrl(body, url) << kNowMs << "bad_signature";
        QTest::newRow("time without zone")
            << withHeader(good, "paypal-transmission-time", "2024-07-02T00:00:00") << kNowMs
            << "bad_signature";
        QTest::newRow("310 s old")
            << signedRequest(body, kNowMs - 310'000) << kNowMs << "stale_timestamp";
        QTest::newRow("310 s ahead")
            << signedRequest(body, kNowMs + 310'000) << kNowMs << "stale_timestamp";
    }

    void hostileSignatures()
    {
        QFETCH(InboundRequest, request);
        QFETCH(qint64, nowMs);
        QFETCH(QString, reason);
        QCOMPARE(reasonOf(adapter().verify(request, nowMs)), reason);
    }

    void configuration()
    {
        const InboundRequest req = signedRequest(PayPalEvents::captureCompleted(params()));
        QCOMPARE(reasonOf(adapter(m_cert, "").verify(req, kNowMs)),
                 QStringLiteral("not_configured"));
        QCOMPARE(reasonOf(adapter("").verify(req, kNowMs)), QStringLiteral("not_configured"));
        QCOMPARE(reasonOf(adapter(m_dir.filePath("missing.pem")).verify(req, kNowMs)),
                 QStringLiteral("not_configured"));
        QVERIFY(!adapter(m_dir.filePath("missing.pem")).configurationError().isEmpty());
        // Certificate rotation: either configured certificate verifies.
        const auto both = adapter(m_otherCert + "," + m_cert);
        QVERIFY(both.verify(req, kNowMs).ok());
        QVERIFY(both.verify(m_otherSigner.sign(req.body, kWebhookId, kNowMs), kNowMs).ok());
        QCOMPARE(reasonOf(adapter(m_otherCert).verify(req, kNowMs)),
                 QStringLiteral("bad_signature"));
    }

    void amounts_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<qint64>("minor");
        QTest::newRow("21.12") << "21.12"
                               << "USD" << QString() << qint64(2112);
        QTest::newRow("0.10") << "0.10"
                              << "USD" << QString() << qint64(10);
        QTest::newRow("1234567.89") << "1234567.89"
                                    << "USD" << QString() << qint64(123456789);
        QTest::newRow("21.1") << "21.1"
                              << "USD" << QString() << qint64(2110);
        QTest::newRow("21.123 USD") << "21.123"
                                    << "USD"
                                    << "bad_amount" << qint64(0);
        QTest::newRow("1e3") << "1e3"
                             << "USD"
                             << "bad_amount" << qint64(0);
        QTest::newRow("JPY 1000") << "1000"
                                  << "JPY" << QString() << qint64(1000);
        QTest::newRow("JPY 10.5") << "10.5"
                                  << "JPY"
                                  << "bad_amount" << qint64(0);
        QTest::newRow("KRW 45000") << "45000"
                                   << "KRW" << QString() << qint64(45000);
        QTest::newRow("XOF 5000") << "5000"
                                  << "XOF" << QString() << qint64(5000);
        QTest::newRow("negative") << "-21.12"
                                  << "USD"
                                  << "bad_amount" << qint64(0);
        QTest::newRow("above 64 bits") << "92233720368547758.08"
                                       << "USD"
                                       << "bad_amount" << qint64(0);
        QTest::newRow("way above") << "99999999999999999999999"
                                   << "JPY"
                                   << "bad_amount" << qint64(0);
        QTest::newRow("empty") << ""
                               << "USD"
                               << "bad_amount" << qint64(0);
        QTest::newRow("blank padded") << " 21.12"
                                      << "USD"
                                      << "bad_amount" << qint64(0);
        QTest::newRow("grouped") << "1,234.50"
                                 << "USD"
                                 << "bad_amount" << qint64(0);
        QTest::newRow("unknown currency") << "1.00"
                                          << "XXX"
                                          << "unknown_currency" << qint64(0);
    }

    void amounts()
    {
        QFETCH(QString, value);
        QFETCH(QString, currency);
        QFETCH(QString, reason);
        QFETCH(qint64, minor);
        const auto cb =
            adapter().parse(signedRequest(PayPalEvents::captureCompleted(params(value, currency))));
        QCOMPARE(reasonOf(cb), reason);
        if (cb.ok()) {
            QCOMPARE(cb->amountMinor, minor);
            QCOMPARE(cb->currency, currency);
        }
    }

    void hostileBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("<xml/>") << "malformed";
        QTest::newRow("no id") << QByteArray(
                                      R"({"event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{}})")
                               << "malformed";
        QTest::newRow("no type") << QByteArray(R"({"id":"WH-1","resource":{}})") << "malformed";
        QTest::newRow("no resource")
            << QByteArray(R"({"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED"})")
            << "malformed";
        QTest::newRow("capture without id")
            << QByteArray(
                   R"({"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"amount":{"currency_code":"USD","value":"1.00"}}})")
            << "malformed";
        QTest::newRow("number amount")
            << QByteArray(
                   R"({"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"id":"C1","amount":{"currency_code":"USD","value":21.12}}})")
            << "bad_amount";
        QTest::newRow("no amount")
            << QByteArray(
                   R"({"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"id":"C1","amount":{"currency_code":"USD"}}})")
            << "bad_amount";
    }

    void hostileBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, reason);
        const InboundRequest req = signedRequest(body);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        QCOMPARE(reasonOf(adapter().parse(req)), reason);
    }

    void registry()
    {
        AppConfig config = AppConfig::defaults(QDir::tempPath());
        config.channels["paypal"]["webhook_id"] = QString::fromLatin1(kWebhookId);
        config.channels["paypal"]["cert_file"] = m_cert;
        const ChannelRegistry registry(config);
        const ChannelAdapter *a = registry.adapter("paypal");
        QVERIFY(a);
        QVERIFY(a->verify(signedRequest(PayPalEvents::captureCompleted(params())), kNowMs).ok());
        QCOMPARE(registry.names(), QStringList({"fedapay", "kakaopay", "paypal", "stripe"}));
    }

private:
    InboundRequest signedRequestWithCertUrl(const QByteArray &body, const QByteArray &url) const
    {
        return m_signer.sign(body, kWebhookId, kNowMs, {}, url);
    }
};

QTEST_GUILESS_MAIN(TstPayPal)
#include "tst_paypal.moc"
