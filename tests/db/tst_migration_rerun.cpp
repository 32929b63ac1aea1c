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
// script again with its version unrecorded.
// A second case does the same with rows in the tables, put there after 0001 as the engine of
// that time wrote them: each script's second run must leave every row as its first run left
// it, and what the data statements made of the rows (a settlement match copied, a discrepancy's
// new kind and key, expected currencies, settlement line keys, when a message was last
// requeued, finished messages' result codes) is checked at the end — a statement that re-applied
// itself (a key prefixed twice, a copy made again) fails it.

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

// The rows of `sql`, one line each ("v1|v2|...", NULL as <null>), in the statement's order.
QStringList linesOf(const Connection &c, const QString &sql)
{
    QSqlQuery q(c.db());
    if (!q.exec(sql))
        return {QStringLiteral("error: ") + q.lastError().text()};
    QStringList lines;
    while (q.next()) {
        QStringList fields;
        for (int i = 0; i < q.record().count(); ++i)
            fields << (q.isNull(i) ? QStringLiteral("<null>") : q.value(i).toString());
        lines << fields.join(u'|');
    }
    return lines;
}

// The lines of `now` that `before` lacks ("+ ") and those it lost ("- "), one a line.
QString differences(const QStringList &now, const QStringList &before)
{
    QStringList diff;
    for (const QString &l : now)
        if (!before.contains(l))
            diff << QStringLiteral("+ ") + l;
    for (const QString &l : before)
        if (!now.contains(l))
            diff << QStringLiteral("- ") + l;
    return diff.join(u'\n');
}

// The connection's database as its migrations shape it — columns, indexes, CHECK constraints,
// triggers — one sorted line each, schema_version left out.
QStringList schemaOf(const Connection &c)
{
    QStringList lines;
    const auto rows = [&](const QString &sql) { lines << linesOf(c, sql); };
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

// Every row of every table but schema_version, one sorted line each ("table|v1|v2|...", NULL
// as <null>).
QStringList rowsOf(const Connection &c)
{
    QStringList lines;
    QSqlQuery tables(c.db());
    if (!tables.exec(QStringLiteral("SELECT TABLE_NAME FROM information_schema.TABLES WHERE"
                                    " TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'"
                                    " AND TABLE_NAME <> 'schema_version'")))
        return {QStringLiteral("error: ") + tables.lastError().text()};
    while (tables.next()) {
        const QString table = tables.value(0).toString();
        for (const QString &row : linesOf(c, QStringLiteral("SELECT * FROM `%1`").arg(table)))
            lines << table + u'|' + row;
    }
    lines.sort();
    return lines;
}

// Rows as the engine wrote them under schema 0001, for the data statements of later scripts:
// 0005 (settled payments matched to their first charge line and the latest run), 0009 (a
// not_settled refund becomes refund_not_settled), 0011 (settlement line keys, per channel),
// 0012 (expected currencies), 0019 (when a message was last requeued) and 0020 (result codes).
// The fixes are written applied here, as they could be before 0015's trigger.
const char *const kRowsAt0001[] = {
    "INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state, version,"
    " channel, channel_txn_id, paid_at, created_at, updated_at) VALUES"
    " ('o-1', 'c-1', 1000, 'USD', 'paid', 3, 'stripe', 'ch_1', 100, 10, 100),"
    " ('o-2', 'c-2', 5000, 'KRW', 'paid', 3, 'kakaopay', 'T1', 100, 10, 100)",
    "INSERT INTO payments (id, order_id, channel, channel_txn_id, callback_id, amount_minor,"
    " currency, status, settlement_status, captured_at) VALUES"
    " (1, 'o-1', 'stripe', 'ch_1', 'cb-p1', 1000, 'USD', 'captured', 'settled', 100),"
    " (2, 'o-1', 'stripe', 'ch_2', 'cb-p2', 1000, 'USD', 'captured', 'pending', 100),"
    " (3, 'o-2', 'kakaopay', 'T9', 'cb-p3', 5000, 'KRW', 'captured', 'settled', 100)",
    "INSERT INTO settlement_statements (id, channel, file_sha256, file_name, line_count,"
    " imported_by, imported_at) VALUES (1, 'stripe', 's1', 'stripe-1.csv', 3, 'fin', 200),"
    " (2, 'paypal', 's2', 'paypal.csv', 2, 'fin', 200),"
    " (3, 'kakaopay', 's3', 'kakaopay.csv', 2, 'fin', 200),"
    " (4, 'fedapay', 's4', 'fedapay.csv', 1, 'fin', 200),"
    " (5, 'stripe', 's5', 'stripe-2.csv', 1, 'fin', 300)",
    "INSERT INTO settlement_lines (id, statement_id, line_no, channel, channel_txn_id, kind,"
    " gross_minor, fee_minor, net_minor, currency, settled_at, raw) VALUES"
    " (1, 1, 1, 'stripe', 'ch_1', 'charge', 1000, 30, 970, 'USD', 200, 'txn_A,ch_1,charge'),"
    " (2, 1, 2, 'stripe', 'ch_1', 'charge', 1000, 30, 970, 'USD', 200, 'txn_A,ch_1,charge'),"
    " (3, 1, 3, 'stripe', 'ch_2', 'refund', -1000, 0, -1000, 'USD', 200, 'no id here'),"
    " (4, 2, 1, 'paypal', '5XY', 'charge', 1000, 40, 960, 'USD', 200,"
    "  '\"SB\",\"5XY\",\"\",\"2026/11/01\",\"+0000\",\"T0006\",\"USD\"'),"
    " (5, 2, 2, 'paypal', '5XZ', 'charge', 1000, 40, 960, 'USD', 200,"
    "  'SB,\"5XZ\",\"\",\"2026/11/01\",\"+0000\",\"T1107\",\"USD\"'),"
    " (6, 3, 1, 'kakaopay', 'T1', 'charge', 5000, 100, 4900, 'KRW', 200, 'T1,charge'),"
    " (7, 3, 2, 'kakaopay', 'T2', 'charge', 5000, 100, 4900, 'KRW', 200, 'T2,charge'),"
    " (8, 4, 1, 'fedapay', '77', 'refund', -900, 0, -900, 'XOF', 200, '77,refund'),"
    " (9, 5, 1, 'stripe', 'ch_1', 'charge', 1000, 30, 970, 'USD', 300, 'txn_A,ch_1,charge')",
    "INSERT INTO reconciliation_runs (id, period_from, period_to, status, actor, started_at)"
    " VALUES (1, 0, 100, 'finished', 'fin', 200), (2, 0, 300, 'finished', 'fin', 300)",
    "INSERT INTO discrepancies (id, discrepancy_key, kind, channel, channel_txn_id, order_id,"
    " expected_minor, currency, status, first_run_id, last_run_id, opened_at) VALUES"
    " (1, 'stripe:ch_2:refund', 'not_settled', 'stripe', 'ch_2', 'o-1', 1000, 'USD', 'open',"
    "  1, 2, 200),"
    " (2, 'stripe:ch_9', 'not_settled', 'stripe', 'ch_9', NULL, NULL, NULL, 'resolved', 1, 1,"
    "  200),"
    " (3, 'stripe:ch_1:currency', 'currency_mismatch', 'stripe', 'ch_1', 'o-1', 1000, 'EUR',"
    "  'open', 2, 2, 300),"
    " (4, 'kakaopay:T1:amount', 'amount_mismatch', 'kakaopay', 'T1', NULL, 5000, 'KRW', 'open',"
    "  2, 2, 300)",
    "INSERT INTO callback_messages (id, callback_id, channel, event_kind, order_ref, raw_body,"
    " headers, status, attempts, next_attempt_at, result_reason, received_at, updated_at)"
    " VALUES (1, 'cb-1', 'stripe', 'payment_succeeded', 'o-1', '{}', '{}', 'completed', 2, 0,"
    "  'applied', 50, 90),"
    " (2, 'cb-2', 'stripe', 'payment_succeeded', 'o-1', '{}', '{}', 'skipped', 1, 0,"
    "  'already applied: order o-1 is paid', 60, 90),"
    " (3, 'cb-3', 'stripe', 'payment_failed', 'o-1', '{}', '{}', 'skipped', 1, 0,"
    "  'stale: attempt a-0 is not the current attempt', 60, 90),"
    " (4, 'cb-4', 'stripe', 'refund_succeeded', 'o-1', '{}', '{}', 'skipped', 1, 0,"
    "  'refund of ch_0, not the order''s current payment; booked as a refund obligation', 60,"
    "  90),"
    " (5, 'cb-5', 'stripe', 'payment_succeeded', 'o-1', '{}', '{}', 'skipped', 1, 0,"
    "  'some words of another time', 60, 90),"
    " (6, 'cb-6', 'stripe', 'payment_succeeded', 'o-9', '{}', '{}', 'failed', 3, 500, NULL,"
    "  60, 90),"
    " (7, 'cb-7', 'stripe', 'payment_succeeded', 'o-2', '{}', '{}', 'pending', 0, 0, NULL, 70,"
    "  70)",
    "INSERT INTO fix_requests (id, kind, target_kind, target_id, change_json, change_sha256,"
    " reason_code, comment, proposed_by, proposed_at, status, applied_at) VALUES"
    " (1, 'requeue_message', 'message', 'cb-1', '{}', 'h1', 'stuck', 'again', 'ops', 40,"
    "  'applied', 5000),"
    " (2, 'requeue_message', 'message', 'cb-1', '{}', 'h2', 'stuck', 'again', 'ops', 60,"
    "  'applied', 7000),"
    " (3, 'requeue_message', 'message', 'cb-6', '{}', 'h3', 'stuck', 'again', 'ops', 80,"
    "  'open', NULL),"
    " (4, 'requeue_message', 'message', 'cb-2', '{}', 'h4', 'stuck', 'again', 'ops', 80,"
    "  'rejected', NULL)",
};

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
        if (built != expected)
            QFAIL(qPrintable(QStringLiteral("scripts run over their own work left another "
                                            "schema than one migration run:\n") +
                             differences(built, expected)));

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

    // A stop after a script's last statement, with rows: its second run leaves every row as the
    // first left it, and the data statements' work is there once.
    void dataStatementsRunAgainOverTheirOwnRows()
    {
        ONCEPAY_REQUIRE_SERVER(int(Dialect::MySql))
        auto scratch = ScratchDatabases::create(Dialect::MySql);
        QVERIFY2(scratch.ok(), qPrintable(scratch.ok() ? QString() : scratch.error().message));
        const std::unique_ptr<ScratchDatabases> dbs = std::move(scratch).value();
        auto c = Connection::open(dbs->orders(), QStringLiteral("rerun-rows"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        const QList<Migration> migrations =
            Migrator::available(Migrator::schemaFor(DbRole::Orders), Dialect::MySql);
        QVERIFY(migrations.size() >= 22);
        for (const Migration &m : migrations) {
            // KakaoPay's transaction time, kept from 0010 on by the importer of that time.
            if (m.version == 11)
                QVERIFY(Sql::exec(c->db(), QStringLiteral("UPDATE settlement_lines SET"
                                                          " transacted_at = 1700000000000"
                                                          " WHERE id = 6"))
                            .ok());
            const QString first = runScript(*c, m, "first");
            QVERIFY2(first.isEmpty(), qPrintable(first));
            if (m.version == 1) {
                for (const char *sql : kRowsAt0001) {
                    auto inserted = Sql::exec(c->db(), QString::fromUtf8(sql));
                    QVERIFY2(inserted.ok(),
                             qPrintable(inserted.ok() ? QString() : inserted.error().message));
                }
            }
            const QStringList once = rowsOf(*c);
            QVERIFY(once.size() > 30);
            const QString again = runScript(*c, m, "second");
            QVERIFY2(again.isEmpty(), qPrintable(again));
            const QStringList twice = rowsOf(*c);
            if (twice != once)
                QFAIL(qPrintable(m.name + QStringLiteral(" run again changed rows:\n") +
                                 differences(twice, once)));
        }

        // 0005: the settled payment with a charge line, matched to its first and the latest
        // run; not the pending one, nor the settled one no line names.
        QCOMPARE(linesOf(*c, QStringLiteral("SELECT payment_id, settlement_line_id, run_id FROM"
                                            " settlement_matches ORDER BY payment_id")),
                 QStringList{QStringLiteral("1|1|2")});
        // 0009 and 0012: one new kind and key each; expected currencies.
        QCOMPARE(linesOf(*c, QStringLiteral("SELECT id, kind, discrepancy_key, expected_currency"
                                            " FROM discrepancies ORDER BY id")),
                 (QStringList{QStringLiteral("1|refund_not_settled|refund_stripe:ch_2:refund|USD"),
                              QStringLiteral("2|not_settled|stripe:ch_9|<null>"),
                              QStringLiteral("3|currency_mismatch|stripe:ch_1:currency|USD"),
                              QStringLiteral("4|amount_mismatch|kakaopay:T1:amount|KRW")}));
        // 0011: each channel's own id of a line; "#2" for a key its statement repeats; the
        // line's place where no id can be derived or another statement had the key first.
        QCOMPARE(
            linesOf(*c, QStringLiteral("SELECT id, line_key FROM settlement_lines"
                                       " ORDER BY id")),
            (QStringList{QStringLiteral("1|txn_A"), QStringLiteral("2|txn_A#2"),
                         QStringLiteral("3|line:1:3"), QStringLiteral("4|5XY:T0006"),
                         QStringLiteral("5|5XZ:T1107"), QStringLiteral("6|T1:charge:1700000000000"),
                         QStringLiteral("7|line:3:2"), QStringLiteral("8|77:refund"),
                         QStringLiteral("9|line:5:1")}));
        // 0019 and 0020: the latest applied requeue; the code a finished message's words begin
        // with.
        QCOMPARE(
            linesOf(*c, QStringLiteral("SELECT callback_id, requeued_at, result_code FROM"
                                       " callback_messages ORDER BY id")),
            (QStringList{QStringLiteral("cb-1|7000|applied"),
                         QStringLiteral("cb-2|<null>|already_applied"),
                         QStringLiteral("cb-3|<null>|stale"),
                         QStringLiteral("cb-4|<null>|superseded_refund"),
                         QStringLiteral("cb-5|<null>|other"), QStringLiteral("cb-6|<null>|<null>"),
                         QStringLiteral("cb-7|<null>|<null>")}));
    }
};

QTEST_GUILESS_MAIN(TstMigrationRerun)
#include "tst_migration_rerun.moc"
