// Group commit through the gateway on SQLite, PostgreSQL and MariaDB: a concurrent burst
// with duplicates stores every callback exactly once in batches larger than one, and a
// database that cannot be reached gets 503 (never 200) for every callback.

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
    }
};

QTEST_GUILESS_MAIN(TstGatewayCommit)
#include "tst_gatewaycommit.moc"
