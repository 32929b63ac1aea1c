// An order's fixes, as its page, its dossier and `oncepay fix list --order` read them, on every
// engine: exactly the fixes whose change names the order (an order fix, a message fix) — not
// another order's whose id differs where this one's has a '_' (a LIKE over the change's text took
// it for a wildcard) — and read through indexes, not by reading every fix ever proposed (migration
// 0023's column of the order a change names).

#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"
#include "investigation/orderpicturequery.h"
#include "queryplan.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

namespace {

// The ids of the fixes FixService::list finds for `orderId`, and a warning when it fails.
QList<qint64> fixesOf(const FixService &fixes, const QString &orderId)
{
    FixFilter filter;
    filter.orderId = orderId;
    auto found = fixes.list(filter);
    if (!found) {
        qWarning("fixes of %s: %s", qPrintable(orderId), qPrintable(found.error().message));
        return {};
    }
    QList<qint64> ids;
    for (const FixRequest &f : std::as_const(*found))
        ids << f.id;
    return ids;
}

// How the database reads `SELECT id FROM fix_requests WHERE <the service's order condition>`
// for `orderId` (written in: EXPLAIN takes no parameters): one line per step.
QStringList planOf(const QSqlDatabase &db, Dialect dialect, const QString &orderId)
{
    QString condition = FixService::orderCondition();
    condition.replace(u'?', QStringLiteral("'%1'").arg(orderId));
    return queryPlan(db, dialect, QStringLiteral("SELECT id FROM fix_requests WHERE ") + condition);
}

// What went wrong, for a failure's message (QVERIFY2 reads it also when nothing did).
template <typename T> QByteArray why(const Result<T> &r)
{
    return r ? QByteArray() : r.error().message.toUtf8();
}

} // namespace

class TstFixOrderReach : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A confirmation proposed for order "ord-1_2" and a resolution proposed for a dead callback
    // of order "ord-1x2" (an order the platform never created): each order's list, and the
    // order page's picture, hold its own fix only.
    void anOrdersFixesAreItsOwn_data() { addEngineRows(); }
    void anOrdersFixesAreItsOwn()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        QCOMPARE(makeUnconfirmed(f, "ord-1_2", 5000, 4999).state, OrderState::PaidUnconfirmed);
        auto confirm = desk.fixes.propose(
            proposal(FixKind::ConfirmPayment, "ord-1_2", "customer sent the bank proof"), amy);
        QVERIFY2(confirm.ok(), why(confirm).constData());
        f.makeDeadLetter("ord-1x2", "evt_1x2");
        auto resolve = desk.fixes.propose(proposal(FixKind::ResolveMessage, "stripe:evt_1x2"), amy);
        QVERIFY2(resolve.ok(), why(resolve).constData());
        QCOMPARE(resolve->orderId, QStringLiteral("ord-1x2"));

        QCOMPARE(fixesOf(desk.fixes, "ord-1_2"), QList<qint64>{confirm->id});
        QCOMPARE(fixesOf(desk.fixes, "ord-1x2"), QList<qint64>{resolve->id});
        QCOMPARE(fixesOf(desk.fixes, "ord-1%"), QList<qint64>{});
        QCOMPARE(fixesOf(desk.fixes, "ORD-1X2"), QList<qint64>{});

        auto picture = OrderPictureQuery(*f.orders).load("ord-1_2", fin);
        QVERIFY2(picture.ok(), why(picture).constData());
        QCOMPARE(picture->fixes.size(), 1);
        QCOMPARE(picture->fixes.first().id, confirm->id);
        // Decided, a fix is still its order's (the column follows the frozen change).
        QVERIFY(
            desk.fixes
                .reject(resolve->id, "needs_investigation", "look at the order first", kOrigin, fin)
                .ok());
        QCOMPARE(fixesOf(desk.fixes, "ord-1x2"), QList<qint64>{resolve->id});
    }

    // The order condition reads fix_requests through its indexes on each engine: SQLite's plan
    // searches it by fix_requests_order, PostgreSQL's (sequential scans priced out) reads that
    // index with a condition, MariaDB's (over a few thousand fixes, so that its plan is a real
    // day's) merges indexes rather than reading the table.
    void theConditionIsAnIndexLookup_data() { addEngineRows(); }
    void theConditionIsAnIndexLookup()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const QSqlDatabase db = f.orders->db();
        QStringList steps;
        switch (dbs->dialect()) {
        case Dialect::Sqlite: {
            steps = planOf(db, Dialect::Sqlite, QStringLiteral("ord-1"));
            const QString all = steps.join(u'\n');
            QVERIFY2(!all.contains(QStringLiteral("SCAN fix_requests")), qPrintable(all));
            QVERIFY2(all.contains(QStringLiteral("USING INDEX fix_requests_order (order_id=?)")),
                     qPrintable(all));
            break;
        }
        case Dialect::Postgres: {
            QVERIFY(Sql::exec(db, QStringLiteral("SET enable_seqscan = off")).ok());
            steps = planOf(db, Dialect::Postgres, QStringLiteral("ord-1"));
            QVERIFY(Sql::exec(db, QStringLiteral("RESET enable_seqscan")).ok());
            const QString all = steps.join(u'\n');
            QVERIFY2(!all.contains(QStringLiteral("Seq Scan")), qPrintable(all));
            // "Index Scan using fix_requests_order on …", or a bitmap's "… Scan on
            // fix_requests_order".
            QVERIFY2(all.contains(QStringLiteral("Scan using fix_requests_order ")) ||
                         all.contains(QStringLiteral("Scan on fix_requests_order")),
                     qPrintable(all));
            QVERIFY2(all.contains(QStringLiteral("Index Cond: (order_id = 'ord-1'::text)")),
                     qPrintable(all));
            break;
        }
        case Dialect::MySql: {
            QVERIFY(
                Sql::exec(db, QStringLiteral(
                                  "INSERT INTO fix_requests (kind, target_kind, target_id,"
                                  " change_json, change_sha256, reason_code, comment, proposed_by,"
                                  " proposed_at, approvals_needed, status) SELECT"
                                  " 'resolve_message', 'message', CONCAT('stripe:evt_pad_', seq),"
                                  " CONCAT('{\"order_id\":\"pad-', seq, '\"}'), 'x', 'r', 'c',"
                                  " 'amy', seq, 1, 'open' FROM seq_1_to_3000"))
                    .ok());
            QVERIFY(Sql::exec(db, QStringLiteral("ANALYZE TABLE fix_requests")).ok());
            steps = planOf(db, Dialect::MySql, QStringLiteral("pad-17"));
            const QString all = steps.join(u'\n');
            QCOMPARE(steps.size(), 1);
            QVERIFY2(!steps.first().contains(QStringLiteral(" ALL ")), qPrintable(all));
            QVERIFY2(steps.first().contains(QStringLiteral("fix_requests_order")), qPrintable(all));
            // The padding's own fix is found by the column the database derived.
            FixService fixes(*f.orders, f.clock);
            QCOMPARE(fixesOf(fixes, QStringLiteral("pad-17")).size(), 1);
            break;
        }
        }
        QVERIFY(!steps.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstFixOrderReach)
#include "tst_fix_order_reach.moc"
