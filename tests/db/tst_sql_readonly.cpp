// A database that refuses to write because it is read-only — the old primary fenced after a
// failover, a standby, a read-only session — is Unavailable with reason "read_only" on every
// engine (Sql::classify), not an Internal fault: the worker and the audit shipper then drop the
// connection and open a new one, which a failover's address leads to the new primary, instead
// of failing on the old server until restarted. Forced here by a read-only transaction
// (PostgreSQL, MariaDB) or PRAGMA query_only (SQLite); other errors keep their classes.

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "oldschema.h"
#include "testdatabases.h"

#include <QSqlError>
#include <QTest>

using namespace OncePay;

namespace {

const QString kTable = QStringLiteral("sql_readonly_test");

QString describe(const Error &e)
{
    return QStringLiteral("%1/%2: %3").arg(errorCodeName(e.code), e.reason, e.message);
}

} // namespace

class TstSqlReadOnly : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The drivers' errors as they come, one per engine and a few that only look alike.
    void driverErrors_data()
    {
        QTest::addColumn<QString>("native");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("readOnly");
        const auto row = [](const char *name, const char *native, const char *text, bool ro) {
            QTest::newRow(name) << QString::fromLatin1(native) << QString::fromLatin1(text) << ro;
        };
        row("pg 25006", "25006",
            "ERROR:  cannot execute SELECT FOR UPDATE in a read-only transaction", true);
        row("mysql 1792", "1792", "Cannot execute statement in a READ ONLY transaction", true);
        row("mysql 1290 read-only", "1290",
            "The MariaDB server is running with the --read-only option so it cannot execute this"
            " statement",
            true);
        row("mysql 1836", "1836", "Running in read-only mode", true);
        row("sqlite 8", "8", "attempt to write a readonly database", true);
        // 1290 names other options too: not a read-only server.
        row("mysql 1290 secure-file-priv", "1290",
            "The MariaDB server is running with the --secure-file-priv option so it cannot"
            " execute this statement",
            false);
        row("pg undefined table", "42P01", "ERROR:  relation \"x\" does not exist", false);
        row("mysql unknown table", "1146", "Table 'x.y' doesn't exist", false);
    }
    void driverErrors()
    {
        QFETCH(QString, native);
        QFETCH(QString, text);
        QFETCH(bool, readOnly);
        const QSqlError error(QStringLiteral("driver"), text, QSqlError::StatementError, native);
        QCOMPARE(Sql::isReadOnly(error), readOnly);
        const Error e = Sql::classify(error, QStringLiteral("context"));
        if (readOnly) {
            QCOMPARE(e.code, ErrorCode::Unavailable);
            QCOMPARE(e.reason, QStringLiteral("read_only"));
        } else {
            QVERIFY2(e.reason != u"read_only", qPrintable(describe(e)));
        }
    }

    // On each engine: a write, a locking read (the worker's claim) in a read-only transaction
    // are Unavailable/read_only; once writable again the same connection writes, and a
    // duplicate key and a missing table keep their own classes.
    void readOnlyWritesAreUnavailable_data() { Test::addEngineRows(); }
    void readOnlyWritesAreUnavailable()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = Connection::open(dbs->orders(), QStringLiteral("test"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        const QSqlDatabase db = c->db();
        const Dialect engine = dbs->dialect();
        QVERIFY(Sql::exec(db, QStringLiteral("CREATE TABLE %1 (id INTEGER PRIMARY KEY, v INTEGER)")
                                  .arg(kTable))
                    .ok());
        QVERIFY(
            Sql::exec(db, QStringLiteral("INSERT INTO %1 (id, v) VALUES (1, 1)").arg(kTable)).ok());

        const auto readOnly = [&] {
            return Sql::exec(db, engine == Dialect::Sqlite
                                     ? QStringLiteral("PRAGMA query_only = 1")
                                     : QStringLiteral("START TRANSACTION READ ONLY"));
        };
        const auto writable = [&] {
            return Sql::exec(db, engine == Dialect::Sqlite ? QStringLiteral("PRAGMA query_only = 0")
                                                           : QStringLiteral("ROLLBACK"));
        };
        const auto expectReadOnly = [&](const QString &sql) {
            auto r = Sql::exec(db, sql);
            QVERIFY2(!r.ok(), qPrintable(sql));
            QVERIFY2(r.error().code == ErrorCode::Unavailable && r.error().reason == u"read_only",
                     qPrintable(describe(r.error())));
        };

        QVERIFY(readOnly().ok());
        expectReadOnly(QStringLiteral("INSERT INTO %1 (id, v) VALUES (2, 2)").arg(kTable));
        QVERIFY(writable().ok());
        QVERIFY(readOnly().ok());
        expectReadOnly(QStringLiteral("UPDATE %1 SET v = v + 1").arg(kTable));
        QVERIFY(writable().ok());
        if (engine != Dialect::Sqlite) { // SQLite has no locking read
            QVERIFY(readOnly().ok());
            expectReadOnly(QStringLiteral("SELECT id FROM %1 WHERE v = 1 FOR UPDATE").arg(kTable));
            QVERIFY(writable().ok());
        }

        // Writable again: the same connection writes; other errors are what they were.
        QVERIFY(
            Sql::exec(db, QStringLiteral("INSERT INTO %1 (id, v) VALUES (3, 3)").arg(kTable)).ok());
        auto duplicate =
            Sql::exec(db, QStringLiteral("INSERT INTO %1 (id, v) VALUES (3, 3)").arg(kTable));
        QVERIFY(!duplicate.ok());
        QCOMPARE(duplicate.error().code, ErrorCode::Conflict);
        auto missing = Sql::exec(db, QStringLiteral("SELECT v FROM sql_readonly_missing"));
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().code == ErrorCode::Internal && missing.error().reason.isEmpty(),
                 qPrintable(describe(missing.error())));
    }

    // A migration on a database that has turned read-only (a fenced primary under a worker
    // that reconnects and migrates) is Unavailable/read_only too — what a worker waits for and
    // tries again — not an Internal failure that ends its pool. SQLite fails in the script's
    // first statement, PostgreSQL already in creating the version table if missing.
    void aMigrationOnAReadOnlyDatabaseIsUnavailable_data() { Test::addEngineRows(); }
    void aMigrationOnAReadOnlyDatabaseIsUnavailable()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = Connection::open(dbs->orders(), QStringLiteral("test"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(Test::migrateThrough(*c, 20), 20);
        const Dialect engine = dbs->dialect();
        QVERIFY(Sql::exec(c->db(), engine == Dialect::Sqlite
                                       ? QStringLiteral("PRAGMA query_only = 1")
                                   : engine == Dialect::Postgres
                                       ? QStringLiteral("SET SESSION CHARACTERISTICS AS"
                                                        " TRANSACTION READ ONLY")
                                       : QStringLiteral("SET SESSION TRANSACTION READ ONLY"))
                    .ok());
        auto r = Migrator::migrate(*c);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().code == ErrorCode::Unavailable && r.error().reason == u"read_only",
                 qPrintable(describe(r.error())));
        QCOMPARE(*Migrator::currentVersion(*c), 20);
    }
};

QTEST_GUILESS_MAIN(TstSqlReadOnly)
#include "tst_sql_readonly.moc"
