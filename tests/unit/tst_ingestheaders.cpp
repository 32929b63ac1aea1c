// The headers of a stored callback (callback_messages.headers) are what an investigator reads
// back in the console: they must survive any byte a channel or an attacker puts in them.

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
};

QTEST_GUILESS_MAIN(TstIngestHeaders)
#include "tst_ingestheaders.moc"
