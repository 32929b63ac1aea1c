// The headers of a stored callback (callback_messages.headers) are what an investigator reads
// back in the console: they must survive any byte a channel or an attacker puts in them, keep
// every channel's signature headers whole, and never hold a credential's value.

#include "channels/fedapay/fedapayadapter.h"
#include "channels/kakaopay/kakaopayadapter.h"
#include "channels/paypal/paypaladapter.h"
#include "channels/stripe/stripeadapter.h"
#include "ingest/headerredaction.h"
#include "ingest/ingestservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace OncePay;

class TstIngestHeaders : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headersRoundTripThroughJson()
    {
        InboundRequest r;
        r.headers = {{"stripe-signature", "t=1700000000,v1=abc"},
                     {"x-quote", R"(say "hi" \ bye)"},
                     {"x-control", QByteArray("a\tb\nc\rd\x01"
                                              "e\x1f"
                                              "f\bg\fh",
                                              15)},
                     {"x-utf8", "订单 ✓ é"},
                     {"x-bad-utf8", QByteArray("\xff\xfe ok", 5)},
                     {"x-empty", ""},
                     {"x-empty", "second value of the same name"}};
        const QString stored = IngestService::headersJson(r);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(stored.toUtf8(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(doc.isArray());
        const QJsonArray pairs = doc.array();
        QCOMPARE(pairs.size(), r.headers.size());
        for (qsizetype i = 0; i < r.headers.size(); ++i) {
            const QJsonArray pair = pairs.at(i).toArray();
            QCOMPARE(pair.size(), 2);
            QCOMPARE(pair.at(0).toString(), QString::fromLatin1(r.headers[i].first));
            QCOMPARE(pair.at(1).toString(), QString::fromUtf8(r.headers[i].second));
        }
        // The same text QJsonDocument would have written, byte for byte, for ordinary headers.
        InboundRequest plain;
        plain.headers = {{"content-type", "application/json"}, {"x-utf8", "订单"}};
        QJsonArray expected;
        for (const auto &h : plain.headers)
            expected.append(QJsonArray{QString::fromLatin1(h.first), QString::fromUtf8(h.second)});
        QCOMPARE(IngestService::headersJson(plain),
                 QString::fromUtf8(QJsonDocument(expected).toJson(QJsonDocument::Compact)));
        QCOMPARE(IngestService::headersJson(InboundRequest{}), QStringLiteral("[]"));
    }

    // What is stored: each channel's evidence verbatim (also a name with "auth" in it), every
    // credential as "[redacted, N bytes]" with N its length, no byte of any of them kept.
    void credentialsAreMaskedEvidenceIsKept()
    {
        const QByteArray paypalSig(344, 'Q');
        const QList<QPair<QByteArray, QByteArray>> evidence = {
            {StripeAdapter::kSignatureHeader, "t=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa5"},
            {PayPalAdapter::kTransmissionId, "69cd13f0-d67a-11e5-baa3-778b53f4ae55"},
            {PayPalAdapter::kTransmissionTime, "2016-02-18T20:01:35Z"},
            {PayPalAdapter::kTransmissionSig, paypalSig},
            {PayPalAdapter::kCertUrl, "https://api.paypal.com/v1/notifications/certs/CERT-360"},
            {PayPalAdapter::kAuthAlgo, "SHA256withRSA"},
            {FedaPayAdapter::kSignatureHeader, "t=1700000000,s=abcdef"},
            {KakaoPayAdapter::kIdHeader, "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"},
            {KakaoPayAdapter::kTimestampHeader, "1700000000"},
            {KakaoPayAdapter::kSignatureHeader, "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="},
            {"content-type", "application/json; charset=utf-8"},
            {"user-agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)"},
            {"x-request-id", "req_8mXfJ0"},
            {"x-forwarded-for", "203.0.113.7"},
            {"x-newchannel-signature", "sha256=0a1b2c"}, // a header nobody listed is kept
        };
        const QList<QPair<QByteArray, QByteArray>> credentials = {
            {"authorization", "Bearer sk_live_SUPERSECRET123"},
            {"proxy-authorization", "Basic dXNlcjpwYXNz"},
            {"cookie", "session=c00kieval"},
            {"set-cookie", "sid=zzz; HttpOnly"},
            {"x-api-key", "apikey-TOPSECRET"},
            {"X-Auth-Token", "tok-TOPSECRET"}, // any case
            {"x-client-secret", "cs-TOPSECRET"},
            {"x-session-id", "sess-TOPSECRET"},
            {"x-db-password", "pw-TOPSECRET"},
            {"ocp-apim-subscription-key", "sub-TOPSECRET"},
            {"x-auth", "xa-TOPSECRET"},
            {"x-upstream", "bearer up-TOPSECRET"}, // a credential by its value
            {"x-forwarded-authorization", "Bearer fwd-TOPSECRET"},
        };
        InboundRequest r;
        for (qsizetype i = 0; i < qMax(evidence.size(), credentials.size()); ++i) {
            if (i < evidence.size())
                r.headers << evidence[i];
            if (i < credentials.size())
                r.headers << credentials[i];
        }
        const QString stored = IngestService::headersJson(r);
        QVERIFY2(!stored.contains(u"TOPSECRET") && !stored.contains(u"SUPERSECRET") &&
                     !stored.contains(u"dXNlcjpwYXNz") && !stored.contains(u"c00kieval") &&
                     !stored.contains(u"zzz"),
                 qPrintable(stored));
        const QJsonArray pairs = QJsonDocument::fromJson(stored.toUtf8()).array();
        QCOMPARE(pairs.size(), r.headers.size());
        QMap<QString, QString> byName;
        for (const QJsonValue &p : pairs)
            byName.insert(p.toArray().at(0).toString(), p.toArray().at(1).toString());
        for (const auto &[name, value] : evidence)
            QCOMPARE(byName.value(QString::fromLatin1(name)), QString::fromLatin1(value));
        for (const auto &[name, value] : credentials)
            QCOMPARE(byName.value(QString::fromLatin1(name)),
                     QStringLiteral("[redacted, %1 bytes]").arg(value.size()));

        // Read back, the stored row reads the same; a row stored before ingest masked is masked
        // now, with the value's length; a masked value read again keeps its length.
        QJsonArray unmasked;
        for (const auto &h : r.headers)
            unmasked.append(
                QJsonArray{QString::fromLatin1(h.first), QString::fromLatin1(h.second)});
        for (const QString &text :
             {stored, QString::fromUtf8(QJsonDocument(unmasked).toJson(QJsonDocument::Compact))}) {
            const HeaderRedaction::StoredHeaders read = HeaderRedaction::read(text);
            QVERIFY(read.readable);
            QCOMPARE(read.headers.size(), r.headers.size());
            for (qsizetype i = 0; i < r.headers.size(); ++i) {
                const HeaderRedaction::StoredHeader &h = read.headers[i];
                QCOMPARE(h.name, QString::fromLatin1(r.headers[i].first));
                const bool credential = credentials.contains(r.headers[i]);
                QCOMPARE(h.redacted, credential);
                QCOMPARE(h.value, credential ? HeaderRedaction::marker(r.headers[i].second.size())
                                             : QString::fromLatin1(r.headers[i].second));
                QCOMPARE(h.redactedBytes, credential ? r.headers[i].second.size() : 0);
            }
        }
        // Not the pairs ingest writes: which part is a credential cannot be told, none is shown.
        QVERIFY(!HeaderRedaction::read(R"({"authorization": "Bearer x"})").readable);
        QVERIFY(!HeaderRedaction::read(R"([["authorization", "Bearer x", "more"]])").readable);
        QVERIFY(!HeaderRedaction::read(R"(authorization: Bearer x)").readable);
        QVERIFY(HeaderRedaction::read(R"(authorization: Bearer x)").headers.isEmpty());
        QVERIFY(HeaderRedaction::read("[]").readable);
    }
};

QTEST_GUILESS_MAIN(TstIngestHeaders)
#include "tst_ingestheaders.moc"
