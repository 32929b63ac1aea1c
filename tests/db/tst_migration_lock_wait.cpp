// A migration that needs a lock another session holds — a table it uses, rows it changed —
// waits for it at most Migrator::lockWait() and then stops: Unavailable, reason
// "migration_lock_wait", naming the migration, nothing of it recorded (on PostgreSQL nothing of
// it left), instead of waiting as long as that session lasts while every statement on the
// table queues behind it (the gateway's inserts, the workers' claims). The process then leaves
// that database's migration alone for Migrator::lockWaitPause() — a retry meanwhile is refused
// at once, without touching the database — and after it, once the session has finished, the
// migration goes through. MariaDB's session gets its own lock waits back. On the two servers:
// the orders database as the release before left it (PostgreSQL 20, before 0021's indexes on
// orders; MariaDB 21, before 0022's on callback_messages) and a session in a transaction that
// holds the table the way a writer (PostgreSQL) or any reader (MariaDB) holds it; and on
// MariaDB a data migration's UPDATE waiting for a row another session changed.

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "oldschema.h"
#include "testdatabases.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <optional>
#include <thread>

using namespace OncePay;
using namespace std::chrono_literals;

namespace {

constexpr auto kWait = 1500ms;
constexpr auto kPause = 3000ms;

// A second session on the database in a transaction, ended by the server after 20 s idle, so
// that a migration that is not bounded fails the test (it goes through then) instead of
// hanging it.
struct OtherSession {
    std::optional<Connection> c;
    QSqlDatabase db;

    bool begin(const ConnectionProfile &p, const QString &hold)
    {
        auto opened = Connection::open(p, QStringLiteral("long transaction"));
        if (!opened)
            return false;
        c.emplace(std::move(opened).value());
        db = c->db();
        const bool pg = c->dialect() == Dialect::Postgres;
        return Sql::exec(db, pg ? QStringLiteral("SET idle_in_transaction_session_timeout = 20000")
                                : QStringLiteral("SET SESSION idle_transaction_timeout = 20"))
                   .ok() &&
               db.transaction() && Sql::exec(db, hold).ok();
    }
};

// The session's own lock waits (MariaDB), as "table/row" seconds.
QString mariadbLockWaits(const Connection &c)
{
    auto q = Sql::exec(c.db(), QStringLiteral("SELECT @@SESSION.lock_wait_timeout,"
                                              " @@SESSION.innodb_lock_wait_timeout"));
    if (!q || !q->next())
        return QStringLiteral("unreadable");
    return q->value(0).toString() + u'/' + q->value(1).toString();
}

} // namespace

class TstMigrationLockWait : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        Migrator::setLockWait(kWait);
        Migrator::setLockWaitPause(kPause);
    }
    void cleanup()
    {
        Migrator::setLockWait(Migrator::kDefaultLockWait);
        Migrator::setLockWaitPause(Migrator::kDefaultLockWaitPause);
    }

    void aBusyTableStopsTheMigrationInsteadOfHoldingItUp_data() { Test::addServerEngineRows(); }
    void aBusyTableStopsTheMigrationInsteadOfHoldingItUp()
    {
        ONCEPAY_SCRATCH(dbs);
        const bool pg = dbs->dialect() == Dialect::Postgres;
        const int through = pg ? 20 : 21;
        const QString next =
            pg ? QStringLiteral("0021_stuck_list_order") : QStringLiteral("0022_stuck_list_parts");
        auto c = Connection::open(dbs->orders(), QStringLiteral("migrate"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(Test::migrateThrough(*c, through), through);
        if (!pg) // a session with lock waits of its own gets them back
            QVERIFY(Sql::exec(c->db(), QStringLiteral("SET SESSION lock_wait_timeout = 77,"
                                                      " innodb_lock_wait_timeout = 33"))
                        .ok());

        OtherSession other;
        QVERIFY(other.begin(dbs->orders(),
                            pg ? QStringLiteral("LOCK TABLE orders IN ROW EXCLUSIVE MODE")
                               : QStringLiteral("SELECT COUNT(*) FROM callback_messages")));

        QElapsedTimer t;
        t.start();
        auto stopped = Migrator::migrate(*c);
        const qint64 ms = t.elapsed();
        QVERIFY2(!stopped.ok(), "the migration went through a table another session held");
        QCOMPARE(stopped.error().code, ErrorCode::Unavailable);
        QCOMPARE(stopped.error().reason, QStringLiteral("migration_lock_wait"));
        QVERIFY2(stopped.error().message.contains(next) &&
                     stopped.error().message.contains(QStringLiteral("another session")),
                 qPrintable(stopped.error().message));
        QVERIFY2(ms >= kWait.count() - 100 && ms < kWait.count() + 5000,
                 qPrintable(QString::number(ms)));
        QCOMPARE(*Migrator::currentVersion(*c), through); // nothing recorded
        if (pg)                                           // rolled back with its transaction
            QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM pg_indexes WHERE"
                                                         " indexname = 'orders_in_flight'"))
                         ->toInt(),
                     0);
        else
            QCOMPARE(mariadbLockWaits(*c), QStringLiteral("77/33"));

        // Tried again at once — a worker's thread retrying as after an outage, on a connection
        // of its own: refused without waiting, until the pause is over.
        auto another = Connection::open(dbs->orders(), QStringLiteral("retry"));
        QVERIFY(another.ok());
        t.restart();
        auto paused = Migrator::migrate(*another);
        QVERIFY(!paused.ok());
        QCOMPARE(paused.error().reason, QStringLiteral("migration_lock_wait"));
        QVERIFY2(paused.error().message.contains(QStringLiteral("tries again from")) &&
                     paused.error().message.contains(next),
                 qPrintable(paused.error().message));
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));

        // The session finishes and the pause passes: the migration goes through.
        QVERIFY(other.db.rollback());
        QTest::qWait(int(kPause.count()));
        auto done = Migrator::migrate(*c);
        QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        QCOMPARE(done->after, Migrator::latestVersion(QStringLiteral("orders"), dbs->dialect()));
        QVERIFY(done->applied.contains(next));
        if (!pg)
            QCOMPARE(mariadbLockWaits(*c), QStringLiteral("77/33"));
    }

    // On PostgreSQL the version's own insert can wait too, behind a session holding
    // schema_version (a LOCK TABLE, a VACUUM FULL): it is bounded like the migration's
    // statements and said the same way — it used to come back as an Internal failure.
    void aBusyVersionTableStopsTheMigrationOnPostgres()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        auto dbs = Test::ScratchDatabases::create(Dialect::Postgres);
        QVERIFY2(dbs.ok(), qPrintable(dbs.ok() ? QString() : dbs.error().message));
        const ConnectionProfile orders = (*dbs)->orders();
        auto c = Connection::open(orders, QStringLiteral("migrate"));
        QVERIFY(c.ok());
        QCOMPARE(Test::migrateThrough(*c, 20), 20);
        OtherSession other; // reads of schema_version pass, its inserts wait
        QVERIFY(other.begin(orders, QStringLiteral("LOCK TABLE schema_version IN EXCLUSIVE MODE")));

        auto stopped = Migrator::migrate(*c);
        QVERIFY2(!stopped.ok(), "the version was recorded past a session holding its table");
        QCOMPARE(stopped.error().code, ErrorCode::Unavailable);
        QCOMPARE(stopped.error().reason, QStringLiteral("migration_lock_wait"));
        QVERIFY2(stopped.error().message.contains(QStringLiteral("0021_stuck_list_order")) &&
                     stopped.error().message.contains(QStringLiteral("rolled back")),
                 qPrintable(stopped.error().message));
        QVERIFY(other.db.rollback());
        QCOMPARE(*Migrator::currentVersion(*c), 20);
        QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM pg_indexes WHERE"
                                                     " indexname = 'orders_in_flight'"))
                     ->toInt(),
                 0);
        QTest::qWait(int(kPause.count()));
        auto done = Migrator::migrate(*c);
        QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        QCOMPARE(done->after, Migrator::latestVersion(QStringLiteral("orders"), Dialect::Postgres));
    }

    // A link lost in the middle of a migration (a failover ends the session while a statement
    // waits) is Unavailable — what a worker waits out and migrates again — not an Internal
    // failure that ends its pool. PostgreSQL: the migration waits behind a writer's lock on
    // orders, and its server process is ended meanwhile.
    void aLinkLostMidMigrationIsUnavailable()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::Postgres)
        auto dbs = Test::ScratchDatabases::create(Dialect::Postgres);
        QVERIFY2(dbs.ok(), qPrintable(dbs.ok() ? QString() : dbs.error().message));
        const ConnectionProfile orders = (*dbs)->orders();
        {
            auto c = Connection::open(orders, QStringLiteral("old release"));
            QVERIFY(c.ok());
            QCOMPARE(Test::migrateThrough(*c, 20), 20);
        }
        Migrator::setLockWait(20000ms); // the link goes long before the bound
        OtherSession other;
        QVERIFY(other.begin(orders, QStringLiteral("LOCK TABLE orders IN ROW EXCLUSIVE MODE")));

        std::optional<Result<MigrationReport>> outcome;
        std::thread migrating([&] {
            auto c = Connection::open(orders, QStringLiteral("migrating"));
            outcome.emplace(c ? Migrator::migrate(*c) : Result<MigrationReport>(c.error()));
        });
        // Its server process ended once it waits on the lock.
        auto watch = Connection::open(orders, QStringLiteral("watch"));
        QVERIFY(watch.ok());
        bool ended = false;
        for (int i = 0; i < 500 && !ended; ++i) {
            auto n = Sql::scalar(
                watch->db(), QStringLiteral("SELECT COUNT(pg_terminate_backend(pid)) FROM"
                                            " pg_stat_activity WHERE datname ="
                                            " current_database() AND wait_event_type = 'Lock'"));
            ended = n && n->toInt() > 0;
            if (!ended)
                QThread::msleep(20);
        }
        migrating.join();
        QVERIFY(ended);
        QVERIFY(outcome && !outcome->ok());
        QVERIFY2(outcome->error().code == ErrorCode::Unavailable,
                 qPrintable(outcome->error().message));
        QVERIFY2(outcome->error().message.contains(QStringLiteral("0021_stuck_list_order")),
                 qPrintable(outcome->error().message));
        QVERIFY(other.db.rollback());
        QCOMPARE(*Migrator::currentVersion(*watch), 20);
    }

    // MariaDB counts a row's wait apart (innodb_lock_wait_timeout, 50 s by default): a data
    // migration's UPDATE waiting for a row another session changed stops within the bound too.
    // The database as a stop in 0020 left it: its column added, its backfill not recorded.
    void aRowAnotherSessionChangedStopsTheMigrationOnMariadb()
    {
        ONCEPAY_REQUIRE_SERVER(Dialect::MySql)
        auto dbs = Test::ScratchDatabases::create(Dialect::MySql);
        QVERIFY2(dbs.ok(), qPrintable(dbs.ok() ? QString() : dbs.error().message));
        const ConnectionProfile orders = (*dbs)->orders();
        auto c = Connection::open(orders, QStringLiteral("migrate"));
        QVERIFY(c.ok());
        QCOMPARE(Test::migrateThrough(*c, 22), 22);
        QVERIFY(Sql::exec(c->db(), QStringLiteral("DELETE FROM schema_version WHERE version >= 20"))
                    .ok());
        QVERIFY(Sql::exec(c->db(),
                          QStringLiteral("INSERT INTO callback_messages (callback_id, channel,"
                                         " event_kind, raw_body, headers, status, attempts,"
                                         " next_attempt_at, received_at, updated_at) VALUES"
                                         " ('stripe:evt_1', 'stripe', 'payment_succeeded', '{}',"
                                         " '{}', 'completed', 1, 0, 0, 0)"))
                    .ok());
        OtherSession other;
        QVERIFY(other.begin(orders, QStringLiteral("UPDATE callback_messages SET attempts = 2")));

        QElapsedTimer t;
        t.start();
        auto stopped = Migrator::migrate(*c);
        const qint64 ms = t.elapsed();
        QVERIFY2(!stopped.ok(), "the backfill went through a row another session held");
        QCOMPARE(stopped.error().reason, QStringLiteral("migration_lock_wait"));
        QVERIFY2(stopped.error().message.contains(QStringLiteral("0020_message_result_code")),
                 qPrintable(stopped.error().message));
        // 2 s (the bound in whole seconds), not the server's 50.
        QVERIFY2(ms >= kWait.count() - 100 && ms < kWait.count() + 5000,
                 qPrintable(QString::number(ms)));
        QCOMPARE(*Migrator::currentVersion(*c), 19);
        QVERIFY(other.db.rollback());
        QTest::qWait(int(kPause.count()));
        auto done = Migrator::migrate(*c);
        QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT result_code FROM callback_messages"))
                     ->toString(),
                 QStringLiteral("applied"));
    }
};

QTEST_GUILESS_MAIN(TstMigrationLockWait)
#include "tst_migration_lock_wait.moc"
