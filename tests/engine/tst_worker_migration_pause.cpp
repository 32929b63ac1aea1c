// A worker pool starting on a database whose migration stops on a lock another session holds
// (Migrator::lockWait): this process then leaves that migration alone for
// Migrator::lockWaitPause(), and a thread retrying at its back-off steps meanwhile was only
// refused — one "not migrating now" warning per thread every few seconds for the whole pause
// (measured: about 12 a minute per thread). Now the pool says it once per pause and its
// threads wait the pause out; once the other session has finished and the pause has passed,
// the migration goes through and the pool works. PostgreSQL: the orders database as the
// release before left it (version 20, before 0021's indexes on orders) and a session holding
// orders the way a writer does.

#include "db/migrator.h"
#include "db/sql.h"
#include "logcapture.h"
#include "oldschema.h"
#include "polluntil.h"
#include "testdatabases.h"
#include "workerpooltestsupport.h"

#include <QElapsedTimer>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace std::chrono_literals;

class TstWorkerMigrationPause : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup()
    {
        Migrator::setLockWait(Migrator::kDefaultLockWait);
        Migrator::setLockWaitPause(Migrator::kDefaultLockWaitPause);
    }

    void thePoolWaitsOutThePauseAndSaysItOnce()
    {
        ONCEPAY_REQUIRE_SERVER(int(Dialect::Postgres))
        auto scratch = ScratchDatabases::create(Dialect::Postgres);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        const ConnectionProfile orders = (*scratch)->orders();
        {
            auto c = Connection::open(orders, QStringLiteral("old release"));
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
            QCOMPARE(migrateThrough(*c, 20), 20);
        }
        Migrator::setLockWait(1000ms);
        Migrator::setLockWaitPause(3000ms);

        // The other session: a writer's lock on orders, in a transaction the server ends after
        // 30 s idle (so that a pool that is never unblocked fails the test, not hangs it).
        auto other = Connection::open(orders, QStringLiteral("long transaction"));
        QVERIFY(other.ok());
        QSqlDatabase otherDb = other->db();
        QVERIFY(
            Sql::exec(otherDb, QStringLiteral("SET idle_in_transaction_session_timeout = 30000"))
                .ok());
        QVERIFY(otherDb.transaction());
        QVERIFY(Sql::exec(otherDb, QStringLiteral("LOCK TABLE orders IN ROW EXCLUSIVE MODE")).ok());

        LogCapture log;
        WorkerPoolOptions options;
        options.threads = 3;
        options.idleSleepMs = 100;         // first retry after 100 ms …
        options.maxReconnectDelayMs = 400; // … then every 400 ms at most
        std::atomic<bool> stop{false};
        QElapsedTimer t;
        t.start();
        RunningPool pool(orders, options, stop);

        auto refusals = [&] { return log.text().count(QStringLiteral("not migrating now")); };
        auto waits = [&] {
            return log.lines(QStringLiteral("warning"))
                .filter(QStringLiteral("the worker waits until then"));
        };
        // The migration stops on the bound (after 1 s) and the pause begins: said once, by
        // whichever thread met it first (the one that waited, or one refused after it).
        QVERIFY2(pollUntil([&] { return !waits().isEmpty(); }, 15000), qPrintable(log.text()));
        // Most of the pause (3 s) at a retry every 400 ms or less: a dozen refusals and more,
        // each logged, before the change; nothing more now.
        QTest::qWait(2000);
        QVERIFY2(!pool.finished(), "the pool ended on a migration that waiting cures");
        QCOMPARE(waits().size(), 1);
        QVERIFY2(refusals() <= 1, qPrintable(log.text()));
        QVERIFY2(waits().first().contains(QStringLiteral("0021_stuck_list_order")),
                 qPrintable(waits().first()));
        QCOMPARE(*Migrator::currentVersion(*other), 20);

        // The other session ends; after the pause the migration goes through and the pool works.
        QVERIFY(otherDb.rollback());
        const int latest = Migrator::latestVersion(QStringLiteral("orders"), Dialect::Postgres);
        QVERIFY2(pollUntil(
                     [&] {
                         auto v = Migrator::currentVersion(*other);
                         return v && *v == latest;
                     },
                     15000),
                 qPrintable(log.text()));
        const qint64 migratedAfter = t.elapsed();
        QVERIFY2(migratedAfter >= 3500, qPrintable(QString::number(migratedAfter)));
        QVERIFY2(pollUntil([&] { return log.text().contains(QStringLiteral("starting")); }, 5000),
                 qPrintable(log.text()));
        QCOMPARE(waits().size(), 1);
        QVERIFY2(refusals() <= 1, qPrintable(log.text()));
        const auto &outcome = pool.end();
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().message));
    }
};

QTEST_GUILESS_MAIN(TstWorkerMigrationPause)
#include "tst_worker_migration_pause.moc"
