#include "channels/channeljson.h"
#include "channels/channelregistry.h"
#include "channels/fedapay/fedapayadapter.h"
#include "channels/kakaopay/kakaopayadapter.h"
#include "channels/paypal/paypaladapter.h"
#include "channels/signature.h"
#include "channels/stripe/stripeadapter.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace OncePay;

class TstSignature : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hmacKnownAnswer()
    {
        // RFC 4231 test case 2.
        QCOMPARE(Signature::toHex(Signature::hmacSha256("Jefe", "what do ya want for nothing?")),
                 QByteArray("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
    }

    void hmacLongAndEmptyKeysAndParts()
    {
        // RFC 4231 test case 6: a 131-byte key, longer than the block, is hashed first.
        QCOMPARE(
            Signature::toHex(Signature::hmacSha256(
                QByteArray(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")),
            QByteArray("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"));
        // An empty key is a valid (if foolish) HMAC key.
        QCOMPARE(Signature::toHex(Signature::hmacSha256(QByteArray(), QByteArray())),
                 QByteArray("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"));
        // The streamed parts are the HMAC of their concatenation.
        const QByteArray body = R"({"id":"evt_1","amount":1999})";
        QCOMPARE(Signature::hmacSha256("whsec_x",
                                       {QByteArrayView("1700000000"), QByteArrayView("."), body}),
                 Signature::hmacSha256("whsec_x", "1700000000." + body));
    }

    void hexAndBase64Strict()
    {
        QCOMPARE(*Signature::fromHex("00ff"), QByteArray("\x00\xff", 2));
        QVERIFY(!Signature::fromHex("0"));
        QVERIFY(!Signature::fromHex("zz"));
        QCOMPARE(*Signature::fromBase64("aGVsbG8="), QByteArray("hello"));
        QVERIFY(!Signature::fromBase64("aGVs*bG8="));
        QCOMPARE(Signature::toBase64("hello"), QByteArray("aGVsbG8="));
    }

    void constantTimeEquals()
    {
        QVERIFY(Signature::constantTimeEquals("abc", "abc"));
        QVERIFY(!Signature::constantTimeEquals("abc", "abd"));
        QVERIFY(!Signature::constantTimeEquals("abc", "abcd"));
        QVERIFY(Signature::anyEquals({"x", "abc"}, "abc"));
        QVERIFY(!Signature::anyEquals({}, "abc"));
    }

    void header_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("reason"); // empty = ok
        QTest::addColumn<int>("signatures");
        QTest::newRow("simple") << QByteArray("t=1700000000,v1=ab") << QString() << 1;
        QTest::newRow("several v1")
            << QByteArray("t=1700000000,v1=ab,v0=zz,v1=cd") << QString() << 2;
        QTest::newRow("spaces") << QByteArray(" t=1700000000, v1=ab ") << QString() << 1;
        QTest::newRow("empty") << QByteArray("") << "missing_signature" << 0;
        QTest::newRow("no v1") << QByteArray("t=1700000000,v0=ab") << "missing_signature" << 0;
        QTest::newRow("empty v1") << QByteArray("t=1700000000,v1=") << "missing_signature" << 0;
        QTest::newRow("no t") << QByteArray("v1=ab") << "bad_signature" << 0;
        QTest::newRow("two t") << QByteArray("t=1,t=2,v1=ab") << "bad_signature" << 0;
        QTest::newRow("bad t") << QByteArray("t=17e8,v1=ab") << "bad_signature" << 0;
        QTest::newRow("negative t") << QByteArray("t=-5,v1=ab") << "bad_signature" << 0;
        QTest::newRow("huge t") << QByteArray("t=99999999999999999999,v1=ab") << "bad_signature"
                                << 0;
        QTest::newRow("garbage") << QByteArray("garbage") << "bad_signature" << 0;
    }

    void header()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, reason);
        QFETCH(int, signatures);
        const auto r = Signature::parseTimestampedHeader(header, "v1");
        QCOMPARE(r.ok(), reason.isEmpty());
        if (r.ok()) {
            QCOMPARE(r->timestampSeconds, qint64(1700000000));
            QCOMPARE(r->signatures.size(), signatures);
        } else {
            QCOMPARE(r.error().reason, reason);
        }
    }

    void window()
    {
        const qint64 now = 1'700'000'000'000;
        QVERIFY(Signature::checkTimestampWindow(now, now, 300'000).ok());
        QVERIFY(Signature::checkTimestampWindow(now - 300'000, now, 300'000).ok());
        QVERIFY(Signature::checkTimestampWindow(now + 300'000, now, 300'000).ok());
        const auto old = Signature::checkTimestampWindow(now - 301'000, now, 300'000);
        QVERIFY(!old.ok());
        QCOMPARE(old.error().reason, QStringLiteral("stale_timestamp"));
        const auto future = Signature::checkTimestampWindow(now + 301'000, now, 300'000);
        QVERIFY(!future.ok());
        QCOMPARE(future.error().reason, QStringLiteral("stale_timestamp"));
    }

    void jsonIntegersAreExact()
    {
        auto integer = [](const char *json) {
            auto doc = ChannelJson::parse(QByteArray("{\"x\":[1,{\"a\":") + json + "}]}");
            if (!doc)
                return Result<qint64>(doc.error());
            return doc->nonNegativeInteger("x[1].a", "a");
        };
        QCOMPARE(*integer("9007199254740993"), qint64(9007199254740993LL));
        QCOMPARE(*integer("9223372036854775807"), std::numeric_limits<qint64>::max());
        QCOMPARE(*integer("0"), qint64(0));
        for (const char *bad :
             {"9223372036854775808", "10.5", "1.0", "1e3", "1E2", "9007199254740993e0", "-1", "-0",
              "\"100\"", "null", "true", "[1]"}) {
            const auto r = integer(bad);
            QVERIFY2(!r.ok(), bad);
            QCOMPARE(r.error().reason, QStringLiteral("bad_amount"));
        }
        // Qt refuses a number beyond double range outright.
        QCOMPARE(integer("1e400").error().reason, QStringLiteral("malformed"));
        auto doc = ChannelJson::parse("{ \"id\" : 123456789012 , \"s\": \"a,b]}\", \"n\": 7 }");
        QVERIFY(doc.ok());
        QCOMPARE(doc->idString("id"), QStringLiteral("123456789012"));
        QCOMPARE(doc->idString("s"), QStringLiteral("a,b]}"));
        QCOMPARE(*doc->nonNegativeInteger("n", "n"), qint64(7));
        QCOMPARE(ChannelJson::parse("[1]").error().reason, QStringLiteral("malformed"));
    }

    void jsonNumberPathsAfterNesting()
    {
        // Every number is found under its own path, also after the walk returns from nested
        // objects and arrays (siblings must not inherit a deeper path).
        auto doc = ChannelJson::parse(
            R"({"a":{"b":1,"c":[{"d":2},{"e":[3, 4]}],"s":"x"},"f":5,"a2":{"g":6},)"
            R"("t":true,"n":null,"z":[[8],[9,{"k":10}]]})");
        QVERIFY(doc.ok());
        const QHash<QByteArray, QByteArray> expected{
            {"a.b", "1"},         {"a.c[0].d", "2"}, {"a.c[1].e[0]", "3"},
            {"a.c[1].e[1]", "4"}, {"f", "5"},        {"a2.g", "6"},
            {"z[0][0]", "8"},     {"z[1][0]", "9"},  {"z[1][1].k", "10"}};
        QCOMPARE(doc->numbers, expected);
        QCOMPARE(*doc->nonNegativeInteger("a.c[1].e[1]", "e"), qint64(4));
    }

    // The console's raw-callback tab says how a stored callback was verified: every channel
    // the registry builds has a scheme, naming the header its adapter reads the signature from.
    void everyChannelNamesItsSignatureScheme()
    {
        const ChannelRegistry registry(AppConfig::defaults(QDir::tempPath()));
        const QMap<QString, const char *> header{{"stripe", StripeAdapter::kSignatureHeader},
                                                 {"fedapay", FedaPayAdapter::kSignatureHeader},
                                                 {"kakaopay", KakaoPayAdapter::kSignatureHeader},
                                                 {"paypal", PayPalAdapter::kTransmissionSig}};
        QCOMPARE(registry.names(), header.keys());
        for (const QString &channel : registry.names()) {
            const QString scheme = ChannelRegistry::signatureScheme(channel);
            QVERIFY2(scheme.startsWith(QLatin1String(header.value(channel))), qPrintable(scheme));
            QVERIFY2(scheme.contains(u"HMAC-SHA256") || scheme.contains(u"RSA-SHA256"),
                     qPrintable(scheme));
        }
        // PayPal's certificate is the configured file, never one fetched from the request's URL.
        QVERIFY(ChannelRegistry::signatureScheme(QStringLiteral("paypal"))
                    .contains(u"configured PayPal certificate (cert_file, never fetched"));
        QVERIFY(ChannelRegistry::signatureScheme(QStringLiteral("nope")).isEmpty());
    }

    void decimalStrings()
    {
        QCOMPARE(*ChannelJson::decimalString(QJsonValue("21.12"), "USD", "a"), qint64(2112));
        QCOMPARE(*ChannelJson::decimalString(QJsonValue("1000"), "JPY", "a"), qint64(1000));
        for (const char *bad : {"10.5", "-1", "+1", " 1", "1e3", "", "1,000"})
            QVERIFY2(!ChannelJson::decimalString(QJsonValue(bad), "JPY", "a").ok(), bad);
        QVERIFY(!ChannelJson::decimalString(QJsonValue(10), "JPY", "a").ok());
    }
};

QTEST_GUILESS_MAIN(TstSignature)
#include "tst_signature.moc"
