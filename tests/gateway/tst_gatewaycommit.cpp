// Group commit through the gateway on SQLite, PostgreSQL and MariaDB: a concurrent burst
// with duplicates stores every callback exactly once in batches larger than one, a database
// that cannot be reached gets 503 (never 200) for every callback, one that refuses the row
// 500 (counted apart), and a value too long for its column 400 before any database.

#include "gatewaytestsupport.h"

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <random>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

qint64 count(const AppConfig &config, const QString &sql)
{
    auto c = Connection::open(config.orders, QStringLiteral("test"));
    if (!c)
        return -1;
    auto v = Sql::scalar(c->db(), sql);
    return v ? v->toLongLong() : -1;
}

QString text(const AppConfig &config, const QString &sql)
{
    auto c = Connection::open(config.orders, QStringLiteral("test"));
    if (!c)
        return QStringLiteral("(no connection)");
    auto v = Sql::scalar(c->db(), sql);
    return v ? v->toString() : v.error().message;
}

InboundRequest signedStripeWith(const StripeEvents::Params &p, const QString &type = {})
{
    const QByteArray body = type.isEmpty() ? StripeEvents::paymentIntentSucceeded(p)
                                           : StripeEvents::eventOfType(type, p);
    return StripeSigner::sign(body, kGwStripeSecret, nowSeconds());
}

} // namespace

class TstGatewayCommit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void burstWithDuplicates_data() { addEngineRows(); }
    void burstWithDuplicates()
    {
        ONCEPAY_SCRATCH(dbs);
        const AppConfig config = gatewayConfig(*dbs);
        QVERIFY(openMigrated(config.orders, QStringLiteral("test")).ok());
        GatewayOptions options;
        options.batchWaitMs = 5;
        GatewayHarness gw(config, options);

        // 100 distinct callbacks, each sent twice, shuffled over 8 client threads.
        constexpr int kUnique = 100;
        constexpr int kThreads = 8;
        QList<InboundRequest> all;
        for (int i = 0; i < kUnique; ++i) {
            const InboundRequest r = signedStripe(QStringLiteral("evt_burst_%1").arg(i));
            all << r << r;
        }
        std::shuffle(all.begin(), all.end(), std::mt19937(7));

        std::atomic<int> ok{0}, stored{0}, duplicate{0}, other{0};
        std::atomic<int> finished{0};
        std::vector<std::thread> clients;
        for (int t = 0; t < kThreads; ++t) {
            clients.emplace_back([&, t] {
                TestHttpClient c(gw.port);
                for (qsizetype i = t; i < all.size(); i += kThreads) {
                    HttpResult r =
                        c.request("POST", "/webhooks/stripe", all[i].body, all[i].headers);
                    if (r.status != 200) {
                        ++other;
                        qWarning("status %d %s %s", r.status, r.body.constData(),
                                 qPrintable(r.error));
                        continue;
                    }
                    ++ok;
                    const QString s =
                        QJsonDocument::fromJson(r.body).object().value("status").toString();
                    (s == u"stored" ? stored : duplicate)++;
                }
                ++finished;
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.load(), kThreads, 120000);
        for (auto &t : clients)
            t.join();

        QCOMPARE(other.load(), 0);
        QCOMPARE(ok.load(), 2 * kUnique);
        QCOMPARE(stored.load(), kUnique);
        QCOMPARE(duplicate.load(), kUnique);
        QCOMPARE(count(config, "SELECT COUNT(*) FROM callback_messages"), kUnique);
        QCOMPARE(count(config, "SELECT COUNT(DISTINCT callback_id) FROM callback_messages"),
                 kUnique);
        const GatewayMetrics &m = gw.gateway->metrics();
        QCOMPARE(m.total(QStringLiteral("stored")), quint64(kUnique));
        QCOMPARE(m.total(QStringLiteral("duplicate")), quint64(kUnique));
        QVERIFY2(m.batchesAbove(1) > 0, "no group commit carried more than one callback");
        QVERIFY(m.total(QStringLiteral("batches")) < quint64(2 * kUnique));
        qInfo("%llu transactions for %d requests", m.total(QStringLiteral("batches")), 2 * kUnique);
    }

    // A verified callback with a value longer than its message table column (MySQL's
    // VARCHAR(191)) used to get 500 for ever on MariaDB, retried by the channel without end,
    // and was stored on the others. Now: 400 on every engine, an ingest_rejections row and a
    // callback.rejected audit event naming the column, nothing else written.
    void overLongFieldIs400_data() { addEngineRows(); }
    void overLongFieldIs400()
    {
        ONCEPAY_SCRATCH(dbs);
        const AppConfig config = gatewayConfig(*dbs);
        QVERIFY(openMigrated(config.orders, QStringLiteral("test")).ok());
        GatewayHarness gw(config);

        const QString tooLong = QStringLiteral("o-") + QString(250, u'x'); // 252 characters
        QList<QPair<InboundRequest, QString>> cases; // request, column named in the answer
        StripeEvents::Params order = stripeParams(QStringLiteral("evt_long_order"), tooLong);
        cases.append({signedStripeWith(order), QStringLiteral("order_ref")});
        StripeEvents::Params attempt = stripeParams(QStringLiteral("evt_long_attempt"));
        attempt.attemptId = QString(192, u'a');
        cases.append({signedStripeWith(attempt), QStringLiteral("attempt_ref")});
        StripeEvents::Params intent = stripeParams(QStringLiteral("evt_long_intent"));
        intent.paymentIntentId = QStringLiteral("pi_") + QString(189, u'9');
        cases.append({signedStripeWith(intent), QStringLiteral("channel_txn_id")});
        cases.append({signedStripeWith(stripeParams(QStringLiteral("evt_long_type")),
                                       QStringLiteral("payment_intent.") + QString(180, u'z')),
                      QStringLiteral("channel_event_type")});
        // At the limit it is stored, counted in characters: 190 + one beyond the BMP (two
        // UTF-16 units) is 191 characters, and MariaDB's utf8mb4 column takes them.
        const QString atLimit = QString(190, u'o') + QString::fromUcs4(U"\U0001F600", 1);
        const InboundRequest fits = signedStripeWith(stripeParams("evt_at_limit", atLimit));

        const quint16 port = gw.port;
        const QList<HttpResult> answers = offThread([&] {
            TestHttpClient c(port);
            QList<HttpResult> out;
            for (const auto &one : cases)
                out << c.request("POST", "/webhooks/stripe", one.first.body, one.first.headers);
            out << c.request("POST", "/webhooks/stripe", fits.body, fits.headers);
            return out;
        });
        for (qsizetype i = 0; i < cases.size(); ++i) {
            const QString column = cases[i].second;
            QVERIFY2(answers[i].status == 400,
                     qPrintable(column + QStringLiteral(": ") + QString::number(answers[i].status) +
                                u' ' + QString::fromUtf8(answers[i].body)));
            const QJsonObject body = QJsonDocument::fromJson(answers[i].body).object();
            QCOMPARE(body.value("error").toString(), QStringLiteral("field_too_long"));
            QVERIFY2(body.value("message").toString().startsWith(column + QStringLiteral(" is ")),
                     qPrintable(body.value("message").toString()));
        }
        QCOMPARE(answers.last().status, 200);
        QCOMPARE(text(config, "SELECT order_ref FROM callback_messages"), atLimit);
        QCOMPARE(count(config, "SELECT COUNT(*) FROM callback_messages"), 1);

        QTRY_COMPARE(count(config, "SELECT COUNT(*) FROM ingest_rejections WHERE reason_code ="
                                   " 'field_too_long'"),
                     cases.size());
        QCOMPARE(count(config, "SELECT COUNT(*) FROM ingest_rejections"), cases.size());
        QCOMPARE(
            text(config, "SELECT detail FROM ingest_rejections WHERE detail LIKE 'order_ref%'"),
            QStringLiteral("order_ref is 252 characters long; the message table stores at "
                           "most 191"));
        QCOMPARE(count(config, "SELECT COUNT(*) FROM audit_outbox WHERE action ="
                               " 'callback.rejected' AND reason LIKE '%the message table stores%'"),
                 cases.size());
        const GatewayMetrics &m = gw.gateway->metrics();
        QCOMPARE(m.total(QStringLiteral("rejected")), quint64(cases.size()));
        QCOMPARE(m.total(QStringLiteral("not_stored")), quint64(0));
        QCOMPARE(m.total(QStringLiteral("unavailable")), quint64(0));
    }

    // U+0000 in a stored value: PostgreSQL refuses it (500 for ever), SQLite's text functions
    // stop at it. 400 on every engine, recorded and audited, nothing stored.
    void nulCharacterIs400_data() { addEngineRows(); }
    void nulCharacterIs400()
    {
        ONCEPAY_SCRATCH(dbs);
        const AppConfig config = gatewayConfig(*dbs);
        QVERIFY(openMigrated(config.orders, QStringLiteral("test")).ok());
        GatewayHarness gw(config);
        StripeEvents::Params p = stripeParams(QStringLiteral("evt_nul"), QStringLiteral("o-"));
        p.orderId += QChar(0) + QStringLiteral("7"); // sent as "o-\u00007"
        const InboundRequest escaped = signedStripeWith(p);
        QVERIFY(escaped.body.contains("o-\\u00007"));
        QByteArray raw = StripeEvents::paymentIntentSucceeded(stripeParams("evt_raw_nul"));
        raw.replace("\"a1\"", QByteArray("\"a\0\"", 4)); // a raw NUL byte in the attempt id
        const InboundRequest rawNul = StripeSigner::sign(raw, kGwStripeSecret, nowSeconds());
        const quint16 port = gw.port;
        const QList<HttpResult> r = offThread([&] {
            TestHttpClient c(port);
            return QList<HttpResult>{
                c.request("POST", "/webhooks/stripe", escaped.body, escaped.headers),
                c.request("POST", "/webhooks/stripe", rawNul.body, rawNul.headers)};
        });
        QCOMPARE(r[0].status, 400);
        const QJsonObject body = QJsonDocument::fromJson(r[0].body).object();
        QCOMPARE(body.value("error").toString(), QStringLiteral("field_not_storable"));
        QCOMPARE(body.value("message").toString(),
                 QStringLiteral("order_ref contains a NUL character, which the message table "
                                "cannot store"));
        QCOMPARE(r[1].status, 400); // Qt's JSON parser takes the raw NUL: the row would not
        QCOMPARE(QJsonDocument::fromJson(r[1].body).object().value("message").toString(),
                 QStringLiteral("raw_body contains a NUL character, which the message table "
                                "cannot store"));
        QTRY_COMPARE(count(config, "SELECT COUNT(*) FROM ingest_rejections WHERE reason_code ="
                                   " 'field_not_storable'"),
                     2);
        QCOMPARE(count(config, "SELECT COUNT(*) FROM audit_outbox WHERE action ="
                               " 'callback.rejected'"),
                 2);
        QCOMPARE(count(config, "SELECT COUNT(*) FROM callback_messages"), 0);
    }

    // The database is up but refuses the row (here: a column the INSERT names is gone): 500
    // "not_stored", counted apart from the 503s of a database that cannot be reached.
    void refusedRowIs500NotStored_data() { addEngineRows(); }
    void refusedRowIs500NotStored()
    {
        ONCEPAY_SCRATCH(dbs);
        const AppConfig config = gatewayConfig(*dbs);
        {
            auto c = openMigrated(config.orders, QStringLiteral("test"));
            QVERIFY(c.ok());
            QVERIFY(Sql::exec(c->db(), QStringLiteral("ALTER TABLE callback_messages RENAME"
                                                      " COLUMN headers TO headers_gone"))
                        .ok());
        }
        GatewayHarness gw(config);
        const quint16 port = gw.port;
        const InboundRequest req = signedStripe(QStringLiteral("evt_refused"));
        auto r = offThread([&] {
            TestHttpClient c(port);
            QList<HttpResult> out;
            out << c.request("POST", "/webhooks/stripe", req.body, req.headers);
            out << c.request("GET", "/metrics");
            return out;
        });
        QCOMPARE(r[0].status, 500);
        QCOMPARE(QJsonDocument::fromJson(r[0].body).object().value("error").toString(),
                 QStringLiteral("not_stored"));
        QCOMPARE(r[0].header("retry-after"), QByteArray());
        const GatewayMetrics &m = gw.gateway->metrics();
        QCOMPARE(m.total(QStringLiteral("not_stored")), quint64(1));
        QCOMPARE(m.total(QStringLiteral("unavailable")), quint64(0));
        QVERIFY(
            r[1].body.contains("oncepay_gateway_callbacks_not_stored_total{channel=\"stripe\"} 1"));
        QVERIFY(!r[1].body.contains("oncepay_gateway_callbacks_unavailable_total{"));
    }

    void databaseDownIs503_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::newRow("sqlite") << int(Dialect::Sqlite);
        QTest::newRow("postgresql") << int(Dialect::Postgres);
        QTest::newRow("mariadb") << int(Dialect::MySql);
    }
    void databaseDownIs503()
    {
        // No server needed: the orders profile points at an unwritable path or a closed port.
        QFETCH(int, dialect);
        QTemporaryDir dir;
        AppConfig config = AppConfig::defaults(dir.path());
        config.orders.dialect = Dialect(dialect);
        config.orders.path = QStringLiteral("/dev/null/not-a-directory/orders.db");
        config.orders.host = QStringLiteral("127.0.0.1");
        config.orders.port = 1;
        config.orders.database = QStringLiteral("oncepay");
        config.orders.user = QStringLiteral("oncepay");
        config.audit = config.orders;
        config.audit.role = DbRole::Audit;
        config.channels[QStringLiteral("stripe")][QStringLiteral("webhook_secret")] =
            QString::fromLatin1(kGwStripeSecret);
        if (!QSqlDatabase::isDriverAvailable(qtDriverName(config.orders.dialect)))
            QSKIP("Qt SQL driver not installed");
        GatewayHarness gw(config);
        const quint16 port = gw.port;
        const InboundRequest req = signedStripe(QStringLiteral("evt_down"));
        auto r = offThread([&] {
            TestHttpClient c(port);
            QList<HttpResult> out;
            out << c.request("POST", "/webhooks/stripe", req.body, req.headers);
            out << c.request("POST", "/webhooks/stripe", req.body, req.headers);
            out << c.request("GET", "/healthz");
            out << c.request("GET", "/metrics");
            // Refusing bad input does not need the database.
            out << c.request("POST", "/webhooks/stripe", req.body, {});
            return out;
        });
        QCOMPARE(r[0].status, 503);
        QCOMPARE(r[0].header("retry-after"), QByteArray("5"));
        QCOMPARE(r[1].status, 503);
        QCOMPARE(r[2].status, 503);
        QCOMPARE(QJsonDocument::fromJson(r[2].body).object().value("ready").toBool(), false);
        QCOMPARE(r[3].status, 200);
        QVERIFY(r[3].body.contains("oncepay_gateway_database_up 0"));
        QVERIFY(r[3].body.contains(
            "oncepay_gateway_callbacks_unavailable_total{channel=\"stripe\"} 2"));
        QCOMPARE(r[4].status, 400);
        QCOMPARE(gw.gateway->metrics().total(QStringLiteral("stored")), quint64(0));
        QCOMPARE(gw.gateway->metrics().total(QStringLiteral("not_stored")), quint64(0));
    }
};

QTEST_GUILESS_MAIN(TstGatewayCommit)
#include "tst_gatewaycommit.moc"
