// MariaDB commits each DDL statement on its own, so a migration stopped part way — the process
// killed, the link lost, a lock wait bound (Migrator::lockWait) — leaves the statements before
// the stop done and its version unrecorded; the next migrate runs it again from its first
// statement. Every MariaDB script must therefore run again over its own work. The hardest case
// is a stop after its last statement, before the version row: every statement then runs on
// the schema it has already produced (0005's copy once read a column its last statement had
// dropped, and every later migrate failed). This test applies each script of both schemas in
// order and runs it again at once, on one database per schema, and compares what that leaves —
// columns (order, type, default, collation), indexes, CHECK constraints, triggers — with a
// database migrated in one go by the Migrator; on that one, the Migrator then runs the latest
// script again with its version unrecorded. The tables are empty: a data statement run twice
// is checked for running, not for its rows (0005's copy of rows: tst_schema).

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

#include <algorithm>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QString scriptOf(const Migration &m)
{
    QFile f(m.resourcePath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

// Runs every statement of the script; the first failure, said with the migration's name.
QString runScript(const Connection &c, const Migration &m, const char *pass)
{
    const QString script = scriptOf(m);
    if (script.isEmpty())
        return QStringLiteral("%1: script %2 unreadable").arg(m.name, m.resourcePath);
    for (const QString &statement : Migrator::splitStatements(script)) {
        QSqlQuery q(c.db());
        if (!q.exec(statement))
            return QStringLiteral("%1, %2 pass: %3\nstatement: %4")
                .arg(m.name, QLatin1String(pass), q.lastError().text(),
                     statement.simplified().left(240));
    }
    return {};
}

// The connection's database as its migrations shape it — columns, indexes, CHECK constraints,
// triggers — one sorted line each, schema_version left out.
QStringList schemaOf(const Connection &c)
{
    QStringList lines;
    const auto rows = [&](const QString &sql) {
        QSqlQuery q(c.db());
        if (!q.exec(sql))
            lines << QStringLiteral("error: ") + q.lastError().text();
        while (q.next()) {
            QStringList fields;
            for (int i = 0; i < q.record().count(); ++i)
                fields << q.value(i).toString();
            lines << fields.join(u'|');
        }
    };
    rows(QStringLiteral("SELECT 'column', TABLE_NAME, ORDINAL_POSITION, COLUMN_NAME, COLUMN_TYPE,"
                        " IS_NULLABLE, COALESCE(COLUMN_DEFAULT, '<no default>'), EXTRA,"
                        " COALESCE(COLLATION_NAME, '') FROM information_schema.COLUMNS"
                        " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'schema_version'"));
    rows(QStringLiteral("SELECT 'index', TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX,"
                        " COLUMN_NAME, INDEX_TYPE FROM information_schema.STATISTICS"
                        " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'schema_version'"));
    rows(QStringLiteral("SELECT 'check', TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE"
                        " FROM information_schema.CHECK_CONSTRAINTS"
                        " WHERE CONSTRAINT_SCHEMA = DATABASE()"));
    rows(QStringLiteral("SELECT 'trigger', EVENT_OBJECT_TABLE, TRIGGER_NAME, ACTION_TIMING,"
                        " EVENT_MANIPULATION, ACTION_STATEMENT FROM information_schema.TRIGGERS"
                        " WHERE TRIGGER_SCHEMA = DATABASE()"));
    lines.sort();
    return lines;
}

} // namespace

class TstMigrationRerun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyScriptRunsAgainOverItsOwnWork_data()
    {
        QTest::addColumn<bool>("audit");
        QTest::newRow("orders") << false;
        QTest::newRow("audit") << true;
    }
    void everyScriptRunsAgainOverItsOwnWork()
    {
        QFETCH(bool, audit);
        ONCEPAY_REQUIRE_SERVER(int(Dialect::MySql))
        auto scratch = ScratchDatabases::create(Dialect::MySql);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        const std::unique_ptr<ScratchDatabases> dbs = std::move(scratch).value();
        // Two databases of the schema: one built script by script, each run twice; one
        // migrated in one go, to compare with.
        const ConnectionProfile twice = audit ? dbs->audit() : dbs->orders();
        auto reference = ScratchDatabases::create(Dialect::MySql);
        QVERIFY2(reference.ok(),
                 qPrintable(reference.ok() ? QString() : reference.error().message));
        const ConnectionProfile once = audit ? (*reference)->audit() : (*reference)->orders();

        auto c = Connection::open(twice, QStringLiteral("rerun"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        const QString schema = Migrator::schemaFor(twice.role);
        const QList<Migration> migrations = Migrator::available(schema, Dialect::MySql);
        QVERIFY(migrations.size() >= (audit ? 1 : 22));
        for (const Migration &m : migrations) {
            const QString first = runScript(*c, m, "first");
            QVERIFY2(first.isEmpty(), qPrintable(first));
            const QString again = runScript(*c, m, "second");
            QVERIFY2(again.isEmpty(), qPrintable(again));
        }

        auto r = Connection::open(once, QStringLiteral("reference"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        const int latest = Migrator::latestVersion(schema, Dialect::MySql);
        QVERIFY(Migrator::migrate(*r).ok());
        const QStringList built = schemaOf(*c);
        const QStringList expected = schemaOf(*r);
        QVERIFY(expected.size() > 20);
        // What is compared includes the orders schema's CHECKs and triggers (money and states
        // checked, audit rows append-only) and the audit schema's triggers.
        const auto kinds = [&](const char *kind) {
            return std::count_if(expected.cbegin(), expected.cend(), [&](const QString &line) {
                return line.startsWith(QLatin1String(kind) + u'|');
            });
        };
        QVERIFY(kinds("trigger") > 0);
        if (!audit)
            QVERIFY(kinds("check") > 0);
        if (built != expected) {
            QStringList diff;
            for (const QString &l : built)
                if (!expected.contains(l))
                    diff << QStringLiteral("+ ") + l;
            for (const QString &l : expected)
                if (!built.contains(l))
                    diff << QStringLiteral("- ") + l;
            QFAIL(qPrintable(QStringLiteral("scripts run over their own work left another "
                                            "schema than one migration run:\n") +
                             diff.join(u'\n')));
        }

        // The Migrator itself: the latest script's version unrecorded (a stop after its last
        // statement) — the next migrate runs that script again, whole, and records it.
        QVERIFY(Sql::exec(r->db(), QStringLiteral("DELETE FROM schema_version WHERE version = ?"),
                          {latest})
                    .ok());
        auto report = Migrator::migrate(*r);
        QVERIFY2(report.ok(), qPrintable(report.ok() ? QString() : report.error().message));
        QCOMPARE(report->before, latest - 1);
        QCOMPARE(report->after, latest);
        QCOMPARE(report->applied, QStringList{migrations.last().name});
        QCOMPARE(schemaOf(*r), expected);
    }
};

QTEST_GUILESS_MAIN(TstMigrationRerun)
#include "tst_migration_rerun.moc"
