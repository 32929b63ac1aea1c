// The SQLite C API on the QSQLITE driver's own handle: same database, same transaction as
// QtSql, exact 64-bit integers and UTF-8 text both ways; other drivers get no handle.

#include "db/connection.h"
#include "db/sql.h"
#include "db/sqlitenative.h"

#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

class TstSqliteNative : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsAndWritesThroughTheDriversHandle()
    {
        QTemporaryDir dir;
        ConnectionProfile p;
        p.role = DbRole::Orders;
        p.dialect = Dialect::Sqlite;
        p.path = dir.filePath("n.db");
        auto c = Connection::open(p, "native-test");
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QVERIFY(Sql::exec(c->db(), "CREATE TABLE t (id INTEGER, name TEXT)").ok());
        sqlite3 *h = SqliteNative::handle(c->db());
        QVERIFY(h);

        QVERIFY(c->db().transaction());
        SqliteNative::Statement insert;
        QVERIFY(insert.prepare(h, "INSERT INTO t (id, name) VALUES (?, ?)").ok());
        const qint64 big = 9007199254740993LL; // 2^53 + 1: not representable as a double
        insert.bindAll({big, QStringLiteral("支付 ✓")});
        QVERIFY(insert.exec().ok());
        insert.reset();
        insert.bindAll({QVariant(), QVariant()});
        QVERIFY(insert.exec().ok());
        // QtSql sees the native insert inside the same transaction.
        QCOMPARE(Sql::scalar(c->db(), "SELECT COUNT(*) FROM t")->toLongLong(), 2);
        QVERIFY(c->db().rollback());
        QCOMPARE(Sql::scalar(c->db(), "SELECT COUNT(*) FROM t")->toLongLong(), 0);

        QVERIFY(Sql::exec(c->db(), "INSERT INTO t VALUES (?, ?)", {big, QStringLiteral("支付 ✓")})
                    .ok());
        SqliteNative::Statement select;
        QVERIFY(select.prepare(h, "SELECT id, name FROM t").ok());
        auto row = select.step();
        QVERIFY(row.ok() && *row);
        QCOMPARE(select.int64(0), big);
        QCOMPARE(select.string(1), QStringLiteral("支付 ✓"));
        QVERIFY(!*select.step());

        // A unique violation is a Conflict, whatever extended code the driver enabled.
        QVERIFY(Sql::exec(c->db(), "CREATE UNIQUE INDEX t_id ON t (id)").ok());
        SqliteNative::Statement dup;
        QVERIFY(dup.prepare(h, "INSERT INTO t (id, name) VALUES (?, 'again')").ok());
        dup.bind(1, big);
        auto conflict = dup.exec();
        QVERIFY(!conflict.ok());
        QCOMPARE(conflict.error().code, ErrorCode::Conflict);

        SqliteNative::Statement bad;
        QVERIFY(!bad.prepare(h, "SELECT nonsense FROM nowhere").ok());
    }
};

QTEST_GUILESS_MAIN(TstSqliteNative)
#include "tst_sqlitenative.moc"
