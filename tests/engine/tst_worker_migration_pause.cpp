// A worker pool starting on a database whose migration stops on a lock another session holds
// (Migrator::lockWait): this process then leaves that migration alone for
// Migrator::lockWaitPause(), and every retry of the pool's threads meanwhile was refused and
// logged — one "not migrating now" warning per thread at every back-off step for the whole
// pause (measured: about 12 a minute per thread). Now the pool says it once per pause and its
// threads keep retrying quietly: a database migrated meanwhile by `oncepay db migrate` (another
// process, not paused) is taken at the next retry, long before the pause ends. PostgreSQL: the
// orders database as the release before left it (version 20, before 0021's indexes on orders)
// and a session holding orders the way a writer does.

#include "cliprocess.h"
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

    void thePoolSaysThePauseOnceAndTakesAMigrationDoneElsewhere()
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
        constexpr auto kPause = 20000ms; // far longer than the test needs to see its retries
        Migrator::setLockWait(1000ms);
        Migrator::setLockWaitPause(kPause);

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
        auto said = [&] {
            return log.lines(QStringLiteral("warning"))
                .filter(QStringLiteral("the worker keeps retrying, quietly until then"));
        };
        // The migration stops on the bound (after 1 s) and the pause begins: said once, by
        // whichever thread met it first (the one that waited, or one refused after it).
        QVERIFY2(pollUntil([&] { return !said().isEmpty(); }, 15000), qPrintable(log.text()));
        // Three threads retrying every 400 ms or less for 2 s: a dozen refusals and more, each
        // logged, before the change; nothing more now.
        QTest::qWait(2000);
        QVERIFY2(!pool.finished(), "the pool ended on a migration that waiting cures");
        QCOMPARE(said().size(), 1);
        QVERIFY2(refusals() <= 1, qPrintable(log.text()));
        QVERIFY2(said().first().contains(QStringLiteral("0021_stuck_list_order")),
                 qPrintable(said().first()));
        QCOMPARE(*Migrator::currentVersion(*other), 20);

        // The other session ends and an operator runs `oncepay db migrate` (its own process,
        // not paused): the pool goes on at its next retry, not when the pause ends.
        QVERIFY(otherDb.rollback());
        QProcessEnvironment env;
        const QString config = (*scratch)->writeConfigFile(&env);
        const CliRun migrated = runOncepay({"--config", config, "db", "migrate"}, env);
        QVERIFY2(migrated.exitCode == 0, qPrintable(migrated.out + migrated.err));
        QCOMPARE(*Migrator::currentVersion(*other),
                 Migrator::latestVersion(QStringLiteral("orders"), Dialect::Postgres));
        QVERIFY2(pollUntil([&] { return log.text().contains(QStringLiteral("starting")); }, 5000),
                 qPrintable(log.text()));
        QVERIFY2(t.elapsed() < kPause.count(), qPrintable(QString::number(t.elapsed())));
        QCOMPARE(said().size(), 1);
        QVERIFY2(refusals() <= 1, qPrintable(log.text()));
        const auto &outcome = pool.end();
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().message));
    }
};

QTEST_GUILESS_MAIN(TstWorkerMigrationPause)
#include "tst_worker_migration_pause.moc"
