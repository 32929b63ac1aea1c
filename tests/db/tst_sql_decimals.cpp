// PostgreSQL's and MariaDB's SUM of a BIGINT is a decimal, which their drivers read as a double
// by default: past 2^53 a sum of money would be rounded without a word. These tests prove that
// Sql::exec/scalar with Decimals::Exact and Sql::exactInteger give every engine's sums and
// counts as the exact integer, and refuse what is not one (a fraction, past 64 bits) instead of
// rounding or wrapping it.

#include "db/connection.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QTest>

#include <limits>

using namespace OncePay;

namespace {

constexpr qint64 kHalf = qint64(1) << 62; // two of them pass INT64_MAX; past 2^53 as a double

const QString kTable = QStringLiteral("sql_decimals_test");

QString errorOf(const Result<qint64> &r)
{
    return r.ok() ? QStringLiteral("ok: %1").arg(*r) : r.error().toString();
}

} // namespace

class TstSqlDecimals : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // What the drivers hand out for a sum or count, turned into an exact integer or refused.
    void exactIntegerConversion_data()
    {
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<bool>("fits");
        QTest::addColumn<qint64>("expected");
        QTest::addColumn<QString>("reason");
        const qint64 max = std::numeric_limits<qint64>::max();
        const qint64 min = std::numeric_limits<qint64>::min();
        const auto ok = [](const char *name, QVariant v, qint64 n) {
            QTest::newRow(name) << v << true << n << QString();
        };
        const auto no = [](const char *name, QVariant v, const char *reason) {
            QTest::newRow(name) << v << false << qint64(0) << QString::fromLatin1(reason);
        };
        ok("bigint", QVariant(kHalf + 1), kHalf + 1);
        ok("int", QVariant(int(-7)), -7);
        ok("unsigned bigint", QVariant(qulonglong(kHalf + 1)), kHalf + 1);
        ok("decimal text 2^62+1", QVariant(QStringLiteral("4611686018427387905")), kHalf + 1);
        ok("decimal text, zero fraction", QVariant(QStringLiteral("4611686018427387905.0000")),
           kHalf + 1);
        ok("decimal text, bytes", QVariant(QByteArray("42")), 42);
        ok("decimal text max", QVariant(QStringLiteral("9223372036854775807")), max);
        ok("decimal text min", QVariant(QStringLiteral("-9223372036854775808")), min);
        ok("whole double", QVariant(3.0), 3);
        ok("double 2^53", QVariant(9007199254740992.0), qint64(1) << 53);
        no("unsigned past 2^63", QVariant(qulonglong(1) << 63), "integer_overflow");
        no("decimal text 2^63", QVariant(QStringLiteral("9223372036854775808")),
           "integer_overflow");
        no("decimal text below min", QVariant(QStringLiteral("-9223372036854775809")),
           "integer_overflow");
        // 2^64 + 1 would wrap to 1.
        no("decimal text 2^64+1", QVariant(QStringLiteral("18446744073709551617")),
           "integer_overflow");
        no("decimal text fraction", QVariant(QStringLiteral("12.50")), "not_an_integer");
        no("decimal text small fraction", QVariant(QStringLiteral("4611686018427387905.0001")),
           "not_an_integer");
        no("double fraction", QVariant(2.5), "not_an_integer");
        no("double past 2^53", QVariant(double(kHalf)), "inexact_double");
        no("exponent", QVariant(QStringLiteral("1e3")), "not_an_integer");
        no("NaN text", QVariant(QStringLiteral("NaN")), "not_an_integer");
        no("other digits", QVariant(QStringLiteral("\u0661\u0662")), "not_an_integer");
        no("empty text", QVariant(QString()), "not_an_integer");
        no("NULL", QVariant(), "not_an_integer");
    }
    void exactIntegerConversion()
    {
        QFETCH(QVariant, value);
        QFETCH(bool, fits);
        QFETCH(qint64, expected);
        QFETCH(QString, reason);
        const auto r = Sql::exactInteger(value, QStringLiteral("test value"));
        QCOMPARE(r.ok(), fits);
        if (fits) {
            QCOMPARE(*r, expected);
            return;
        }
        QCOMPARE(r.error().reason, reason);
        QVERIFY2(r.error().message.startsWith(u"test value: "), qPrintable(r.error().message));
    }

    // A real SUM on each engine, read as its exact integer (prepared and not), with the
    // connection's own policy left as it was.
    void serverSumsAreExact_data() { Test::addEngineRows(); }
    void serverSumsAreExact()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = Connection::open(dbs->orders(), QStringLiteral("test"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        const QSqlDatabase db = c->db();
        QVERIFY(Sql::exec(db, QStringLiteral("CREATE TABLE %1 (g INTEGER NOT NULL, v BIGINT NOT "
                                             "NULL)")
                                  .arg(kTable))
                    .ok());
        const QList<QVariantList> rows{{1, kHalf}, {1, 1}, {2, kHalf}, {2, kHalf},
                                       {3, 1},     {3, 2}, {4, 7}};
        for (const QVariantList &r : rows)
            QVERIFY(
                Sql::exec(db, QStringLiteral("INSERT INTO %1 (g, v) VALUES (?, ?)").arg(kTable), r)
                    .ok());
        const QSql::NumericalPrecisionPolicy policy = db.numericalPrecisionPolicy();
        const QString sum = QStringLiteral("SELECT SUM(v) FROM %1 WHERE g = ").arg(kTable);
        const auto exact = [&](const QString &sql, const QVariantList &binds = {}) {
            auto v = Sql::scalar(db, sql, binds, Sql::Decimals::Exact);
            return v ? Sql::exactInteger(*v, QStringLiteral("sum")) : Result<qint64>(v.error());
        };

        // 2^62 + 1: past 2^53, a double would say 2^62.
        const auto bound = exact(sum + u'?', {1});
        QVERIFY2(bound.ok(), qPrintable(errorOf(bound)));
        QCOMPARE(*bound, kHalf + 1);
        const auto literal = exact(sum + u'1');
        QVERIFY2(literal.ok(), qPrintable(errorOf(literal)));
        QCOMPARE(*literal, kHalf + 1);
        // A small sum and a count read the same way.
        QCOMPARE(errorOf(exact(sum + u'4')), QStringLiteral("ok: 7"));
        QCOMPARE(errorOf(exact(QStringLiteral("SELECT COUNT(*) FROM %1").arg(kTable))),
                 QStringLiteral("ok: 7"));
        // The statement's own policy only: the connection reads as it did.
        QCOMPARE(db.numericalPrecisionPolicy(), policy);

        // Read as a double (the default), a server's sum past 2^53 is refused, not rounded.
        auto asDouble = Sql::scalar(db, sum + u'1');
        QVERIFY(asDouble.ok());
        const auto fromDouble = Sql::exactInteger(*asDouble, QStringLiteral("sum"));
        if (dbs->dialect() == Dialect::Sqlite) {
            QCOMPARE(errorOf(fromDouble), QStringLiteral("ok: %1").arg(kHalf + 1));
        } else {
            QVERIFY2(!fromDouble.ok(), qPrintable(errorOf(fromDouble)));
            QCOMPARE(fromDouble.error().reason, QStringLiteral("inexact_double"));
        }

        // Past 64 bits: refused on every engine, never wrapped (SQLite's SUM refuses it itself).
        const auto past = exact(sum + u'?', {2});
        QVERIFY2(!past.ok(), qPrintable(errorOf(past)));
        if (dbs->dialect() == Dialect::Sqlite) {
            QVERIFY2(past.error().message.contains(u"integer overflow"), qPrintable(errorOf(past)));
        } else {
            QCOMPARE(past.error().code, ErrorCode::TooLarge);
            QCOMPARE(past.error().reason, QStringLiteral("integer_overflow"));
        }

        // A fraction (AVG of 1 and 2): refused, not truncated, on every engine.
        const auto avg = exact(QStringLiteral("SELECT AVG(v) FROM %1 WHERE g = 3").arg(kTable));
        QVERIFY2(!avg.ok(), qPrintable(errorOf(avg)));
        QCOMPARE(avg.error().code, ErrorCode::Invalid);
        QCOMPARE(avg.error().reason, QStringLiteral("not_an_integer"));

        // Several rows of one statement, each exact.
        auto grouped = Sql::exec(
            db,
            QStringLiteral("SELECT g, SUM(v), COUNT(*) FROM %1 WHERE g <> 2 GROUP BY g ORDER BY g")
                .arg(kTable),
            {}, Sql::Decimals::Exact);
        QVERIFY(grouped.ok());
        QStringList lines;
        while (grouped->next()) {
            const auto s = Sql::exactInteger(grouped->value(1), QStringLiteral("sum"));
            const auto n = Sql::exactInteger(grouped->value(2), QStringLiteral("count"));
            QVERIFY2(s.ok() && n.ok(), qPrintable(errorOf(s) + u' ' + errorOf(n)));
            lines << QStringLiteral("%1 %2 %3").arg(grouped->value(0).toString()).arg(*s).arg(*n);
        }
        QCOMPARE(lines, (QStringList{QStringLiteral("1 %1 2").arg(kHalf + 1),
                                     QStringLiteral("3 3 2"), QStringLiteral("4 7 1")}));
    }
};

QTEST_GUILESS_MAIN(TstSqlDecimals)
#include "tst_sql_decimals.moc"
