// What an order still owes and what reconciliation still holds against it, on every engine: the
// refund obligations not resolved and the open reconciliation exceptions (discrepancies) in the
// order's picture and its timeline, closed ones not shown as open; and the search's answer for
// a callback that names an order which does not exist (a dead letter of a ghost order).

#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "scenario.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};

// A discrepancy as reconciliation writes it; order id and transaction may be NULL.
bool insertDiscrepancy(EngineFixture &f, const QString &key, const QString &kind,
                       const QVariant &txn, const QVariant &orderId, const QVariant &expected,
                       const QVariant &actual, const QString &status)
{
    return Sql::exec(f.orders->db(),
                     "INSERT INTO discrepancies (discrepancy_key, kind, channel, channel_txn_id,"
                     " order_id, expected_minor, actual_minor, currency, status, detail,"
                     " first_run_id, last_run_id, opened_at) VALUES (?, ?, 'stripe', ?, ?, ?, ?,"
                     " 'EUR', ?, 'found by the test', 1, 1, ?)",
                     {key, kind, txn, orderId, expected, actual, status, f.clock.nowMs()})
        .ok();
}

QList<TimelineEntry> exceptionsOn(const QList<TimelineEntry> &timeline)
{
    QList<TimelineEntry> out;
    for (const TimelineEntry &e : timeline)
        if (e.kind == TimelineKind::Exception)
            out << e;
    return out;
}

} // namespace

class TstOrderExceptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void moneyOwedAndOpenExceptions_data() { addEngineRows(); }
    void moneyOwedAndOpenExceptions()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        buildScenario(f);
        // ord-rb: its late stale success left 5000 EUR to refund (scenario). Reconciliation
        // found a fee mismatch on its transaction (no order id) that is open, and an amount
        // mismatch by its order id that is resolved; an open one of another order is not its.
        QVERIFY(insertDiscrepancy(f, "fee_mismatch:stripe:pi_rb2", "fee_mismatch", "pi_rb2",
                                  QVariant(), 175, 190, "open"));
        f.clock.advance(1000);
        QVERIFY(insertDiscrepancy(f, "amount_mismatch:stripe:pi_rb1", "amount_mismatch", "pi_rb1",
                                  "ord-rb", 5000, 4900, "resolved"));
        QVERIFY(insertDiscrepancy(f, "not_settled:stripe:pi_paid", "not_settled", "pi_paid",
                                  "ord-paid", 2112, QVariant(), "open"));

        auto p = OrderPictureQuery(*f.orders).load("ord-rb", kAgent);
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message));
        QCOMPARE(p->discrepancies.size(), 2);
        QCOMPARE(refundsOwed(*p), (QList<std::pair<QString, qint64>>{{"EUR", 5000}}));
        const QList<OrderExceptionRow> open = openExceptions(*p);
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().kind, QStringLiteral("fee_mismatch"));
        QCOMPARE(open.first().expectedMinor, 175);
        QCOMPARE(open.first().actualMinor, 190);
        QCOMPARE(open.first().currency, QStringLiteral("EUR"));
        // The open exception is on the timeline, highlighted, in time order; the resolved one
        // is not.
        const QList<TimelineEntry> onTimeline = exceptionsOn(p->timeline);
        QCOMPARE(onTimeline.size(), 1);
        QCOMPARE(onTimeline.first().toState, QStringLiteral("fee_mismatch"));
        QVERIFY(onTimeline.first().refused);
        QVERIFY(onTimeline.first().hasExpected);
        QCOMPARE(onTimeline.first().expectedMinor, 175);
        QCOMPARE(onTimeline.first().amountMinor, 190);
        QCOMPARE(onTimeline.first().causeId, QStringLiteral("#%1").arg(open.first().id));
        for (int i = 1; i < p->timeline.size(); ++i)
            QVERIFY(p->timeline[i].at >= p->timeline[i - 1].at);

        // Resolved: nothing owed, nothing open, nothing on the timeline.
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE refund_obligations SET resolved_at = ? WHERE order_id = 'ord-rb'",
                          {f.clock.nowMs()})
                    .ok());
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE discrepancies SET status = 'resolved', closed_at = ? WHERE"
                          " discrepancy_key = 'fee_mismatch:stripe:pi_rb2'",
                          {f.clock.nowMs()})
                    .ok());
        auto after = OrderPictureQuery(*f.orders).load("ord-rb", kAgent);
        QVERIFY(after.ok());
        QCOMPARE(after->refunds.size(), 1); // still listed, as resolved
        QVERIFY(refundsOwed(*after).isEmpty());
        QCOMPARE(after->discrepancies.size(), 2);
        QVERIFY(openExceptions(*after).isEmpty());
        QVERIFY(exceptionsOn(after->timeline).isEmpty());

        // A currency mismatch: the statement's amount in its currency, the expected one in the
        // currency reconciliation recorded it in (expected_currency, migration 0012: here the
        // payment's), never both in the settlement's.
        const QString paid =
            Sql::scalar(f.orders->db(), "SELECT currency FROM payments WHERE order_id = 'ord-paid'")
                ->toString();
        const QString settledIn = paid == u"USD" ? QStringLiteral("EUR") : QStringLiteral("USD");
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO discrepancies (discrepancy_key, kind, channel,"
                          " channel_txn_id, expected_minor, actual_minor, currency,"
                          " expected_currency, status, first_run_id, last_run_id, opened_at)"
                          " VALUES ('currency_mismatch:x', 'currency_mismatch', 'stripe',"
                          " 'pi_paid', 2112, 2112, ?, ?, 'open', 1, 1, ?)",
                          {settledIn, paid, f.clock.nowMs()})
                    .ok());
        auto mismatch = OrderPictureQuery(*f.orders).load("ord-paid", kAgent);
        QVERIFY(mismatch.ok());
        bool seen = false;
        for (const OrderExceptionRow &d : openExceptions(*mismatch))
            if (d.kind == u"currency_mismatch") {
                seen = true;
                QCOMPARE(d.currency, settledIn);
                QCOMPARE(d.expectedCurrency, paid);
            }
        QVERIFY(seen);
        for (const TimelineEntry &e : exceptionsOn(mismatch->timeline))
            if (e.toState == u"currency_mismatch")
                QCOMPARE(e.expectedCurrency, paid);

        // An order reconciliation never flagged has none.
        auto clean = OrderPictureQuery(*f.orders).load("ord-ref", kAgent);
        QVERIFY(clean.ok());
        QVERIFY(clean->discrepancies.isEmpty());
    }

    void searchAnswersCallbacksForUnknownOrders_data() { addEngineRows(); }
    void searchAnswersCallbacksForUnknownOrders()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        buildScenario(f);
        auto stored = Sql::scalar(f.orders->db(), "SELECT last_error FROM callback_messages"
                                                  " WHERE callback_id = 'stripe:evt_ghost'");
        QVERIFY(stored.ok());
        const QString lastError = stored->toString();
        QVERIFY(!lastError.isEmpty());
        OrderSearch search(*f.orders);
        // Its callback id (with or without the channel), the order it names, its transaction.
        for (const char *term : {"stripe:evt_ghost", "evt_ghost", "ord-ghost", "pi_ghost"}) {
            auto hits = search.search(QString::fromLatin1(term), kAgent);
            QVERIFY2(hits.ok(), term);
            QCOMPARE(hits->size(), 1);
            const OrderHit &h = hits->first();
            QCOMPARE(h.matchedBy, MatchKind::UnknownOrderCallback);
            QVERIFY(!matchNamesOneOrderForGood(h.matchedBy));
            QVERIFY(h.order.orderId.isEmpty()); // it names no order that exists
            QCOMPARE(h.callback.callbackId, QStringLiteral("stripe:evt_ghost"));
            QCOMPARE(h.callback.channel, QStringLiteral("stripe"));
            QCOMPARE(h.callback.orderRef, QStringLiteral("ord-ghost"));
            QCOMPARE(h.callback.status, QStringLiteral("dead"));
            QVERIFY(h.callback.deadLettered);
            QVERIFY(h.callback.attempts > 1);
            QCOMPARE(h.callback.lastError, lastError);
        }
        // A callback of a known order is still found as its order; nothing is still nothing,
        // and text that would change a query changes none.
        auto known = search.search("evt_rb_late", kAgent);
        QVERIFY(known.ok());
        QCOMPARE(known->size(), 1);
        QCOMPARE(known->first().matchedBy, MatchKind::CallbackId);
        QCOMPARE(known->first().order.orderId, QStringLiteral("ord-rb"));
        for (const char *term : {"no-such-thing", "' OR 1=1 --", "ord-ghost' OR '1'='1", "%"}) {
            auto none = search.search(QString::fromLatin1(term), kAgent);
            QVERIFY2(none.ok(), term);
            QVERIFY2(none->isEmpty(), term);
        }
        QCOMPARE(search.search("ord-ghost", Actor::platform()).error().code, ErrorCode::Forbidden);

        // The order arrives after all: the callback is found as its order's.
        QVERIFY(f.service->create({"ord-ghost", "cust-ghost", 100, QStringLiteral("USD")},
                                  Actor::platform()));
        auto arrived = search.search("evt_ghost", kAgent);
        QVERIFY(arrived.ok());
        QCOMPARE(arrived->size(), 1);
        QCOMPARE(arrived->first().matchedBy, MatchKind::CallbackId);
        QCOMPARE(arrived->first().order.orderId, QStringLiteral("ord-ghost"));
    }
};

QTEST_GUILESS_MAIN(TstOrderExceptions)
#include "tst_order_exceptions.moc"
