// A migration that needs a table another session is using waits for it at most
// Migrator::lockWait() and then stops — Unavailable, reason "migration_lock_wait", naming the
// migration, nothing of it recorded (and on PostgreSQL nothing of it left) — instead of waiting
// as long as that session lasts while every statement on the table queues behind it (the
// gateway's inserts, the workers' claims). Run again once the session has finished, it goes
// through; MariaDB's session gets its own lock_wait_timeout back. On the two servers: the
// orders database as the release before left it (PostgreSQL 20, before 0021's indexes on
// orders; MariaDB 21, before 0022's on callback_messages) and a session in a transaction that
// holds the table the way a writer (PostgreSQL) or any reader (MariaDB) holds it.

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "oldschema.h"
#include "testdatabases.h"

#include <QElapsedTimer>
#include <QTest>

using namespace OncePay;
using namespace std::chrono_literals;

class TstMigrationLockWait : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { Migrator::setLockWait(Migrator::kDefaultLockWait); }

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

        auto other = Connection::open(dbs->orders(), QStringLiteral("long transaction"));
        QVERIFY(other.ok());
        QSqlDatabase otherDb = other->db();
        // Ended by the server after 20 s idle, so that a migration that is not bounded fails
        // this test (it goes through then) instead of hanging it.
        QVERIFY(Sql::exec(otherDb, pg ? QStringLiteral("SET idle_in_transaction_session_timeout"
                                                       " = 20000")
                                      : QStringLiteral("SET SESSION idle_transaction_timeout = 20"))
                    .ok());
        QVERIFY(otherDb.transaction());
        QVERIFY(Sql::exec(otherDb, pg ? QStringLiteral("LOCK TABLE orders IN ROW EXCLUSIVE MODE")
                                      : QStringLiteral("SELECT COUNT(*) FROM callback_messages"))
                    .ok());

        Migrator::setLockWait(1500ms);
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
        QVERIFY2(ms >= 1400 && ms < 1500 + 5000, qPrintable(QString::number(ms)));
        QCOMPARE(*Migrator::currentVersion(*c), through); // nothing recorded
        if (pg)                                           // rolled back with its transaction
            QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT COUNT(*) FROM pg_indexes WHERE"
                                                         " indexname = 'orders_in_flight'"))
                         ->toInt(),
                     0);
        else // the session's own bound again
            QCOMPARE(Sql::scalar(c->db(), QStringLiteral("SELECT @@SESSION.lock_wait_timeout ="
                                                         " @@GLOBAL.lock_wait_timeout"))
                         ->toInt(),
                     1);

        // The session finishes: run again, the migration goes through.
        QVERIFY(otherDb.rollback());
        auto done = Migrator::migrate(*c);
        QVERIFY2(done.ok(), qPrintable(done.ok() ? QString() : done.error().message));
        QCOMPARE(done->after, Migrator::latestVersion(QStringLiteral("orders"), dbs->dialect()));
        QVERIFY(done->applied.contains(next));
    }
};

QTEST_GUILESS_MAIN(TstMigrationLockWait)
#include "tst_migration_lock_wait.moc"
