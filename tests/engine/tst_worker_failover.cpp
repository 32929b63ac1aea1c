// A standing worker pool after a database failover, and its audit shipping when idle.
//
// Failover: the old primary is fenced read-only and the address leads to the new one. The
// worker's session on the old server still answers SELECT 1, so waiting on it never cures its
// claims; the pool must drop the connection at the first claim refused as read-only and open a
// new one. Here the worker's own session is made read-only under it (through the afterRound
// hook, on the worker's thread and connection: nothing server-wide, the shared test servers'
// other users are left alone); a new session is writable, as the new primary is. On PostgreSQL
// the read-only state is also put on the test's own login for a while, so that every new
// session is read-only until it is lifted (the proxy not yet switched): the pool keeps trying
// and works once it is. A claim that keeps failing on a session that answers for any other
// reason is reconnected after a few tries (the backstop).
//
// Idle shipping: audit events written while no callback arrives (an order created, a sign-in,
// a fix) are shipped by an idle pool within seconds, and a backlog larger than one bounded
// step is shipped step after step without waiting for callbacks.

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "enginefixture.h"
#include "logcapture.h"
#include "polluntil.h"
#include "serveraccount.h"
#include "worker/workerauditshipping.h"
#include "workerpooltestsupport.h"

#include <QCoreApplication>
#include <QTest>

#include <atomic>
#include <functional>
#include <optional>
#include <thread>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

WorkerPoolOptions quickOptions()
{
    WorkerPoolOptions options;
    options.threads = 1;
    options.idleSleepMs = 100;
    options.idleAfterRoundMs = 100;
    options.maxReconnectDelayMs = 400;
    return options;
}

// The statement that makes this session's next transactions read-only.
QString readOnlySession(Dialect dialect)
{
    switch (dialect) {
    case Dialect::Postgres:
        return QStringLiteral("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
    case Dialect::MySql: return QStringLiteral("SET SESSION TRANSACTION READ ONLY");
    case Dialect::Sqlite: return QStringLiteral("PRAGMA query_only = 1");
    }
    return {};
}

// A statement after which this session's claims fail for a reason that is neither read-only
// nor a lost link, while SELECT 1 still answers: the tables are out of its sight.
QString strandedSession(Dialect dialect)
{
    switch (dialect) {
    case Dialect::Postgres: return QStringLiteral("SET search_path TO oncepay_nowhere");
    case Dialect::MySql: return QStringLiteral("USE information_schema");
    case Dialect::Sqlite: return QStringLiteral("CREATE TEMP TABLE callback_messages (x INTEGER)");
    }
    return {};
}

// An afterRound hook that runs `sql` once on the worker's own connection when `armed` is set.
std::function<bool(const Connection &)> runOnceArmed(QString sql, std::atomic<bool> &armed,
                                                     std::atomic<bool> &done)
{
    return [sql, &armed, &done](const Connection &c) {
        if (armed.exchange(false)) {
            auto r = Sql::exec(c.db(), sql);
            if (!r)
                qWarning("%s: %s", qPrintable(sql), qPrintable(r.error().message));
            done.store(r.ok());
        }
        return false;
    };
}

} // namespace

class TstWorkerFailover : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The worker's session turns read-only under it (a fenced primary): its first refused
    // claim makes it reconnect — said once at warn, no "claim failed" loop — and the messages
    // delivered meanwhile are processed without a restart.
    void aReadOnlyDatabaseIsLeftAtOnce_data() { addEngineRows(); }
    void aReadOnlyDatabaseIsLeftAtOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto completed = [&] {
            return f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        };
        LogCapture log;
        std::atomic<bool> arm{false};
        std::atomic<bool> fenced{false};
        WorkerPoolOptions options = quickOptions();
        options.afterRound = runOnceArmed(readOnlySession(dbs->dialect()), arm, fenced);
        std::atomic<bool> stop{false};
        RunningPool pool(dbs->orders(), options, stop);

        QCOMPARE(deliverPaid(f, QStringLiteral("ro"), 1000, 1), IngestStatus::Stored);
        QVERIFY2(pollUntil([&] { return completed() == 1; }, 30000), qPrintable(log.text()));

        arm.store(true);
        QVERIFY2(pollUntil([&] { return fenced.load(); }, 10000), qPrintable(log.text()));
        for (int i = 2; i <= 4; ++i)
            QCOMPARE(deliverPaid(f, QStringLiteral("ro"), 1000, i), IngestStatus::Stored);
        QVERIFY2(pollUntil([&] { return completed() == 4; }, 20000),
                 qPrintable(QStringLiteral("messages left unprocessed on a read-only session:\n") +
                            log.text()));
        QVERIFY(!pool.finished());
        const Result<WorkerStats> &outcome = pool.end();
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().message));
        QVERIFY2(outcome->reconnects >= 1, qPrintable(outcome->summary()));
        const QStringList said =
            log.lines(QStringLiteral("warning")).filter(QStringLiteral("it is read-only"));
        QVERIFY2(said.size() == 1, qPrintable(log.text()));
        qInfo("said: %s", qPrintable(said.first()));
        // At the first refused claim: not after a run of failures.
        QVERIFY2(
            log.lines(QStringLiteral("warning")).filter(QStringLiteral("claim failed")).isEmpty(),
            qPrintable(log.text()));
        QVERIFY(!log.text().contains(QStringLiteral("claims failed in a row")));
        QVERIFY(log.lines(QStringLiteral("error")).isEmpty());
    }

    // PostgreSQL: every new session of the worker's login is read-only for a while (the
    // address still leads to the fenced server after the reconnect): the pool keeps
    // reconnecting, backing off, and works as soon as a session is writable again.
    void aStillReadOnlyServerIsRetriedUntilWritable_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::newRow("postgresql") << int(Dialect::Postgres);
    }
    void aStillReadOnlyServerIsRetriedUntilWritable()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const qint64 pid = QCoreApplication::applicationPid();
        ConnectionProfile login = dbs->orders();
        login.user = QStringLiteral("op_fo_%1").arg(pid);
        login.password = QStringLiteral("fo-pw-%1").arg(pid);
        ServerAccount account(*f.orders, login.user, login.password); // dropped at the end
        QVERIFY(account.created());
        QVERIFY(account.grantAll(login.database));
        auto completed = [&] {
            return f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        };
        LogCapture log;
        WorkerPoolOptions options = quickOptions();
        std::atomic<bool> stop{false};
        RunningPool pool(login, options, stop); // stopped before the account is dropped
        QCOMPARE(deliverPaid(f, QStringLiteral("fo"), 2000, 1), IngestStatus::Stored);
        QVERIFY2(pollUntil([&] { return completed() == 1; }, 30000), qPrintable(log.text()));

        // Fenced: new sessions of the login are read-only, and the worker's session is ended.
        QVERIFY(account.exec(QStringLiteral("ALTER ROLE %1 SET default_transaction_read_only = on")
                                 .arg(account.account())));
        QVERIFY(account.endSessions());
        for (int i = 2; i <= 3; ++i)
            QCOMPARE(deliverPaid(f, QStringLiteral("fo"), 2000, i), IngestStatus::Stored);
        auto readOnlyLines = [&] {
            return log.lines(QStringLiteral("warning")).filter(QStringLiteral("it is read-only"));
        };
        QVERIFY2(pollUntil([&] { return !readOnlyLines().isEmpty(); }, 20000),
                 qPrintable(log.text()));
        auto reconnects = [&] {
            return log.lines(QStringLiteral("warning"))
                .filter(QStringLiteral("reconnected to the database"))
                .size();
        };
        const int atFirst = reconnects();
        QVERIFY2(pollUntil([&] { return reconnects() >= atFirst + 2; }, 20000),
                 qPrintable(log.text()));
        QCOMPARE(completed(), 1);
        QCOMPARE(readOnlyLines().size(), 1); // once for the outage

        // The new primary: sessions are writable again. No restart.
        QVERIFY(account.exec(QStringLiteral("ALTER ROLE %1 RESET default_transaction_read_only")
                                 .arg(account.account())));
        QVERIFY2(pollUntil([&] { return completed() == 3; }, 20000),
                 qPrintable(QStringLiteral("not back at work once writable:\n") + log.text()));
        QVERIFY(!pool.finished());
        const Result<WorkerStats> &outcome = pool.end();
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().message));
        QCOMPARE(outcome->completed, 3);
    }

    // PostgreSQL: the audit database's server is fenced read-only under the worker's shipping
    // (its session ended, every new one of its login read-only): the events wait in the outbox,
    // the failure is said once, and once sessions are writable again (the new primary) they
    // are shipped by the same object — the read-only connection is not kept.
    void theAuditConnectionLeavesAReadOnlyServer_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::newRow("postgresql") << int(Dialect::Postgres);
    }
    void theAuditConnectionLeavesAReadOnlyServer()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto auditAdmin = openMigrated(dbs->audit(), QStringLiteral("test-audit"));
        QVERIFY2(auditAdmin.ok(),
                 qPrintable(auditAdmin.ok() ? QString() : auditAdmin.error().message));
        const qint64 pid = QCoreApplication::applicationPid();
        ConnectionProfile login = dbs->audit();
        login.user = QStringLiteral("op_foa_%1").arg(pid);
        login.password = QStringLiteral("foa-pw-%1").arg(pid);
        ServerAccount account(*auditAdmin, login.user, login.password); // dropped at the end
        QVERIFY(account.created());
        QVERIFY(account.grantAll(login.database));
        auto unshipped = [&] {
            return f.count("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at IS NULL");
        };
        LogCapture log;
        WorkerAuditShipping::Options quick;
        quick.firstReopenDelayMs = 50;
        quick.maxReopenDelayMs = 200;
        WorkerAuditShipping shipping(login, Clock::system(), quick); // closed before the drop
        f.createOrder(QStringLiteral("aro-1"), 100, "USD");
        QVERIFY(!shipping.ship(*f.orders)); // all shipped, nothing left
        QCOMPARE(unshipped(), 0);
        QVERIFY(shipping.connected());

        QVERIFY(account.exec(QStringLiteral("ALTER ROLE %1 SET default_transaction_read_only = on")
                                 .arg(account.account())));
        QVERIFY(account.endSessions());
        f.createOrder(QStringLiteral("aro-2"), 200, "USD");
        for (int i = 0; i < 20; ++i) {
            QVERIFY(!shipping.ship(*f.orders));
            QThread::msleep(30);
        }
        QCOMPARE(unshipped(), 1);
        QCOMPARE(log.lines(QStringLiteral("warning"))
                     .filter(QStringLiteral("audit shipping failed"))
                     .size(),
                 1);

        QVERIFY(account.exec(QStringLiteral("ALTER ROLE %1 RESET default_transaction_read_only")
                                 .arg(account.account())));
        QVERIFY2(pollUntil(
                     [&] {
                         (void)shipping.ship(*f.orders);
                         return unshipped() == 0;
                     },
                     10000),
                 qPrintable(QStringLiteral("the event stayed unshipped:\n") + log.text()));
        QVERIFY2(!log.lines(QStringLiteral("warning"))
                      .filter(QStringLiteral("audit shipping works again"))
                      .isEmpty(),
                 qPrintable(log.text()));
        auto n = Sql::scalar(auditAdmin->db(), QStringLiteral("SELECT COUNT(*) FROM audit_log"
                                                              " WHERE entity_id = 'aro-2'"));
        QVERIFY(n.ok());
        QCOMPARE(n->toLongLong(), 1);
    }

    // Claims that fail on a session which still answers SELECT 1, for a reason that is neither
    // read-only nor a lost link: after a few in a row the connection is opened afresh.
    void claimsFailingOnAnAnsweringSessionReconnect_data() { addEngineRows(); }
    void claimsFailingOnAnAnsweringSessionReconnect()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto completed = [&] {
            return f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'");
        };
        LogCapture log;
        std::atomic<bool> arm{false};
        std::atomic<bool> stranded{false};
        WorkerPoolOptions options = quickOptions();
        options.afterRound = runOnceArmed(strandedSession(dbs->dialect()), arm, stranded);
        std::atomic<bool> stop{false};
        RunningPool pool(dbs->orders(), options, stop);

        QCOMPARE(deliverPaid(f, QStringLiteral("st"), 3000, 1), IngestStatus::Stored);
        QVERIFY2(pollUntil([&] { return completed() == 1; }, 30000), qPrintable(log.text()));
        arm.store(true);
        QVERIFY2(pollUntil([&] { return stranded.load(); }, 10000), qPrintable(log.text()));
        QCOMPARE(deliverPaid(f, QStringLiteral("st"), 3000, 2), IngestStatus::Stored);
        QVERIFY2(
            pollUntil([&] { return completed() == 2; }, 20000),
            qPrintable(QStringLiteral("claims kept failing on the same session:\n") + log.text()));
        const Result<WorkerStats> &outcome = pool.end();
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().message));
        QVERIFY2(outcome->reconnects >= 1, qPrintable(outcome->summary()));
        QVERIFY2(log.text().contains(QStringLiteral("%1 claims failed in a row")
                                         .arg(options.reconnectAfterFailedClaims)),
                 qPrintable(log.text()));
        QCOMPARE(
            log.lines(QStringLiteral("warning")).filter(QStringLiteral("claim failed:")).size(),
            options.reconnectAfterFailedClaims - 1);
    }

    // No callback arrives: an audit event written meanwhile (an order created) is shipped into
    // the audit database by the idle pool within seconds.
    void anIdleWorkerShipsTheOutbox_data() { addEngineRows(); }
    void anIdleWorkerShipsTheOutbox()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto audit = openMigrated(dbs->audit(), QStringLiteral("test-audit"));
        QVERIFY2(audit.ok(), qPrintable(audit.ok() ? QString() : audit.error().message));
        auto logged = [&](const QString &entity) {
            auto n = Sql::scalar(
                audit->db(), QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE entity_id = ?"),
                {entity});
            return n ? n->toLongLong() : -1;
        };
        LogCapture log;
        const ConnectionProfile auditProfile = dbs->audit();
        WorkerPoolOptions options = quickOptions();
        options.idleAfterRoundMs = 500;
        options.afterRound = [auditProfile](const Connection &orders) {
            thread_local WorkerAuditShipping shipping(auditProfile, Clock::system());
            return shipping.ship(orders);
        };
        std::atomic<bool> stop{false};
        RunningPool pool(dbs->orders(), options, stop);
        QThread::msleep(700); // the pool is idle: nothing was ever delivered

        f.createOrder(QStringLiteral("idle-1"), 4200, "USD");
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE entity_id = 'idle-1'"), 1);
        QVERIFY2(
            pollUntil([&] { return logged(QStringLiteral("idle-1")) == 1; }, 10000),
            qPrintable(QStringLiteral("an idle worker did not ship the event:\n") + log.text()));
        QVERIFY(pollUntil(
            [&] {
                return f.count("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at IS NULL") == 0;
            },
            10000));
        const Result<WorkerStats> &outcome = pool.end();
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().message));
        QCOMPARE(outcome->claimed, 0);
        QVERIFY(log.lines(QStringLiteral("error")).isEmpty());
    }

    // A backlog many bounded steps long (an audit database that was away) is shipped step
    // after step by an idle pool — not one step per idle interval, nor only after callbacks.
    void anIdleWorkerShipsABacklogStepAfterStep_data() { addEngineRows(); }
    void anIdleWorkerShipsABacklogStepAfterStep()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto audit = openMigrated(dbs->audit(), QStringLiteral("test-audit"));
        QVERIFY2(audit.ok(), qPrintable(audit.ok() ? QString() : audit.error().message));
        constexpr int kEvents = 1200;
        auto written =
            inTransaction(f.orders->db(), Transaction::Mode::Immediate, [&]() -> Result<int> {
                for (int i = 0; i < kEvents; ++i) {
                    AuditEvent e;
                    e.actor = QStringLiteral("amy");
                    e.actorRole = QStringLiteral("operator");
                    e.action = QStringLiteral("console.signed_in");
                    e.entityKind = QStringLiteral("user");
                    e.entityId = QStringLiteral("amy-%1").arg(i);
                    if (auto r = AuditOutbox::record(*f.orders, e, f.clock); !r)
                        return r.error();
                }
                return kEvents;
            });
        QVERIFY2(written.ok(), qPrintable(written.ok() ? QString() : written.error().message));
        LogCapture log;
        const ConnectionProfile auditProfile = dbs->audit();
        WorkerPoolOptions options = quickOptions();
        options.idleAfterRoundMs = 60000; // one idle call a minute: the backlog must not wait
        options.afterRound = [auditProfile](const Connection &orders) {
            WorkerAuditShipping::Options small;
            small.batchSize = 100;
            small.maxBatchesPerCall = 2; // six calls for the backlog
            thread_local WorkerAuditShipping shipping(auditProfile, Clock::system(), small);
            return shipping.ship(orders);
        };
        std::atomic<bool> stop{false};
        RunningPool pool(dbs->orders(), options, stop);
        QVERIFY2(pollUntil(
                     [&] {
                         return f.count("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at IS"
                                        " NULL") == 0;
                     },
                     20000),
                 qPrintable(QStringLiteral("%1 event(s) still unshipped:\n")
                                .arg(f.count("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at"
                                             " IS NULL")) +
                            log.text()));
        auto n = Sql::scalar(audit->db(), QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE"
                                                         " action = 'console.signed_in'"));
        QVERIFY(n.ok());
        QCOMPARE(n->toLongLong(), qint64(kEvents));
        const Result<WorkerStats> &outcome = pool.end();
        QVERIFY(outcome.ok());
        QCOMPARE(outcome->claimed, 0);
    }
};

QTEST_GUILESS_MAIN(TstWorkerFailover)
#include "tst_worker_failover.moc"
