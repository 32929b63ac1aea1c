#include "channels/channeljson.h"
#include "channels/signature.h"

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
