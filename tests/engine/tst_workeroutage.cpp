// The database goes away under a running worker pool and comes back (issue 3): the pool logs
// it, backs off, reconnects and carries on; the messages it held when the link broke are
// claimed again once their leases expire; every message ends completed exactly once — one
// credit, one purchase order, one logistics order, one transition into paid each.
// The outage is a TCP proxy between the pool and the test server that resets every link and
// refuses new ones for a few seconds: to the worker that is exactly a server restart, and it
// leaves the shared test server (other tests run against it at the same time) alone.
// On a private server the test can restart the real thing instead: set
// ONCEPAY_TEST_PG_STOP_CMD / ONCEPAY_TEST_PG_START_CMD (and ONCEPAY_TEST_MYSQL_…) to shell
// commands that stop and start it (e.g. pg_ctl -m fast stop / start).

#include "enginefixture.h"
#include "tcpoutageproxy.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// Polls `done` until it holds or `ms` pass.
template <typename Fn> bool waitFor(Fn done, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(20);
    }
    return true;
}

// The real server's stop and start commands for this engine, when the developer gave them.
std::pair<QString, QString> restartCommands(Dialect d)
{
    const char *prefix = d == Dialect::Postgres ? "ONCEPAY_TEST_PG_" : "ONCEPAY_TEST_MYSQL_";
    const QByteArray stop = QByteArray(prefix) + QByteArray("STOP_CMD");
    const QByteArray start = QByteArray(prefix) + QByteArray("START_CMD");
    return {qEnvironmentVariable(stop.constData()), qEnvironmentVariable(start.constData())};
}

bool shell(const QString &command)
{
    return QProcess::execute(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command}) == 0;
}

} // namespace

class TstWorkerOutage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void poolSurvivesDatabaseRestart_data() { addEngineRows(); }
    void poolSurvivesDatabaseRestart()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in this process: there is no server to restart");
        EngineFixture f(*dbs);
        constexpr int kBefore = 120, kDuring = 30, kTotal = kBefore + kDuring;
        auto deliver = [&](int i) {
            const QString id = QStringLiteral("o-%1").arg(i);
            f.createOrder(id, 1000 + i, "USD");
            f.pay(id, 1, QStringLiteral("a-%1").arg(i));
            QCOMPARE(f.deliver(StripeEvents::paymentIntentSucceeded(f.params(
                         id, QStringLiteral("a-%1").arg(i), 1000 + i, "USD",
                         QStringLiteral("evt_%1").arg(i), QStringLiteral("pi_%1").arg(i)))),
                     IngestStatus::Stored);
        };
        for (int i = 0; i < kBefore; ++i)
            deliver(i);

        TcpOutageProxy proxy(dbs->orders().host, dbs->orders().port);
        QVERIFY(proxy.start() > 0);
        ConnectionProfile viaProxy = dbs->orders();
        viaProxy.host = QStringLiteral("127.0.0.1");
        viaProxy.port = proxy.port();

        WorkerPoolOptions options;
        options.threads = 2;
        options.batch = 5;
        options.idleSleepMs = 100;
        options.maxReconnectDelayMs = 1000;
        options.config = {{QStringLiteral("lease_seconds"), QStringLiteral("2")},
                          {QStringLiteral("max_attempts"), QStringLiteral("12")}};
        std::atomic<bool> stop{false};
        std::optional<Result<WorkerStats>> outcome;
        std::thread pool(
            [&] { outcome.emplace(WorkerPool::run(viaProxy, Clock::system(), options, stop)); });
        auto completed = [&] {
            return f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        };

        // The outage strikes while the pool is busy.
        const auto [stopCmd, startCmd] = restartCommands(dbs->dialect());
        const bool realRestart = !stopCmd.isEmpty() && !startCmd.isEmpty();
        QVERIFY2(waitFor([&] { return completed() >= 20; }, 60000), "the pool made no progress");
        const int linksBefore = proxy.accepted();
        if (realRestart) {
            qInfo("restarting the real server: %s", qPrintable(stopCmd));
            QVERIFY(shell(stopCmd));
            QThread::msleep(3000);
            QVERIFY(shell(startCmd));
            QVERIFY(f.orders->reconnect().ok()); // the test's own link died with the server
            QVERIFY2(completed() < kBefore,
                     "the pool finished before the outage; nothing was tested");
            for (int i = kBefore; i < kTotal; ++i)
                deliver(i);
        } else {
            proxy.down();
            const qint64 atOutage = completed();
            QVERIFY2(atOutage < kBefore, "the pool finished before the outage; nothing was tested");
            // New callbacks keep arriving (ingest does not go through the lost link).
            for (int i = kBefore; i < kTotal; ++i)
                deliver(i);
            QThread::msleep(3000);
            const qint64 duringOutage = completed();
            QCOMPARE(duringOutage, atOutage); // nothing can be done without the database
            proxy.up();
        }

        const bool drained = waitFor([&] { return completed() == kTotal; }, 90000);
        stop.store(true);
        pool.join();
        QVERIFY2(drained, qPrintable(QStringLiteral("only %1 of %2 completed after the database "
                                                    "came back")
                                         .arg(completed())
                                         .arg(kTotal)));
        QVERIFY(outcome.has_value());
        QVERIFY2(outcome->ok(), qPrintable(outcome->ok() ? QString() : outcome->error().message));
        QVERIFY2((*outcome)->reconnects >= 1, qPrintable((*outcome)->summary()));
        QVERIFY(proxy.accepted() > linksBefore); // the pool really opened new links

        // Exactly once, whatever was in flight when the link broke.
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status <> 'completed'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages"), kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"),
                 kTotal);
        QCOMPARE(f.count("SELECT COUNT(DISTINCT order_id) FROM ledger_entries WHERE kind = "
                         "'payment_credit'"),
                 kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders"), kTotal);
        QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE to_state = 'paid'"), kTotal);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM orders o JOIN ledger_entries l ON l.order_id = o.order_id"
                    " WHERE o.state = 'paid' AND l.amount_minor = o.amount_minor"),
            kTotal);
    }

    // With --once an unreachable database is an error, not an endless wait.
    void onceReportsAnUnreachableDatabase_data() { addEngineRows(); }
    void onceReportsAnUnreachableDatabase()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() == Dialect::Sqlite)
            QSKIP("SQLite is a file in this process: there is no server to be unreachable");
        EngineFixture f(*dbs);
        TcpOutageProxy proxy(dbs->orders().host, dbs->orders().port);
        QVERIFY(proxy.start() > 0);
        proxy.down();
        ConnectionProfile viaProxy = dbs->orders();
        viaProxy.host = QStringLiteral("127.0.0.1");
        viaProxy.port = proxy.port();
        WorkerPoolOptions options;
        options.once = true;
        std::atomic<bool> stop{false};
        auto r = WorkerPool::run(viaProxy, Clock::system(), options, stop);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
    }
};

QTEST_GUILESS_MAIN(TstWorkerOutage)
#include "tst_workeroutage.moc"
