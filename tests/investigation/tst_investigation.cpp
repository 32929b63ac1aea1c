// The console's read side on every engine, over data made by the real engine: dashboard
// aggregates, search by each kind of identifier, an order's whole picture and timeline, and
// the stuck records with the thresholds from ops_settings.

#include "auth/staffservice.h"
#include "investigation/dashboardquery.h"
#include "investigation/investigationdb.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "investigation/stuckquery.h"
#include "scenario.h"

#include <QTest>
#include <algorithm>
#include <limits>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};
const Actor kAuditor{QStringLiteral("auditor"), QStringLiteral("auditor")};

qint64 countOf(const QList<KeyCount> &list, const QString &key)
{
    for (const auto &k : list)
        if (k.key == key)
            return k.count;
    return 0;
}

QList<StuckRecord> ofKind(const StuckReport &r, StuckKind kind)
{
    QList<StuckRecord> out;
    for (const auto &s : r.records)
        if (s.kind == kind)
            out << s;
    return out;
}

// Discrepancies as a reconciliation run leaves them, one per row: key, kind, channel,
// expected, actual, currency, status; opened now.
bool insertDiscrepancies(EngineFixture &f, const QList<QVariantList> &rows)
{
    for (const QVariantList &r : rows)
        if (!Sql::exec(f.orders->db(),
                       "INSERT INTO discrepancies (discrepancy_key, kind, channel, expected_minor,"
                       " actual_minor, currency, status, first_run_id, last_run_id, opened_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, ?)",
                       r + QVariantList{f.clock.nowMs()}))
            return false;
    return true;
}

} // namespace

class TstInvestigation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dashboard_data() { addEngineRows(); }
    void dashboard()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const Scenario s = buildScenario(f);
        DashboardQuery q(*f.orders, f.clock);
        auto d = q.load({s.start - 3600 * 1000, s.end}, kAgent);
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
        QCOMPARE(d->bucketMs, DashboardQuery::bucketFor({s.start - 3600 * 1000, s.end}));
        const CallbackBucket totals = d->callbackTotals();
        QCOMPARE(totals.received, f.count("SELECT COUNT(*) FROM callback_messages"));
        QCOMPARE(totals.received, 9);
        // ord-paid's retry at the door and its re-report skipped by the worker
        QCOMPARE(totals.duplicatesAtDoor, 1);
        QCOMPARE(totals.duplicatesSkipped, 1);
        QCOMPARE(totals.stale, 1); // the late success of ord-rb's first attempt
        QCOMPARE(totals.rejected, 1);
        QCOMPARE(countOf(d->messageStatuses, "completed"), 5);
        QCOMPARE(countOf(d->messageStatuses, "dead"), 1);
        QCOMPARE(countOf(d->messageStatuses, "pending"), 1);
        QCOMPARE(countOf(d->ordersByState, "paid"), 2);
        QCOMPARE(countOf(d->ordersByState, "refunded"), 1);
        QCOMPARE(countOf(d->ordersByState, "paying"), 2);
        QCOMPARE(countOf(d->stuckByKind, "dead_letter"), 1);
        QCOMPARE(countOf(d->stuckByKind, "refund_obligation"), 1);
        QCOMPARE(countOf(d->stuckByKind, "pending_idempotency"), 1);
        QVERIFY(d->openDiscrepancies.isEmpty());

        // A range before anything happened is empty but well formed.
        auto empty =
            q.load({s.start - 7 * 24 * 3600 * 1000LL, s.start - 6 * 24 * 3600 * 1000LL}, kAgent);
        QVERIFY(empty.ok());
        QVERIFY(!empty->callbacks.isEmpty());
        for (const auto &b : empty->callbacks)
            QCOMPARE(b.received + b.rejected, 0);
        QVERIFY(!q.load({s.end, s.start}, kAgent).ok());
        QCOMPARE(q.load({s.start, s.end}, Actor::platform()).error().code, ErrorCode::Forbidden);
    }

    // A partly refunded order stays paid; the dashboard counts it beside the states, with the
    // money that went back, from the ledger: not a refunded order, nor the refund of a
    // superseded attempt's capture (money owed back, no debit).
    void dashboardPartialRefunds_data() { addEngineRows(); }
    void dashboardPartialRefunds()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const Scenario s = buildScenario(f);
        DashboardQuery q(*f.orders, f.clock);
        auto before = q.load({s.start, s.end}, kAgent);
        QVERIFY(before.ok());
        QVERIFY(before->partlyRefunded.isEmpty()); // ord-ref is refunded, wholly
        QCOMPARE(before->partlyRefundedOrders(), 0);

        // ord-paid (21.12 USD): 10.00 then 12.00 in all refunded; ord-rb's stale capture
        // refunded.
        const auto refund = [&](const char *order, const char *request, qint64 amount,
                                const char *currency, const char *event, const char *pi,
                                qint64 total) {
            StripeEvents::Params p = f.params(order, request, amount, currency, event, pi);
            p.amountRefunded = total;
            f.deliver(StripeEvents::chargeRefunded(p));
            f.drain();
        };
        refund("ord-paid", "req-paid-1", 2112, "USD", "evt_part_1", "pi_paid", 1000);
        refund("ord-paid", "req-paid-1", 2112, "USD", "evt_part_2", "pi_paid", 1200);
        refund("ord-rb", "req-rb-1", 5000, "EUR", "evt_rb_back", "pi_rb1", -1);
        QCOMPARE(f.order("ord-paid").state, OrderState::Paid);
        auto d = q.load({s.start, f.clock.nowMs()}, kAgent);
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
        // ord-paid, ord-rb, and ord-wait (its waiting callback processed by the drains).
        QCOMPARE(countOf(d->ordersByState, "paid"), 3);
        QCOMPARE(d->partlyRefunded, (QList<PartialRefundTotal>{{"USD", 1, 1200}}));
        QCOMPARE(d->partlyRefundedOrders(), 1);

        // The rest refunded: the order is refunded, and no longer counted here.
        refund("ord-paid", "req-paid-1", 2112, "USD", "evt_part_3", "pi_paid", 2112);
        QCOMPARE(f.order("ord-paid").state, OrderState::Refunded);
        auto after = q.load({s.start, f.clock.nowMs()}, kAgent);
        QVERIFY(after.ok());
        QVERIFY(after->partlyRefunded.isEmpty());
    }

    // What finance reads as "amount at issue" per channel and currency: the difference for an
    // amount or fee, the whole amount when one side is missing, all that was settled when it
    // was settled in another currency (never 0); closed findings count for nothing.
    void dashboardOpenDiscrepancies_data() { addEngineRows(); }
    void dashboardOpenDiscrepancies()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const Scenario s = buildScenario(f);
        const QList<QVariantList> rows{
            // key, kind, channel, expected, actual, currency, status
            {"d1", "currency_mismatch", "fedapay", 271500, 271500, "XAF", "open"},
            {"d2", "amount_mismatch", "fedapay", 1000, 900, "XOF", "open"},
            {"d3", "not_settled", "fedapay", 5000, QVariant(), "XOF", "open"},
            {"d4", "unknown_settlement", "fedapay", QVariant(), 700, "XOF", "resolved"},
            {"d5", "fee_mismatch", "stripe", 330, 362, "USD", "open"},
        };
        QVERIFY(insertDiscrepancies(f, rows));
        auto d = DashboardQuery(*f.orders, f.clock).load({s.start, s.end}, kAgent);
        QVERIFY(d.ok());
        QStringList totals;
        for (const DiscrepancyTotal &t : d->openDiscrepancies)
            totals << QStringLiteral("%1 %2 %3 %4")
                          .arg(t.channel, t.currency)
                          .arg(t.count)
                          .arg(t.amountMinor);
        QCOMPARE(totals,
                 (QStringList{"fedapay XAF 1 271500", "fedapay XOF 2 5100", "stripe USD 1 32"}));
    }

    // The dashboard's totals of open discrepancies come from the service: one per currency, by
    // currency code, each the sum of that currency's lines only (never across currencies),
    // exact in minor units; a currency whose sum would pass 64 bits has a count but no amount
    // (flagged, never wrapped), and the others are still given.
    void dashboardTotalsPerCurrency_data() { addEngineRows(); }
    void dashboardTotalsPerCurrency()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const Scenario s = buildScenario(f);
        const qint64 half = qint64(1) << 62; // two of them pass INT64_MAX
        const QList<QVariantList> rows{
            // key, kind, channel, expected, actual, currency, status
            {"t1", "amount_mismatch", "fedapay", 1000, 900, "XOF", "open"},
            {"t2", "not_settled", "stripe", 5000, QVariant(), "XOF", "open"},
            {"t3", "not_settled", "stripe", 8000, QVariant(), "XOF", "resolved"},
            {"t4", "fee_mismatch", "stripe", 330, 362, "USD", "open"},
            {"t5", "currency_mismatch", "paypal", 100, 250, "EUR", "open"},
            {"t6", "not_settled", "paypal", 7, QVariant(), QVariant(), "open"},
            {"t7", "not_settled", "fedapay", half + 1, QVariant(), "XAF", "open"}, // past 2^53
            {"t8", "not_settled", "stripe", half, QVariant(), "XAF", "open"},
            {"t9", "amount_mismatch", "paypal", 60, 20, "USD", "open"},
        };
        QVERIFY(insertDiscrepancies(f, rows));
        auto d = DashboardQuery(*f.orders, f.clock).load({s.start, s.end}, kAgent);
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
        // The lines themselves, exact on every engine (no double on the way: 2^62 + 1 stays).
        QStringList lines;
        for (const DiscrepancyTotal &t : d->openDiscrepancies)
            lines << QStringLiteral("%1 %2 %3 %4")
                         .arg(t.channel, t.currency)
                         .arg(t.count)
                         .arg(t.amountMinor);
        QCOMPARE(lines, (QStringList{"fedapay XAF 1 4611686018427387905", "fedapay XOF 1 100",
                                     "paypal  1 7", "paypal EUR 1 250", "paypal USD 1 40",
                                     "stripe USD 1 32", "stripe XAF 1 4611686018427387904",
                                     "stripe XOF 1 5000"}));
        QStringList totals;
        for (const DiscrepancyCurrencyTotal &t : d->openDiscrepancyTotals)
            totals << QStringLiteral("%1 %2 %3")
                          .arg(t.currency)
                          .arg(t.count)
                          .arg(t.amountMinor ? QString::number(*t.amountMinor)
                                             : QStringLiteral("overflow"));
        QCOMPARE(totals,
                 (QStringList{" 1 7", "EUR 1 250", "USD 2 72", "XAF 2 overflow", "XOF 2 5100"}));
        // Each total is its own currency's lines, whatever the lines.
        QCOMPARE(DashboardQuery::currencyTotals(d->openDiscrepancies), d->openDiscrepancyTotals);
        QCOMPARE(DashboardQuery::currencyTotals({}), QList<DiscrepancyCurrencyTotal>{});
        const QList<DiscrepancyCurrencyTotal> fits{{"XAF", 2, std::numeric_limits<qint64>::max()}};
        QVERIFY(
            DashboardQuery::currencyTotals({{"a", "XAF", 1, std::numeric_limits<qint64>::max() - 5},
                                            {"b", "XAF", 1, 5}}) == fits);

        // A channel's own line past 64 bits (stripe's, after fedapay's and paypal's lines): the
        // dashboard is refused alike on every engine (SQLite's SUM refuses it as it reaches that
        // line; the others' exact sum does not fit), not shown wrapped, rounded or cut short.
        QVERIFY(insertDiscrepancies(
            f, {{"t10", "not_settled", "stripe", half, QVariant(), "XAF", "open"}}));
        auto refused = DashboardQuery(*f.orders, f.clock).load({s.start, s.end}, kAgent);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::TooLarge);
        QCOMPARE(refused.error().reason, QStringLiteral("amount_overflow"));
    }

    void searchByEachKind_data() { addEngineRows(); }
    void searchByEachKind()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        buildScenario(f);
        OrderSearch search(*f.orders);
        const struct {
            const char *term;
            MatchKind kind;
        } cases[] = {
            {"ord-rb", MatchKind::OrderId},
            {"cust-ord-rb", MatchKind::CustomerRef},
            {"pi_rb2", MatchKind::ChannelTxn},
            {"pi_rb1", MatchKind::ChannelTxn},
            {"stripe:evt_rb_late", MatchKind::CallbackId},
            {"evt_rb_late", MatchKind::CallbackId},
            {"req-rb-1", MatchKind::RequestId},
            {"  ord-rb\t", MatchKind::OrderId},
        };
        for (const auto &c : cases) {
            auto hits = search.search(QString::fromUtf8(c.term), kAgent);
            QVERIFY2(hits.ok(), c.term);
            QCOMPARE(hits->size(), 1);
            QCOMPARE(hits->first().order.orderId, QStringLiteral("ord-rb"));
            QCOMPARE(hits->first().matchedBy, c.kind);
        }
        QVERIFY(search.search("no-such-thing", kAgent)->isEmpty());
        QVERIFY(search.search("' OR 1=1 --", kAgent)->isEmpty());
        QVERIFY(search.search("%", kAgent)->isEmpty());
        QCOMPARE(search.search("   ", kAgent).error().code, ErrorCode::Invalid);
        QCOMPARE(search.search(QString(500, u'x'), kAgent).error().code, ErrorCode::Invalid);
    }

    void searchHitsBestKindFirstThenNewest_data() { addEngineRows(); }
    void searchHitsBestKindFirstThenNewest()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto create = [&](const char *id, const char *customer) {
            QVERIFY(
                f.service->create({id, customer, 1000, QStringLiteral("USD")}, Actor::platform()));
            f.clock.advance(1000);
        };
        create("ord-s1", "cust-shared");
        create("ord-s2", "cust-shared");
        create("ord-s3", "cust-shared");
        create("shared-key", "cust-other");
        create("ord-s4", "shared-key"); // its customer reference is another order's id
        OrderSearch search(*f.orders);
        auto ids = [](const QList<OrderHit> &hits) {
            QStringList out;
            for (const OrderHit &h : hits)
                out << h.order.orderId + QLatin1Char('/') + matchKindName(h.matchedBy);
            return out.join(u' ');
        };
        const QString customer = QStringLiteral("ord-s3/customer ord-s2/customer ord-s1/customer");
        const QString shared = QStringLiteral("shared-key/order ord-s4/customer");
        for (int round = 0; round < 3; ++round) {
            // 0: prepared; 1: the kept statement again; 2: after a reconnect, prepared anew
            if (round == 2)
                QVERIFY(f.orders->reconnect());
            auto a = search.search("cust-shared", kAgent);
            QVERIFY(a.ok());
            QCOMPARE(ids(*a), customer);
            QCOMPARE(a->first().matchedValue, QStringLiteral("cust-shared"));
            auto b = search.search("shared-key", kAgent);
            QVERIFY(b.ok());
            QCOMPARE(ids(*b), shared);
            auto c = search.search("cust-shared", kAgent, 2);
            QVERIFY(c.ok());
            QCOMPARE(ids(*c), QStringLiteral("ord-s3/customer ord-s2/customer"));
        }
    }

    void orderPictureWithRollbackAndStaleCallback_data() { addEngineRows(); }
    void orderPictureWithRollbackAndStaleCallback()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        buildScenario(f);
        StaffService staff(*f.orders, f.clock);
        QVERIFY(staff
                    .add({kAuditor.id, kAuditor.id, StaffRole::Auditor},
                         QStringLiteral("correct horse battery"), Actor::system("test"))
                    .ok());
        auto p = OrderPictureQuery(*f.orders).load("ord-rb", kAuditor);
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message));
        QCOMPARE(p->order.state, OrderState::Paid);
        QCOMPARE(p->order.version, 7);
        QCOMPARE(p->transitions.size(), 6);
        QCOMPARE(p->rejections.size(), 1);
        QCOMPARE(p->messages.size(), 3);
        QCOMPARE(p->payments.size(), 1);
        QCOMPARE(p->ledger.size(), 1);
        QCOMPARE(p->refunds.size(), 1);
        QCOMPARE(p->refunds.first().amountMinor, 5000);
        QCOMPARE(p->idempotency.size(), 2);
        QCOMPARE(p->fulfilment.size(), 2);
        QVERIFY(p->audit.size() >= p->transitions.size());
        QVERIFY(!p->messages.first().rawBody.isEmpty());

        // Timeline: ordered in time; versions of transitions only go up; the stale callback
        // and the refund are flagged; the rollback appears with its version.
        const auto &t = p->timeline;
        qint64 lastVersion = 0;
        int refused = 0;
        bool sawRollback = false;
        for (int i = 0; i < t.size(); ++i) {
            if (i > 0)
                QVERIFY(t[i].at >= t[i - 1].at);
            if (t[i].kind == TimelineKind::Transition) {
                QVERIFY(t[i].version > lastVersion);
                lastVersion = t[i].version;
                if (t[i].fromState == u"payment_failed" && t[i].toState == u"pending_payment") {
                    sawRollback = true;
                    QCOMPARE(t[i].version, 4);
                }
            }
            refused += t[i].refused ? 1 : 0;
        }
        QVERIFY(sawRollback);
        QCOMPARE(lastVersion, 7);
        QCOMPARE(refused, 3); // the rejection, the skipped stale message, the refund due
        // Every audit row about the order is on the timeline (an auditor reads them), each
        // after the transition it records when both have the same time.
        QList<TimelineEntry> audited;
        for (const TimelineEntry &e : t)
            if (e.kind == TimelineKind::Audit)
                audited << e;
        QCOMPARE(audited.size(), p->audit.size());
        QVERIFY(std::any_of(audited.begin(), audited.end(),
                            [](const TimelineEntry &e) { return e.toState == u"order.rollback"; }));
        for (int i = 1; i < t.size(); ++i)
            if (t[i].kind == TimelineKind::Transition && t[i - 1].kind == TimelineKind::Audit)
                QVERIFY(t[i - 1].at < t[i].at);

        // The duplicate of ord-paid: one stored message for the retry, one skipped re-report.
        auto paid = OrderPictureQuery(*f.orders).load("ord-paid", kAgent);
        QVERIFY(paid.ok());
        QCOMPARE(paid->messages.size(), 2);
        QCOMPARE(paid->messages.at(1).status, QStringLiteral("skipped"));
        // Agents read the order's history but not the audit trail (DESIGN.md §6).
        QVERIFY(!paid->auditVisible);
        QVERIFY(paid->audit.isEmpty());
        QVERIFY(std::none_of(paid->timeline.begin(), paid->timeline.end(),
                             [](const TimelineEntry &e) { return e.kind == TimelineKind::Audit; }));
        QVERIFY(p->auditVisible);

        QCOMPARE(OrderPictureQuery(*f.orders).load("ord-nobody", kAgent).error().code,
                 ErrorCode::NotFound);

        // The auditor's account disabled while the page is open: the next read shows the order
        // without its audit rows, as the audit trail refuses it, and the refusal is audited.
        QVERIFY(staff.disable(kAuditor.id, Actor::system("test"), QStringLiteral("left")).ok());
        auto after = OrderPictureQuery(*f.orders).load("ord-rb", kAuditor);
        QVERIFY(after.ok());
        QCOMPARE(after->transitions.size(), 6);
        QVERIFY(!after->auditVisible);
        QVERIFY(after->audit.isEmpty());
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'audit.access_refused'"
                         " AND actor = 'auditor' AND entity_id = 'order:ord-rb'"),
                 1);
    }

    void stuckRecords_data() { addEngineRows(); }
    void stuckRecords()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        buildScenario(f);
        StuckQuery q(*f.orders, f.clock);
        auto r = q.load({}, kAgent);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(r->pendingThresholdMs, 300 * 1000);
        const auto dead = ofKind(*r, StuckKind::DeadLetter);
        QCOMPARE(dead.size(), 1);
        QCOMPARE(dead.first().callbackId, QStringLiteral("stripe:evt_ghost"));
        QVERIFY(dead.first().lastError.contains(u"ord-ghost"));
        QCOMPARE(ofKind(*r, StuckKind::PendingMessage).size(), 1);
        QCOMPARE(ofKind(*r, StuckKind::PendingMessage).first().orderId, QStringLiteral("ord-wait"));
        QCOMPARE(ofKind(*r, StuckKind::PendingIdempotency).first().reference,
                 QStringLiteral("req-crashed"));
        QCOMPARE(ofKind(*r, StuckKind::RefundObligation).first().orderId, QStringLiteral("ord-rb"));
        QCOMPARE(ofKind(*r, StuckKind::RefundObligation).first().amountMinor, 5000);
        QCOMPARE(ofKind(*r, StuckKind::OrderInFlight).size(), 2);
        QCOMPARE(ofKind(*r, StuckKind::ExpiredLease).size(), 0);
        for (const auto &s : r->records)
            QVERIFY(s.ageMs >= 0);

        // Filters: by kind, and an age nothing reaches.
        StuckFilter onlyDead;
        onlyDead.kinds = {StuckKind::DeadLetter};
        QCOMPARE(q.load(onlyDead, kAgent)->records.size(), 1);
        StuckFilter ancient;
        ancient.minAgeMs = 365LL * 24 * 3600 * 1000;
        QCOMPARE(q.load(ancient, kAgent)->records.size(), 0);

        // A worker that died mid-message: its lease expires and shows.
        QVERIFY(
            Sql::update(
                f.orders->db(),
                "UPDATE callback_messages SET status = 'processing', lease_owner = 'worker:dead/1',"
                " lease_until = ? WHERE callback_id = 'stripe:evt_wait'",
                {f.clock.nowMs() - 1000})
                .ok());
        auto after = q.load({}, kAgent);
        QCOMPARE(ofKind(*after, StuckKind::ExpiredLease).size(), 1);
        QCOMPARE(ofKind(*after, StuckKind::PendingMessage).size(), 0);

        // Raising the threshold in ops_settings (to its maximum, 7 days) hides what is younger.
        QVERIFY(Sql::update(f.orders->db(),
                            "UPDATE ops_settings SET setting_value = '604800' WHERE setting_key ="
                            " 'stuck.idempotency_pending_seconds'")
                    .ok());
        QCOMPARE(q.counts()->value(StuckKind::PendingIdempotency), 0);
    }

    // A record that the engine moved on leaves the stuck list and the dashboard's counts: the
    // request that never finished stops being stuck once its order is past the version it
    // was made against (a retry can only be refused as stale), the order leaves paying, the
    // waiting callback is processed.
    void stuckRecordsLeaveWhenTheEngineMovesThemOn_data() { addEngineRows(); }
    void stuckRecordsLeaveWhenTheEngineMovesThemOn()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const Scenario s = buildScenario(f);
        StuckQuery q(*f.orders, f.clock);
        auto stuckCount = [&](const char *kind) {
            auto d = DashboardQuery(*f.orders, f.clock).load({s.start, f.clock.nowMs()}, kAgent);
            return d ? countOf(d->stuckByKind, QString::fromLatin1(kind)) : -1;
        };
        QCOMPARE(q.counts()->value(StuckKind::PendingIdempotency), 1);
        QCOMPARE(stuckCount("pending_idempotency"), 1);
        QCOMPARE(q.counts()->value(StuckKind::OrderInFlight), 2);
        QCOMPARE(q.counts()->value(StuckKind::PendingMessage), 1);

        // ord-stuck's payment fails: the order moves from paying (v2) to payment_failed (v3).
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("ord-stuck", "req-stuck-1", 990, "USD", "evt_stuck_fail", "pi_stuck")));
        f.drain();
        f.clock.advance(1000);
        QCOMPARE(f.order("ord-stuck").version, 3);
        QCOMPARE(f.count("SELECT status FROM idempotency_records WHERE request_id = 'req-crashed'"),
                 0);
        auto r = q.load({}, kAgent);
        QVERIFY(r.ok());
        QCOMPARE(r->counts.value(StuckKind::PendingIdempotency), 0);
        QVERIFY(ofKind(*r, StuckKind::PendingIdempotency).isEmpty());
        QCOMPARE(q.counts()->value(StuckKind::PendingIdempotency), 0);
        QCOMPARE(stuckCount("pending_idempotency"), 0);
        // The engine processed the waiting callback too: ord-wait is paid, nothing pending.
        QCOMPARE(r->counts.value(StuckKind::PendingMessage), 0);
        QCOMPARE(r->counts.value(StuckKind::OrderInFlight), 0);
        QCOMPARE(stuckCount("order_in_flight"), 0);

        // A request against an order still at its version stays stuck.
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO idempotency_records (request_id, order_id,"
                          " expected_version, operation, payload_digest, status, created_at,"
                          " updated_at) VALUES ('req-crashed-2', 'ord-stuck', 3, 'pay', 'y', 0,"
                          " ?, ?)",
                          {f.clock.nowMs(), f.clock.nowMs()})
                    .ok());
        f.clock.advance(601 * 1000);
        auto again = q.load({}, kAgent);
        QVERIFY(again.ok());
        QCOMPARE(ofKind(*again, StuckKind::PendingIdempotency).size(), 1);
        QCOMPARE(ofKind(*again, StuckKind::PendingIdempotency).first().reference,
                 QStringLiteral("req-crashed-2"));
        QCOMPARE(stuckCount("pending_idempotency"), 1);
    }

    void refusesNewerSchema_data() { addEngineRows(); }
    void refusesNewerSchema()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(InvestigationDb::open(dbs->orders(), "t").ok());
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO schema_version (version, name, checksum, applied_at) VALUES"
                          " (999, 'future', 'x', 0)")
                    .ok());
        auto c = InvestigationDb::open(dbs->orders(), "t");
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, ErrorCode::Newer);
    }
};

QTEST_GUILESS_MAIN(TstInvestigation)
#include "tst_investigation.moc"
