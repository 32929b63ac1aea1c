// How each engine reads a page of the audit trail filtered by actor, by entity or by an exact
// action (AuditTrailQuery::pageStatement): through an index of that filter (audit migration
// 0002) — on SQLite and MariaDB in seq order and stopped at the page's limit — never by reading
// the chain from its start. The chain holds 20,000 rows more than the fixture's 30 (fifty
// actors, two hundred actions, five thousand orders), analysed, so that each planner chooses as
// it would on a real chain.

#include "audit/audittrailquery.h"
#include "audittestutil.h"
#include "audittrailfixture.h"
#include "db/sql.h"
#include "queryplan.h"
#include "testdatabases.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// 20,000 rows after the fixture's 30, written past the chain's rules (their hashes are not a
// chain: no test here verifies it), one statement per dialect.
QString padding(Dialect dialect)
{
    const QString columns = QStringLiteral(
        "INSERT INTO audit_log (seq, event_id, occurred_at, recorded_at, actor, actor_role,"
        " action, entity_kind, entity_id, order_id, prev_hash, hash) ");
    switch (dialect) {
    case Dialect::Sqlite:
        return QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 31 UNION ALL SELECT i + 1 FROM n"
                              " WHERE i < 20030) ") +
               columns +
               QStringLiteral(
                   "SELECT i, 'pad-' || i, 1700000000000 + i * 1000, 1700000000000 + i * 1000,"
                   " 'worker:' || (i % 50), 'system', 'act.' || (i % 200), 'order',"
                   " 'o-pad-' || (i % 5000), 'o-pad-' || (i % 5000), 'x', 'y' FROM n");
    case Dialect::Postgres:
        return columns +
               QStringLiteral(
                   "SELECT i, 'pad-' || i, 1700000000000 + i * 1000, 1700000000000 + i * 1000,"
                   " 'worker:' || (i % 50), 'system', 'act.' || (i % 200), 'order',"
                   " 'o-pad-' || (i % 5000), 'o-pad-' || (i % 5000), 'x', 'y'"
                   " FROM generate_series(31, 20030) AS i");
    case Dialect::MySql:
        return columns +
               QStringLiteral("SELECT seq, CONCAT('pad-', seq), 1700000000000 + seq * 1000,"
                              " 1700000000000 + seq * 1000, CONCAT('worker:', seq % 50), 'system',"
                              " CONCAT('act.', seq % 200), 'order', CONCAT('o-pad-', seq % 5000),"
                              " CONCAT('o-pad-', seq % 5000), 'x', 'y' FROM seq_31_to_20030");
    }
    return {};
}

// The page statement for `filter` after seq 100, 200 rows, its values written in (EXPLAIN
// takes no parameters; the test's values hold no quote).
QString literalPage(const AuditFilter &filter)
{
    QVariantList binds;
    const QString sql = AuditTrailQuery::pageStatement(filter, 100, 200, &binds);
    QString out;
    int next = 0;
    for (const QChar c : sql) {
        if (c != u'?') {
            out += c;
            continue;
        }
        const QVariant v = binds.value(next++);
        out += v.typeId() == QMetaType::QString ? u'\'' + v.toString() + u'\'' : v.toString();
    }
    return out;
}

} // namespace

class TstAuditTrailPlans : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachFilterReadsItsIndexInOrder_data() { addEngineRows(); }
    void eachFilterReadsItsIndexInOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        ManualClock clock(kStart);
        Connection orders = openOrDie(dbs->orders());
        Connection audit = openOrDie(dbs->audit());
        seed(orders, audit, clock);
        const Dialect engine = dbs->dialect();
        const QSqlDatabase db = audit.db();
        auto padded = Sql::exec(db, padding(engine));
        QVERIFY2(padded.ok(), qPrintable(padded ? QString() : padded.error().message));
        QCOMPARE(scalarInt(audit, QStringLiteral("SELECT COUNT(*) FROM audit_log")), 20030);
        QVERIFY(Sql::exec(db, engine == Dialect::MySql ? QStringLiteral("ANALYZE TABLE audit_log")
                                                       : QStringLiteral("ANALYZE"))
                    .ok());

        AuditFilter byActor;
        byActor.actor = QStringLiteral("worker:7");
        AuditFilter byEntity;
        byEntity.entityKind = QStringLiteral("order");
        byEntity.entityId = QStringLiteral("o-pad-17");
        AuditFilter byAction;
        byAction.action = QStringLiteral("act.3");
        for (const auto &[filter, index] :
             {std::pair{byActor, QStringLiteral("audit_log_actor")},
              std::pair{byEntity, QStringLiteral("audit_log_entity")},
              std::pair{byAction, QStringLiteral("audit_log_action_seq")}}) {
            const QStringList steps = queryPlan(db, engine, literalPage(filter));
            const QString all = steps.join(u'\n');
            QVERIFY2(!steps.isEmpty(), qPrintable(index));
            switch (engine) {
            case Dialect::Sqlite:
                // One search of the index, by the filter and seq, no sort after it.
                QCOMPARE(steps.size(), 1);
                QVERIFY2(
                    all.startsWith(QStringLiteral("SEARCH audit_log USING INDEX ") + index + u' '),
                    qPrintable(all));
                QVERIFY2(all.contains(QStringLiteral("seq>?")) ||
                             all.contains(QStringLiteral("rowid>?")),
                         qPrintable(all));
                break;
            case Dialect::Postgres: {
                // That filter's index read by its condition, the table never scanned. At this
                // size PostgreSQL may take the rows as a bitmap and sort them, and for an action
                // use either of its two indexes (0001's with the time, 0002's with seq).
                const QString name = index.startsWith(QStringLiteral("audit_log_action"))
                                         ? QStringLiteral("audit_log_action")
                                         : index + u' ';
                QVERIFY2(all.contains(QStringLiteral("Index Scan on ") + name) ||
                             all.contains(QStringLiteral("Index Scan using ") + name),
                         qPrintable(all));
                QVERIFY2(all.contains(QStringLiteral("Index Cond:")), qPrintable(all));
                QVERIFY2(!all.contains(QStringLiteral("Seq Scan")), qPrintable(all));
                break;
            }
            case Dialect::MySql:
                // One table read: a range (or the rows of one key) of that index, no filesort.
                QCOMPARE(steps.size(), 1);
                QVERIFY2(
                    steps.first().startsWith(QStringLiteral("audit_log range ") + index + u' ') ||
                        steps.first().startsWith(QStringLiteral("audit_log ref ") + index + u' '),
                    qPrintable(all));
                QVERIFY2(!all.contains(QStringLiteral("filesort")), qPrintable(all));
                break;
            }
        }

        // The same statement, run: a page of each filter holds its rows in seq order.
        AuditTrailQuery q(audit, orders, clock);
        auto page = q.page(byActor, 100, 200, kAuditor);
        QVERIFY(page.ok());
        QCOMPARE(page->rows.size(), 200);
        QCOMPARE(page->rows.first().seq, 107);
        QCOMPARE(page->rows.last().seq, 107 + 199 * 50);
        page = q.page(byAction, 100, 200, kAuditor);
        QVERIFY(page.ok());
        QCOMPARE(page->rows.first().seq, 203);
        QCOMPARE(page->rows.at(1).seq, 403);
    }
};

QTEST_GUILESS_MAIN(TstAuditTrailPlans)
#include "tst_audit_trail_plans.moc"
