#include "channels/channelregistry.h"
#include "channels/stripe/stripeadapter.h"
#include "channels/stripe/stripeevents.h"
#include "channels/stripe/stripesigner.h"

#include <QTest>

using namespace OncePay;

namespace {

const QByteArray kSecret = "whsec_test_5Wq2hPZpXg3kz9Rr4s8dYbN1";
const QByteArray kOldSecret = "whsec_test_old_Qm7Lx0cVt2Jn6Hy";
const qint64 kNowSec = 1'719'878'400;
const qint64 kNowMs = kNowSec * 1000;

StripeAdapter adapter(QStringList secrets = {QString::fromLatin1(kSecret)})
{
    ChannelSettings s;
    s.secrets = secrets;
    return StripeAdapter(s);
}

StripeEvents::Params params(qint64 amount = 2112, const QString &currency = "usd")
{
    StripeEvents::Params p;
    p.eventId = "evt_1PzYxWvU0t9s8r7q6p5o4n3m";
    p.paymentIntentId = "pi_3PzYxWvU0t9s8r7q1a2b3c4d";
    p.orderId = "ORD-20240702-0001";
    p.attemptId = "att-7f3c2a";
    p.amountMinor = amount;
    p.currency = currency;
    p.createdSeconds = kNowSec;
    return p;
}

QString reasonOf(const Result<void> &r)
{
    return r.ok() ? QString() : r.error().reason;
}

QString reasonOf(const Result<NormalizedCallback> &r)
{
    return r.ok() ? QString() : r.error().reason;
}

} // namespace

class TstStripe : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validSucceeded()
    {
        const QByteArray body = StripeEvents::paymentIntentSucceeded(params());
        const InboundRequest req = StripeSigner::sign(body, kSecret, kNowSec);
        const auto a = adapter();
        QVERIFY(a.verify(req, kNowMs).ok());
        const auto cb = a.parse(req);
        QVERIFY2(cb.ok(), qPrintable(cb.ok() ? QString() : cb.error().message));
        QCOMPARE(cb->channel, QStringLiteral("stripe"));
        QCOMPARE(cb->callbackId, QStringLiteral("stripe:evt_1PzYxWvU0t9s8r7q6p5o4n3m"));
        QCOMPARE(cb->channelEventId, QStringLiteral("evt_1PzYxWvU0t9s8r7q6p5o4n3m"));
        QCOMPARE(cb->kind, CallbackKind::PaymentSucceeded);
        QCOMPARE(cb->channelEventType, QStringLiteral("payment_intent.succeeded"));
        QCOMPARE(cb->orderRef, QStringLiteral("ORD-20240702-0001"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-7f3c2a"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("pi_3PzYxWvU0t9s8r7q1a2b3c4d"));
        QVERIFY(cb->hasAmount);
        QCOMPARE(cb->amountMinor, qint64(2112));
        QCOMPARE(cb->currency, QStringLiteral("USD"));
        QCOMPARE(cb->occurredAtMs, kNowMs);
    }

    void failedProcessingRefunded()
    {
        const auto a = adapter();
        auto failed = a.parse(
            StripeSigner::sign(StripeEvents::paymentIntentFailed(params()), kSecret, kNowSec));
        QVERIFY(failed.ok());
        QCOMPARE(failed->kind, CallbackKind::PaymentFailed);
        QCOMPARE(failed->amountMinor, qint64(2112));

        auto pending = a.parse(
            StripeSigner::sign(StripeEvents::paymentIntentProcessing(params()), kSecret, kNowSec));
        QVERIFY(pending.ok());
        QCOMPARE(pending->kind, CallbackKind::PaymentPending);

        auto p = params(4500, "eur");
        p.chargeId = "ch_3PzYxWvU0t9s8r7q0z9y8x7w";
        p.refundId = "re_3PzYxWvU0t9s8r7q5v4u3t2s";
        const InboundRequest req =
            StripeSigner::sign(StripeEvents::chargeRefunded(p), kSecret, kNowSec);
        QVERIFY(a.verify(req, kNowMs).ok());
        auto refunded = a.parse(req);
        QVERIFY(refunded.ok());
        QCOMPARE(refunded->kind, CallbackKind::Refunded);
        QCOMPARE(refunded->channelTxnId, p.paymentIntentId);
        // A full refund: the running total is the whole charge; the id names charge and total.
        QCOMPARE(refunded->refundId, QStringLiteral("cumulative:ch_3PzYxWvU0t9s8r7q0z9y8x7w:4500"));
        QCOMPARE(refunded->amountMinor, qint64(4500));
        QCOMPARE(refunded->currency, QStringLiteral("EUR"));
        QCOMPARE(refunded->orderRef, QStringLiteral("ORD-20240702-0001"));
    }

    void partialRefundIsTheRunningTotal()
    {
        // API 2022-11-15 and later: charge.refunded for a partial refund, no refund list; the
        // charge's amount_refunded is the running total.
        const QByteArray body = R"({"id":"evt_1","type":"charge.refunded","created":1719878400,
            "api_version":"2024-06-20","data":{"object":{"id":"ch_1","object":"charge",
            "amount":10000,"amount_refunded":500,"refunded":false,"currency":"usd",
            "payment_intent":"pi_1","metadata":{"order_id":"O1"}}}})";
        auto cb = adapter().parse(StripeSigner::sign(body, kSecret, kNowSec));
        QVERIFY(cb.ok());
        QCOMPARE(cb->kind, CallbackKind::Refunded);
        QCOMPARE(cb->refundId, QStringLiteral("cumulative:ch_1:500"));
        QVERIFY(isCumulativeRefundId(cb->refundId));
        QCOMPARE(cb->channelTxnId, QStringLiteral("pi_1"));
        QCOMPARE(cb->amountMinor, qint64(500));

        // The fixture, as Stripe sends it since 2022-11-15: no refunds list in the charge.
        auto p = params(10000);
        p.chargeId = "ch_2";
        p.amountRefunded = 2500;
        const QByteArray fixture = StripeEvents::chargeRefunded(p);
        QVERIFY(!fixture.contains("\"refunds\""));
        QVERIFY(fixture.contains("\"api_version\": \"2024-06-20\""));
        auto partial = adapter().parse(StripeSigner::sign(fixture, kSecret, kNowSec));
        QVERIFY(partial.ok());
        QCOMPARE(partial->amountMinor, qint64(2500));
        QCOMPARE(partial->refundId, QStringLiteral("cumulative:ch_2:2500"));
    }

    void canceledIntentFails()
    {
        auto cb = adapter().parse(
            StripeSigner::sign(StripeEvents::paymentIntentCanceled(params()), kSecret, kNowSec));
        QVERIFY(cb.ok());
        QCOMPARE(cb->kind, CallbackKind::PaymentFailed);
        QCOMPARE(cb->channelEventType, QStringLiteral("payment_intent.canceled"));
        QCOMPARE(cb->channelTxnId, QStringLiteral("pi_3PzYxWvU0t9s8r7q1a2b3c4d"));
        QCOMPARE(cb->attemptRef, QStringLiteral("att-7f3c2a"));
    }

    void specialCaseCurrencies_data()
    {
        QTest::addColumn<QString>("currency");
        QTest::addColumn<qint64>("stripeAmount");
        QTest::addColumn<qint64>("isoMinor"); // -1: refused
        // Stripe's special cases: ISK and UGX in hundredths of their zero-decimal ISO unit.
        QTest::newRow("isk 5 kr") << "isk" << qint64(500) << qint64(5);
        QTest::newRow("isk 500 kr") << "isk" << qint64(50000) << qint64(500);
        QTest::newRow("isk fraction") << "isk" << qint64(50050) << qint64(-1);
        QTest::newRow("ugx 3800") << "ugx" << qint64(380000) << qint64(3800);
        QTest::newRow("ugx fraction") << "ugx" << qint64(101) << qint64(-1);
        // HUF and TWD are zero-decimal for payouts only: charges are two-decimal, as in ISO.
        QTest::newRow("huf two-decimal") << "huf" << qint64(12345) << qint64(12345);
        QTest::newRow("twd two-decimal") << "twd" << qint64(9950) << qint64(9950);
    }

    void specialCaseCurrencies()
    {
        QFETCH(QString, currency);
        QFETCH(qint64, stripeAmount);
        QFETCH(qint64, isoMinor);
        auto p = params(stripeAmount, currency);
        for (const QByteArray &body :
             {StripeEvents::paymentIntentSucceeded(p), StripeEvents::chargeRefunded(p)}) {
            const auto cb = adapter().parse(StripeSigner::sign(body, kSecret, kNowSec));
            if (isoMinor < 0) {
                QVERIFY(!cb.ok());
                QCOMPARE(cb.error().reason, QStringLiteral("bad_amount"));
                QVERIFY2(cb.error().message.contains(
                             QStringLiteral("%1 is not a whole number of %2: Stripe counts this "
                                            "currency in hundredths, always ending in 00")
                                 .arg(stripeAmount)
                                 .arg(currency.toUpper())),
                         qPrintable(cb.error().message));
                continue;
            }
            QVERIFY(cb.ok());
            QCOMPARE(cb->amountMinor, isoMinor);
            QCOMPARE(cb->currency, currency.toUpper());
        }
    }

    void hostileSignatures_data()
    {
        QTest::addColumn<QByteArray>("signatureHeader"); // "-" = header absent
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<QString>("reason");
        const QByteArray body = StripeEvents::paymentIntentSucceeded(params());
        const QByteArray good = StripeSigner::signatureHeader(body, {kSecret}, kNowSec);
        QByteArray flipped = body;
        flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x01);
        QByteArray reserialised = body;
        reserialised.replace("\n", "\r\n");

        QTest::newRow("valid") << good << body << kNowMs << QString();
        QTest::newRow("290 s old passes") << good << body << kNowMs + 290'000 << QString();
        QTest::newRow("290 s ahead passes") << good << body << kNowMs - 290'000 << QString();
        QTest::newRow("wrong secret")
            << StripeSigner::signatureHeader(body, {"whsec_wrong"}, kNowSec) << body << kNowMs
            << "bad_signature";
        QTest::newRow("tampered body") << good << flipped << kNowMs << "bad_signature";
        QTest::newRow("re-serialised body") << good << reserialised << kNowMs << "bad_signature";
        QTest::newRow("truncated body")
            << good << body.left(body.size() - 1) << kNowMs << "bad_signature";
        QTest::newRow("other body's signature")
            << StripeSigner::signatureHeader(StripeEvents::paymentIntentFailed(params()), {kSecret},
                                             kNowSec)
            << body << kNowMs << "bad_signature";
        QTest::newRow("missing header") << QByteArray("-") << body << kNowMs << "missing_signature";
        QTest::newRow("empty header") << QByteArray("") << body << kNowMs << "missing_signature";
        QTest::newRow("empty v1")
            << QByteArray("t=%1,v1=").replace("%1", QByteArray::number(kNowSec)) << body << kNowMs
            << "missing_signature";
        QTest::newRow("malformed header")
            << QByteArray("garbage;v1") << body << kNowMs << "bad_signature";
        QTest::newRow("no timestamp")
            << good.mid(good.indexOf(',') + 1) << body << kNowMs << "bad_signature";
        QTest::newRow("scheme misspelt")
            << QByteArray(good).replace("v1=", "v2=") << body << kNowMs << "missing_signature";
        QTest::newRow("upper-case hex")
            << QByteArray(good).toUpper() << body << kNowMs << "bad_signature";
        QTest::newRow("timestamp swapped")
            << QByteArray(good).replace(QByteArray::number(kNowSec),
                                        QByteArray::number(kNowSec + 1))
            << body << kNowMs << "bad_signature";
        QTest::newRow("301 s old") << StripeSigner::signatureHeader(body, {kSecret}, kNowSec - 301)
                                   << body << kNowMs << "stale_timestamp";
        QTest::newRow("301 s ahead")
            << StripeSigner::signatureHeader(body, {kSecret}, kNowSec + 301) << body << kNowMs
            << "stale_timestamp";
        QTest::newRow("310 s old") << good << body << kNowMs + 310'000 << "stale_timestamp";
        QTest::newRow("310 s ahead") << good << body << kNowMs - 310'000 << "stale_timestamp";
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
            req.addHeader("Stripe-Signature", signatureHeader);
        QCOMPARE(reasonOf(adapter().verify(req, nowMs)), reason);
    }

    void duplicateHeaderRefused()
    {
        const QByteArray body = StripeEvents::paymentIntentSucceeded(params());
        InboundRequest req = StripeSigner::sign(body, kSecret, kNowSec);
        req.addHeader("Stripe-Signature", StripeSigner::signatureHeader(body, {kSecret}, kNowSec));
        QCOMPARE(reasonOf(adapter().verify(req, kNowMs)), QStringLiteral("bad_signature"));
    }

    void rotation()
    {
        const QByteArray body = StripeEvents::paymentIntentSucceeded(params());
        const auto both = adapter({QString::fromLatin1(kSecret), QString::fromLatin1(kOldSecret)});
        QVERIFY(both.verify(StripeSigner::sign(body, kSecret, kNowSec), kNowMs).ok());
        QVERIFY(both.verify(StripeSigner::sign(body, kOldSecret, kNowSec), kNowMs).ok());
        // Stripe sends one v1 per active secret; any one of them may match.
        QVERIFY(
            both.verify(StripeSigner::sign(body, {"whsec_unknown", kOldSecret}, kNowSec), kNowMs)
                .ok());
        QVERIFY(adapter()
                    .verify(StripeSigner::sign(body, {kOldSecret, kSecret}, kNowSec), kNowMs)
                    .ok());
        QCOMPARE(reasonOf(adapter().verify(StripeSigner::sign(body, kOldSecret, kNowSec), kNowMs)),
                 QStringLiteral("bad_signature"));
    }

    void notConfigured()
    {
        const QByteArray body = StripeEvents::paymentIntentSucceeded(params());
        QCOMPARE(reasonOf(adapter({}).verify(StripeSigner::sign(body, kSecret, kNowSec), kNowMs)),
                 QStringLiteral("not_configured"));
    }

    void currencies_data()
    {
        QTest::addColumn<QString>("currency");
        QTest::addColumn<qint64>("amount");
        QTest::newRow("usd") << "usd" << qint64(2112);
        QTest::newRow("jpy zero-decimal") << "jpy" << qint64(1000);
        QTest::newRow("krw zero-decimal") << "krw" << qint64(45000);
        QTest::newRow("xof zero-decimal") << "xof" << qint64(5000);
        QTest::newRow("kwd three decimals") << "kwd" << qint64(1234);
        QTest::newRow("upper case accepted") << "USD" << qint64(1);
        QTest::newRow("zero") << "usd" << qint64(0);
        QTest::newRow("max") << "jpy" << std::numeric_limits<qint64>::max();
    }

    void currencies()
    {
        QFETCH(QString, currency);
        QFETCH(qint64, amount);
        const auto cb = adapter().parse(StripeSigner::sign(
            StripeEvents::paymentIntentSucceeded(params(amount, currency)), kSecret, kNowSec));
        QVERIFY(cb.ok());
        // Stripe's integer is already in minor units: 1000 JPY is 1000, 2112 USD cents is 21.12.
        QCOMPARE(cb->amountMinor, amount);
        QCOMPARE(cb->currency, currency.toUpper());
    }

    void hostileBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("reason");
        auto pi = [](const char *amount, const char *currency = "\"usd\"") -> QByteArray {
            return QByteArray(
                       R"({"id":"evt_1","type":"payment_intent.succeeded","created":1719878400,
                "data":{"object":{"id":"pi_1","amount":)") +
                   amount + R"(,"amount_received":)" + amount + R"(,"currency":)" + currency +
                   R"(,"metadata":{"order_id":"O1"}}}})";
        };
        QTest::newRow("not json") << QByteArray("{\"id\":") << "malformed";
        QTest::newRow("array") << QByteArray("[]") << "malformed";
        QTest::newRow("empty") << QByteArray() << "malformed";
        QTest::newRow("no id") << QByteArray(
                                      R"({"type":"payment_intent.succeeded","data":{"object":{}}})")
                               << "malformed";
        QTest::newRow("no type") << QByteArray(R"({"id":"evt_1","data":{"object":{}}})")
                                 << "malformed";
        QTest::newRow("no object")
            << QByteArray(R"({"id":"evt_1","type":"payment_intent.succeeded","data":{}})")
            << "malformed";
        QTest::newRow("object not object")
            << QByteArray(R"({"id":"evt_1","type":"x","data":{"object":"pi_1"}})") << "malformed";
        QTest::newRow("bad created")
            << QByteArray(R"({"id":"evt_1","type":"x","created":"yesterday","data":{"object":{}}})")
            << "malformed";
        QTest::newRow("pi without id")
            << QByteArray(
                   R"({"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"amount":1,"currency":"usd"}}})")
            << "malformed";
        QTest::newRow("negative") << pi("-2112") << "bad_amount";
        QTest::newRow("fraction") << pi("21.12") << "bad_amount";
        QTest::newRow("exponent") << pi("1e3") << "bad_amount";
        QTest::newRow("string amount") << pi("\"2112\"") << "bad_amount";
        QTest::newRow("null amount") << pi("null") << "bad_amount";
        QTest::newRow("overflow") << pi("9223372036854775808") << "bad_amount";
        QTest::newRow("way over") << pi("123456789012345678901234567890") << "bad_amount";
        QTest::newRow("unknown currency") << pi("100", "\"xxx\"") << "unknown_currency";
        QTest::newRow("long currency") << pi("100", "\"usdollar\"") << "unknown_currency";
        QTest::newRow("missing currency") << pi("100", "null") << "unknown_currency";
    }

    void hostileBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, reason);
        // Signed correctly: the parser must stand on its own.
        const InboundRequest req = StripeSigner::sign(body, kSecret, kNowSec);
        QVERIFY(adapter().verify(req, kNowMs).ok());
        QCOMPARE(reasonOf(adapter().parse(req)), reason);
    }

    void unhandledTypeIsOther()
    {
        const QByteArray body = StripeEvents::eventOfType("payment_intent.created", params());
        const auto cb = adapter().parse(StripeSigner::sign(body, kSecret, kNowSec));
        QVERIFY(cb.ok());
        QCOMPARE(cb->kind, CallbackKind::Other);
        QCOMPARE(cb->skipReason, QStringLiteral("unhandled event type payment_intent.created"));
        QCOMPARE(cb->callbackId, QStringLiteral("stripe:evt_1PzYxWvU0t9s8r7q6p5o4n3m"));
        QVERIFY(!cb->hasAmount);

        // Even with amounts OncePay would refuse: it is not acted on, so it is not judged.
        const QByteArray odd =
            R"({"id":"evt_2","type":"customer.created","data":{"object":{"id":"cus_1","balance":-5}}})";
        const auto other = adapter().parse(StripeSigner::sign(odd, kSecret, kNowSec));
        QVERIFY(other.ok());
        QCOMPARE(other->kind, CallbackKind::Other);
        QCOMPARE(other->skipReason, QStringLiteral("unhandled event type customer.created"));
    }

    void registry()
    {
        AppConfig config = AppConfig::defaults(QDir::tempPath());
        config.channels["stripe"]["webhook_secret"] =
            QString::fromLatin1(kSecret) + ", " + QString::fromLatin1(kOldSecret);
        config.channels["stripe"]["tolerance_seconds"] = "60";
        const ChannelRegistry registry(config);
        const ChannelAdapter *a = registry.adapter("stripe");
        QVERIFY(a);
        QCOMPARE(a->name(), QStringLiteral("stripe"));
        const QByteArray body = StripeEvents::paymentIntentSucceeded(params());
        QVERIFY(a->verify(StripeSigner::sign(body, kOldSecret, kNowSec), kNowMs).ok());
        QCOMPARE(reasonOf(a->verify(StripeSigner::sign(body, kSecret, kNowSec - 61), kNowMs)),
                 QStringLiteral("stale_timestamp"));
        QVERIFY(!registry.adapter("nope"));
    }
};

QTEST_GUILESS_MAIN(TstStripe)
#include "tst_stripe.moc"
