// The headers of a stored callback (callback_messages.headers) are what an investigator reads
// back in the console: they must survive any byte a channel or an attacker puts in them, keep
// every channel's signature headers whole, and never hold a credential's value. A callback's
// body is shown with its secrets masked (a Stripe payment intent's client_secret …), its ids
// whole.

#include "channels/fedapay/fedapayadapter.h"
#include "channels/kakaopay/kakaopayadapter.h"
#include "channels/paypal/paypaladapter.h"
#include "channels/stripe/stripeadapter.h"
#include "channels/stripe/stripeevents.h"
#include "ingest/headerredaction.h"
#include "ingest/ingestservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

    void secretBodyKeys_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("secret");
        for (const char *key : {"client_secret",
                                "clientSecret",
                                "CLIENT-SECRET",
                                "secret",
                                "webhook_secret",
                                "password",
                                "db_password",
                                "passwd",
                                "token",
                                "access_token",
                                "accessToken",
                                "payment_token",
                                "pg_token",
                                "network_token",
                                "refresh_tokens",
                                "api_key",
                                "apiKey",
                                "x-api-key",
                                "apikey",
                                "cvc",
                                "CVV",
                                "cvc2",
                                "cvv2",
                                "pin",
                                "otp",
                                "token_issued_note",
                                "credentials",
                                "privateKey",
                                "private_key",
                                "aws_access_key_id",
                                "access_key",
                                "authorization"})
            QTest::newRow(key) << QString::fromLatin1(key) << true;
        // Ids and evidence an agent reads; a "key" or a "session" is not a secret in a body.
        for (const char *key : {"id",
                                "payment_intent",
                                "latest_charge",
                                "idempotency_key",
                                "transaction_key",
                                "checkout_session",
                                "tokenization_method",
                                "tokenisation",
                                "tokenized",
                                "tokenised_at",
                                "object",
                                "tid",
                                "merchant_reference",
                                "receipt_url",
                                "description",
                                "key",
                                "pinned",
                                "cvc_check",
                                "card_number",
                                "auth_code",
                                "aid"})
            QTest::newRow(key) << QString::fromLatin1(key) << false;
    }
    void secretBodyKeys()
    {
        QFETCH(QString, key);
        QFETCH(bool, secret);
        QCOMPARE(HeaderRedaction::isSecretBodyKey(key), secret);
    }

    // A Stripe payment_intent.succeeded as Stripe sends it (its payment intent carries the
    // client_secret): shown pretty-printed, the secret masked with its length, every id whole;
    // secrets nested anywhere masked, true/false/null kept; text that is not JSON as it is.
    void bodySecretsMaskedIdsKept()
    {
        StripeEvents::Params p;
        p.orderId = QStringLiteral("ord-body");
        p.attemptId = QStringLiteral("att-body-1");
        p.amountMinor = 1500;
        p.currency = QStringLiteral("usd");
        p.eventId = QStringLiteral("evt_body_1");
        p.paymentIntentId = QStringLiteral("pi_3BodyIntent");
        p.chargeId = QStringLiteral("ch_3BodyCharge");
        p.createdSeconds = 1767225600;
        const QByteArray raw = StripeEvents::paymentIntentSucceeded(p);
        const QString secret = QStringLiteral("pi_3BodyIntent_secret_Xyz");
        QVERIFY(raw.contains(secret.toLatin1())); // the fixture body does carry one

        const QString shown = HeaderRedaction::bodyForDisplay(QString::fromUtf8(raw));
        QVERIFY2(!shown.contains(u"_secret_"), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("\"client_secret\": \"[redacted, %1 characters]\"")
                                    .arg(secret.size())),
                 qPrintable(shown));
        for (const char *id :
             {"\"id\": \"evt_body_1\"", "\"id\": \"pi_3BodyIntent\"",
              "\"latest_charge\": \"ch_3BodyCharge\"", "\"idempotency_key\": \"att-body-1\"",
              "\"order_id\": \"ord-body\"", "\"amount_received\": 1500",
              "\"type\": \"payment_intent.succeeded\""})
            QVERIFY2(shown.contains(QLatin1String(id)), id);
        // Only the secret changed: the rest is the body pretty-printed.
        QJsonObject expected = QJsonDocument::fromJson(raw).object();
        QJsonObject data = expected.value(u"data").toObject();
        QJsonObject intent = data.value(u"object").toObject();
        intent.insert(u"client_secret", HeaderRedaction::bodyMarker(secret.size()));
        data.insert(u"object", intent);
        expected.insert(u"data", data);
        QCOMPARE(shown, QString::fromUtf8(QJsonDocument(expected).toJson(QJsonDocument::Indented)));

        const QString nested = HeaderRedaction::bodyForDisplay(
            QStringLiteral(R"([{"id": "tx_1", "password": "hunter22", "card": {"network_token":
            {"used": false, "value": "ntk-SECRET"}, "tokenization_method": "apple_pay"},
            "credentials": {"apiKey": 987654321, "secrets": ["s1-SECRET", "s2-SECRET", null]},
            "access_token": "订单SECRET", "note": "no secret here"}])"));
        QVERIFY2(!nested.contains(u"SECRET") && !nested.contains(u"hunter22") &&
                     !nested.contains(u"987654321"),
                 qPrintable(nested));
        for (const char *kept :
             {"\"id\": \"tx_1\"", "\"used\": false", "null",
              "\"tokenization_method\": \"apple_pay\"", "\"note\": \"no secret here\"",
              "\"password\": \"[redacted, 8 characters]\"",
              "\"apiKey\": \"[redacted, 9 characters]\"",
              "\"value\": \"[redacted, 10 characters]\"",
              "\"access_token\": \"[redacted, 8 characters]\""})
            QVERIFY2(nested.contains(QString::fromUtf8(kept)), kept);
        // The console's words for the marker.
        QVERIFY(HeaderRedaction::bodyForDisplay(R"({"client_secret": "abc"})", [](qsizetype n) {
                    return QStringLiteral("<%1>").arg(n);
                }).contains(u"\"client_secret\": \"<3>\""));
        // Not JSON (a form post, truncated text): as it is.
        for (const QString &text : {QStringLiteral("client_secret=abc&id=1"),
                                    QStringLiteral(R"({"client_secret": "abc")"), QString()})
            QCOMPARE(HeaderRedaction::bodyForDisplay(text), text);
    }

    // Card numbers and credentials a sender puts anywhere in a body (a metadata field, a
    // number, free text, JSON inside a string, a bearer token under an innocent key) are
    // masked where the body is shown; ids, amounts and timestamps stay whole.
    void bodyCardNumbersAndCredentialsMasked()
    {
        const QString raw = QStringLiteral(
            "{\"id\": \"evt_r1\", \"data\": {\"object\": { "
            "\"id\": \"pi_r1\", \"latest_charge\": \"ch_r1\", \"amount\": 1500, \"created\": "
            "1767225600, "
            "\"metadata\": {\"order_id\": \"ord-r1\", \"card_number\": \"4242424242424242\", "
            "\"cvc\": \"123\", "
            "\"pin\": 4321, \"note\": \"{\\\"password\\\":\\\"hunter2-inner\\\",\\\"ok\\\":1}\", "
            "\"list\": \"[\\\"4000 0566 5566 5556\\\"]\", \"plain_json\": \"{\\\"a\\\": 1}\", "
            "\"private_key\": \"pk-XYZ\", \"auth_code\": \"AUTH-998877\", \"other\": "
            "\"Bearer\\tabc.def\", "
            "\"header_copy\": \"Bearer eyJhbGciOi.xYz\", \"aws_access_key_id\": \"AKIAXYZ\", "
            "\"plan\": \"Basic plan for two\", \"two\": \"4242424242424242 5555-5555-5555-4444\", "
            "\"glued\": \"T4242424242424242\", \"ms\": 1767225600001, \"short\": \"4242 4242\", "
            "\"n2\": 5555555555554444, \"jwt\": "
            "\"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl\"}, "
            "\"card\": {\"number\": 4111111111111111, \"exp\": \"12/30\"}, "
            "\"description\": \"card 5555 5555 5555 4444 paid\"}}}");
        const QString shown = HeaderRedaction::bodyForDisplay(raw);
        for (const char *gone : {"\"4242424242424242", "4111111111111111", "5555 5555 5555 4444",
                                 "123", "4321", "hunter2", "0566", "pk-XYZ", "abc.def",
                                 "eyJhbGciOi", "AKIAXYZ", "5555-5555-5555-4444"})
            QVERIFY2(!shown.contains(QLatin1String(gone)), qPrintable(gone + ("\n" + shown)));
        for (const char *kept :
             {"\"id\": \"evt_r1\"",
              "\"id\": \"pi_r1\"",
              "\"latest_charge\": \"ch_r1\"",
              "\"amount\": 1500",
              "\"created\": 1767225600",
              "\"order_id\": \"ord-r1\"",
              "\"card_number\": \"424242…4242\"",
              "\"cvc\": \"[redacted, 3 characters]\"",
              "\"pin\": \"[redacted, 4 characters]\"",
              "\"number\": \"411111…1111\"",
              "\"exp\": \"12/30\"",
              "\"description\": \"card 555555…4444 paid\"",
              "\"note\": \"{\\\"ok\\\":1,\\\"password\\\":\\\"[redacted, 13 characters]\\\"}\"",
              "\"list\": \"[\\\"400005…5556\\\"]\"",
              "\"plain_json\": \"{\\\"a\\\": 1}\"",
              "\"private_key\": \"[redacted, 6 characters]\"",
              "\"auth_code\": \"AUTH-998877\"",
              "\"other\": \"[redacted, 14 characters]\"",
              "\"header_copy\": \"[redacted, 21 characters]\"",
              "\"aws_access_key_id\": \"[redacted, 7 characters]\"",
              "\"plan\": \"Basic plan for two\"",
              "\"two\": \"424242…4242 555555…4444\"",
              "\"glued\": \"T4242424242424242\"",
              "\"ms\": 1767225600001",
              "\"short\": \"4242 4242\"",
              "\"n2\": \"555555…4444\"",
              "\"jwt\": \"[redacted, 49 characters]\""})
            QVERIFY2(shown.contains(QString::fromUtf8(kept)), qPrintable(kept + ("\n" + shown)));
    }

    // A channel's identifier — a bare run of digits under an identifier key — is evidence,
    // shown whole even when its digits pass the Luhn check (FedaPay's 16-digit transaction_key
    // does about one time in ten; before, it showed as 6…4); the same number under a card
    // field, in free text (also under an identifier key), in groups or under an unknown key is
    // still masked, and a credential under an identifier key still is too.
    void identifiersKeptWholeWhateverTheirDigits()
    {
        const QString luhn = QStringLiteral("4242424242424242");
        QVERIFY(HeaderRedaction::isIdentifierBodyKey(u"transaction_key"));
        QVERIFY(HeaderRedaction::isIdentifierBodyKey(u"payment_method_id"));
        QVERIFY(HeaderRedaction::isIdentifierBodyKey(u"orderId"));
        QVERIFY(!HeaderRedaction::isIdentifierBodyKey(u"card_number"));
        QVERIFY(!HeaderRedaction::isIdentifierBodyKey(u"paid"));
        QVERIFY(HeaderRedaction::isIdentifierBodyKey(u"paymentID"));
        QVERIFY(HeaderRedaction::isIdentifierBodyKey(u"ORDER_ID"));
        for (const char16_t *word : {u"PAID", u"VOID", u"VALID", u"Id", u"AID_NOTE"})
            QVERIFY2(!HeaderRedaction::isIdentifierBodyKey(QStringView(word)),
                     qPrintable(QString::fromUtf16(word)));
        QVERIFY(!HeaderRedaction::isIdentifierBodyKey(u"Transaction_Key"));
        const QString raw =
            QStringLiteral(R"({"entity": {"id": 4111111111111111, "transaction_key": "%1",)"
                           R"( "merchant_reference": "%1", "tid": "%1", "account_id": "%1",)"
                           R"( "card_number": "%1", "note": "paid with %1", "extra": "%1",)"
                           R"( "payment_id": "Bearer abc.def", "order_id": "paid with %1",)"
                           R"( "account_ref_id": "4242 4242 4242 4242", "reference":)"
                           R"( "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}})")
                .arg(luhn);
        const QString shown = HeaderRedaction::bodyForDisplay(raw);
        for (const QString &kept : {QStringLiteral("\"id\": 4111111111111111"),
                                    QStringLiteral("\"transaction_key\": \"%1\"").arg(luhn),
                                    QStringLiteral("\"merchant_reference\": \"%1\"").arg(luhn),
                                    QStringLiteral("\"tid\": \"%1\"").arg(luhn),
                                    QStringLiteral("\"account_id\": \"%1\"").arg(luhn),
                                    QStringLiteral("\"card_number\": \"424242…4242\""),
                                    QStringLiteral("\"note\": \"paid with 424242…4242\""),
                                    QStringLiteral("\"extra\": \"424242…4242\""),
                                    QStringLiteral("\"payment_id\": \"[redacted, 14 characters]\""),
                                    // Under an identifier key, only a bare run of digits is an id:
                                    // text or grouped digits there are searched as anywhere else.
                                    QStringLiteral("\"order_id\": \"paid with 424242…4242\""),
                                    QStringLiteral("\"account_ref_id\": \"424242…4242\""),
                                    QStringLiteral("\"reference\": \"[redacted, 49 characters]\"")})
            QVERIFY2(shown.contains(kept), qPrintable(kept + u'\n' + shown));
    }

    // A header's credential in an authentication scheme is masked whatever whitespace follows
    // the scheme.
    void authSchemeWithTabMasked()
    {
        QVERIFY(HeaderRedaction::isCredential("x-forwarded-user", "Bearer\tabc.def"));
        QVERIFY(HeaderRedaction::isCredential("x-forwarded-user", "Basic dXNlcjpwYXNz"));
        QVERIFY(!HeaderRedaction::isCredential("user-agent", "Stripe/1.0"));
        // A bare JWT, and a URL whose query carries a credential, under any name.
        QVERIFY(HeaderRedaction::isCredential("x-forwarded-user",
                                              "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"));
        for (const char *url : {"https://shop.example/cb?order=1&access_token=abc", "/cb?token=abc",
                                "https://s3.example/o?X-Amz-Signature=ab12"})
            QVERIFY2(HeaderRedaction::isCredential("referer", url), url);
        QVERIFY(!HeaderRedaction::isCredential("referer", "https://shop.example/cb?order=1"));
        QVERIFY(!HeaderRedaction::isCredential("x-note", "eyJ alone is not a token"));
        QVERIFY(HeaderRedaction::isCredential(PayPalAdapter::kCertUrl,
                                              "https://api.paypal.com/cert?token=1") == false);
    }
};

QTEST_GUILESS_MAIN(TstIngestHeaders)
#include "tst_ingestheaders.moc"
