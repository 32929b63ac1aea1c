// What the console's one search box reaches, on every engine, over data made by the real
// engine: a refund made in PayPal's dashboard (its callback names no order, only the capture)
// is found by its callback id, with or without "paypal:", as the order the worker booked it on
// — not as another channel's order holding the same id; a rollback's and a cancel's request id
// (kept only on the transition it caused) find their order; text that matches nothing still
// finds nothing; and every branch of the search statement is an index lookup.

#include "channels/paypal/paypalevents.h"
#include "channels/paypal/paypalsigner.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "scenario.h"

#include <QRegularExpression>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};
const QByteArray kPayPalWebhookId = QByteArrayLiteral("4JH86294D6297924G");

// The only hit for `term`; otherwise an empty hit (the caller's comparisons fail) and a
// warning saying how many there were.
OrderHit onlyHit(const OrderSearch &search, const QString &term)
{
    auto hits = search.search(term, kAgent);
    if (!hits) {
        qWarning("search %s: %s", qPrintable(term), qPrintable(hits.error().message));
        return {};
    }
    if (hits->size() != 1) {
        qWarning("search %s: %lld hits", qPrintable(term), qlonglong(hits->size()));
        return {};
    }
    return hits->first();
}

// The search statement with its parameters written in as literals (the test's own text, no
// quote in it): a plan read with EXPLAIN takes none. A callback id is bound five ways.
QString statementFor(const QString &term)
{
    QString sql = OrderSearch::statement();
    QStringList ids;
    for (const char *prefix : {"", "stripe:", "paypal:", "fedapay:", "kakaopay:"})
        ids << QStringLiteral("'%1%2'").arg(QString::fromLatin1(prefix), term);
    sql.replace(QStringLiteral("IN (?, ?, ?, ?, ?)"),
                QStringLiteral("IN (%1)").arg(ids.join(QStringLiteral(", "))));
    sql.replace(u'?', QStringLiteral("'%1'").arg(term));
    return sql;
}

} // namespace

class TstSearchReach : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    PayPalSigner m_paypal;
    QString m_cert;

    // The fixture's engine with PayPal configured beside Stripe.
    void addPayPal(EngineFixture &f) const
    {
        f.config.channels[QStringLiteral("paypal")][QStringLiteral("webhook_id")] =
            QString::fromLatin1(kPayPalWebhookId);
        f.config.channels[QStringLiteral("paypal")][QStringLiteral("cert_file")] = m_cert;
        f.ingest.reset();
        f.channels = std::make_unique<ChannelRegistry>(f.config);
        f.ingest = std::make_unique<IngestService>(*f.orders, *f.channels, f.clock);
    }

    void deliverPayPal(EngineFixture &f, const QByteArray &body) const
    {
        auto r = f.ingest->ingest(QStringLiteral("paypal"),
                                  m_paypal.sign(body, kPayPalWebhookId, f.clock.nowMs()));
        if (!r)
            qFatal("paypal ingest: %s", qPrintable(r.error().message));
    }

    // "ord-pp" paid on PayPal (capture CAP-PP-1), then partly refunded in PayPal's dashboard:
    // the refund's webhook carries no custom_id, only the capture. A Stripe order holds the
    // same id as its payment intent.
    void payThenRefundInPayPalsDashboard(EngineFixture &f) const
    {
        addPayPal(f);
        f.createOrder("ord-stripe-twin", 900);
        f.pay("ord-stripe-twin", 1, "req-twin-1");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("ord-stripe-twin", "req-twin-1", 900, "USD", "evt_twin", "CAP-PP-1")));
        f.drain();

        f.clock.advance(60 * 1000);
        f.createOrder("ord-pp", 2112);
        auto started = f.service->startPayment("ord-pp", QStringLiteral("paypal"), 1, "req-pp-1",
                                               Actor::platform());
        if (!started)
            qFatal("pay on paypal: %s", qPrintable(started.error().message));
        PayPalEvents::Params p;
        p.eventId = QStringLiteral("WH-CAPTURE-PP-1");
        p.captureId = QStringLiteral("CAP-PP-1");
        p.orderId = QStringLiteral("ord-pp");
        p.attemptId = QStringLiteral("req-pp-1");
        p.value = QStringLiteral("21.12");
        p.createTimeMs = f.clock.nowMs();
        deliverPayPal(f, PayPalEvents::captureCompleted(p));
        f.drain();
        if (f.order("ord-pp").state != OrderState::Paid ||
            f.order("ord-stripe-twin").state != OrderState::Paid)
            qFatal("the two orders did not reach paid");

        f.clock.advance(3600 * 1000);
        p.eventId = QStringLiteral("WH-DASHBOARD-REFUND-1");
        p.refundId = QStringLiteral("REF-PP-1");
        p.orderId.clear();
        p.attemptId.clear();
        p.value = QStringLiteral("5.00");
        p.createTimeMs = f.clock.nowMs();
        deliverPayPal(f, PayPalEvents::refundEvent(QStringLiteral("PAYMENT.CAPTURE.REFUNDED"), p));
        if (f.drain().completed != 1)
            qFatal("the dashboard refund was not completed");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_paypal.isValid());
        m_cert = m_dir.filePath(QStringLiteral("paypal.pem"));
        QVERIFY(m_paypal.writeCertificate(m_cert).ok());
    }

    // (a) The refund is stored naming no order, booked on ord-pp, shown on its page — and
    // found by its callback id as ord-pp's, once, with its channel; not as the Stripe order
    // that holds the same id on another channel.
    void dashboardRefundFoundByItsCallbackId_data() { addEngineRows(); }
    void dashboardRefundFoundByItsCallbackId()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        payThenRefundInPayPalsDashboard(f);
        const QString id = QStringLiteral("paypal:WH-DASHBOARD-REFUND-1");
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id = ? AND"
                         " order_ref IS NULL AND channel_txn_id = 'CAP-PP-1' AND"
                         " status = 'completed'",
                         {id}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE order_id = 'ord-pp' AND"
                         " kind = 'refund_debit' AND amount_minor = -500 AND callback_id = ?",
                         {id}),
                 1);
        auto page = OrderPictureQuery(*f.orders).load("ord-pp", kAgent);
        QVERIFY(page.ok());
        QVERIFY(std::any_of(page->messages.cbegin(), page->messages.cend(),
                            [&id](const CallbackMessageRow &m) { return m.callbackId == id; }));

        OrderSearch search(*f.orders);
        for (const QString &term : {id, QStringLiteral("WH-DASHBOARD-REFUND-1")}) {
            const OrderHit h = onlyHit(search, term);
            QCOMPARE(h.order.orderId, QStringLiteral("ord-pp"));
            QCOMPARE(h.matchedBy, MatchKind::CallbackId);
            QCOMPARE(h.matchedValue, id);
            QCOMPARE(h.matchedChannel, QStringLiteral("paypal"));
            QVERIFY(matchNamesOneOrderForGood(h.matchedBy));
        }
        // The capture's own callback names its order and is still found as before.
        QCOMPARE(onlyHit(search, "WH-CAPTURE-PP-1").order.orderId, QStringLiteral("ord-pp"));
    }

    // (a) A capture short of the order (paid_unconfirmed) refunded whole in PayPal's dashboard
    // before anyone confirmed it: the order is back to pending_payment and holds no
    // transaction any more; only its payment names the capture. Found through the payment.
    void refundBeforeConfirmationFoundThroughItsPayment_data() { addEngineRows(); }
    void refundBeforeConfirmationFoundThroughItsPayment()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        addPayPal(f);
        f.createOrder("ord-short", 2112);
        QVERIFY(f.service->startPayment("ord-short", QStringLiteral("paypal"), 1, "req-short-1",
                                        Actor::platform()));
        PayPalEvents::Params p;
        p.eventId = QStringLiteral("WH-CAPTURE-SHORT");
        p.captureId = QStringLiteral("CAP-SHORT");
        p.orderId = QStringLiteral("ord-short");
        p.attemptId = QStringLiteral("req-short-1");
        p.value = QStringLiteral("20.00");
        p.createTimeMs = f.clock.nowMs();
        deliverPayPal(f, PayPalEvents::captureCompleted(p));
        f.drain();
        QCOMPARE(f.order("ord-short").state, OrderState::PaidUnconfirmed);
        f.clock.advance(600 * 1000);
        p.eventId = QStringLiteral("WH-REFUND-SHORT");
        p.refundId = QStringLiteral("REF-SHORT");
        p.orderId.clear();
        p.attemptId.clear();
        p.createTimeMs = f.clock.nowMs();
        deliverPayPal(f, PayPalEvents::refundEvent(QStringLiteral("PAYMENT.CAPTURE.REFUNDED"), p));
        QCOMPARE(f.drain().completed, 1);
        const Order back = f.order("ord-short");
        QCOMPARE(back.state, OrderState::PendingPayment);
        QVERIFY(back.channelTxnId.isEmpty());
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'paypal:WH-REFUND-SHORT' AND order_ref IS NULL"),
                 1);

        OrderSearch search(*f.orders);
        for (const char *term : {"paypal:WH-REFUND-SHORT", "WH-REFUND-SHORT"}) {
            const OrderHit h = onlyHit(search, QString::fromLatin1(term));
            QCOMPARE(h.order.orderId, QStringLiteral("ord-short"));
            QCOMPARE(h.matchedBy, MatchKind::CallbackId);
            QCOMPARE(h.matchedValue, QStringLiteral("paypal:WH-REFUND-SHORT"));
            QCOMPARE(h.matchedChannel, QStringLiteral("paypal"));
        }
    }

    // (a) The same through the order's own transaction: a callback naming only a transaction
    // that the order row holds and no payment does (a database written before payments were
    // recorded, or an import) is shown on the order's page; the search agrees with it.
    void callbackFoundThroughTheOrdersTransaction_data() { addEngineRows(); }
    void callbackFoundThroughTheOrdersTransaction()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("ord-legacy", 700);
        f.createOrder("ord-other-channel", 800);
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE orders SET channel = ?, channel_txn_id = 'T-LEGACY' WHERE"
                          " order_id = ?",
                          {QStringLiteral("stripe"), QStringLiteral("ord-legacy")})
                    .ok());
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE orders SET channel = ?, channel_txn_id = 'T-LEGACY' WHERE"
                          " order_id = ?",
                          {QStringLiteral("kakaopay"), QStringLiteral("ord-other-channel")})
                    .ok());
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO callback_messages (callback_id, channel, event_kind,"
                          " channel_txn_id, raw_body, headers, status, attempts, next_attempt_at,"
                          " received_at, updated_at) VALUES ('stripe:evt_legacy', 'stripe',"
                          " 'other', 'T-LEGACY', '{}', '{}', 'skipped', 1, ?, ?, ?)",
                          {f.clock.nowMs(), f.clock.nowMs(), f.clock.nowMs()})
                    .ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments"), 0);
        auto page = OrderPictureQuery(*f.orders).load("ord-legacy", kAgent);
        QVERIFY(page.ok());
        QCOMPARE(page->messages.size(), 1);

        OrderSearch search(*f.orders);
        for (const char *term : {"stripe:evt_legacy", "evt_legacy"}) {
            const OrderHit h = onlyHit(search, QString::fromLatin1(term));
            QCOMPARE(h.order.orderId, QStringLiteral("ord-legacy"));
            QCOMPARE(h.matchedBy, MatchKind::CallbackId);
            QCOMPARE(h.matchedChannel, QStringLiteral("stripe"));
        }
    }

    // (b) A rollback's and a cancel's request id: kept on the transition it caused, not as an
    // idempotency record; each finds its order, matched by request.
    void rollbackAndCancelRequestIdsFindTheirOrder_data() { addEngineRows(); }
    void rollbackAndCancelRequestIdsFindTheirOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("ord-2026-000006", 5000, "EUR");
        f.pay("ord-2026-000006", 1, "req-6-1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("ord-2026-000006", "req-6-1", 5000, "EUR", "evt_6_fail", "pi_6_1")));
        f.drain();
        const Order failed = f.order("ord-2026-000006");
        QCOMPARE(failed.state, OrderState::PaymentFailed);
        QVERIFY(f.service->rollback("ord-2026-000006", failed.version, CauseKind::Request,
                                    "rb-ord-2026-000006", Actor::platform(), "new attempt"));
        f.createOrder("ord-2026-000007", 300);
        QVERIFY(f.service->cancel("ord-2026-000007", 1, CauseKind::Request, "cx-ord-2026-000007",
                                  Actor::platform(), "customer changed their mind"));
        for (const char *request : {"rb-ord-2026-000006", "cx-ord-2026-000007"}) {
            QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE cause_kind = 'request'"
                             " AND cause_id = ?",
                             {QString::fromLatin1(request)}),
                     1);
            QCOMPARE(f.count("SELECT COUNT(*) FROM idempotency_records WHERE request_id = ?",
                             {QString::fromLatin1(request)}),
                     0);
        }

        OrderSearch search(*f.orders);
        const OrderHit rb = onlyHit(search, "rb-ord-2026-000006");
        QCOMPARE(rb.order.orderId, QStringLiteral("ord-2026-000006"));
        QCOMPARE(rb.matchedBy, MatchKind::RequestId);
        QCOMPARE(rb.matchedValue, QStringLiteral("rb-ord-2026-000006"));
        QCOMPARE(rb.order.state, OrderState::PendingPayment);
        const OrderHit cx = onlyHit(search, "cx-ord-2026-000007");
        QCOMPARE(cx.order.orderId, QStringLiteral("ord-2026-000007"));
        QCOMPARE(cx.matchedBy, MatchKind::RequestId);
        QCOMPARE(cx.order.state, OrderState::Cancelled);
        // A payment request is both an idempotency record and its transition's cause: once.
        const OrderHit pay = onlyHit(search, "req-6-1");
        QCOMPARE(pay.order.orderId, QStringLiteral("ord-2026-000006"));
        QCOMPARE(pay.matchedBy, MatchKind::RequestId);
        // A callback's id is the cause of its transitions too: still matched as the callback.
        QCOMPARE(onlyHit(search, "stripe:evt_6_fail").matchedBy, MatchKind::CallbackId);
    }

    // (c) Nothing is still nothing, text that would change a query changes none, and a
    // PayPal refund of a capture nobody holds is still answered as a callback for no order.
    void nothingStaysNothing_data() { addEngineRows(); }
    void nothingStaysNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        payThenRefundInPayPalsDashboard(f);
        QVERIFY(f.service->cancel(f.createOrder("ord-cx", 100).orderId, 1, CauseKind::Request,
                                  "cx-1", Actor::platform(), "test"));
        OrderSearch search(*f.orders);
        for (const char *term : {"no-such-thing", "' OR 1=1 --", "cx-1' OR '1'='1",
                                 "WH-DASHBOARD-REFUND-1' OR '1'='1", "%", "paypal:%", "request"}) {
            auto none = search.search(QString::fromLatin1(term), kAgent);
            QVERIFY2(none.ok(), term);
            QVERIFY2(none->isEmpty(), term);
        }

        PayPalEvents::Params p;
        p.eventId = QStringLiteral("WH-REFUND-OF-NOTHING");
        p.captureId = QStringLiteral("CAP-NEVER");
        p.refundId = QStringLiteral("REF-NEVER");
        p.orderId.clear();
        p.attemptId.clear();
        p.createTimeMs = f.clock.nowMs();
        deliverPayPal(f, PayPalEvents::refundEvent(QStringLiteral("PAYMENT.CAPTURE.REFUNDED"), p));
        QCOMPARE(f.drain().failed, 1);
        const OrderHit ghost = onlyHit(search, "WH-REFUND-OF-NOTHING");
        QCOMPARE(ghost.matchedBy, MatchKind::UnknownOrderCallback);
        QVERIFY(ghost.order.orderId.isEmpty());
        QCOMPARE(ghost.callback.callbackId, QStringLiteral("paypal:WH-REFUND-OF-NOTHING"));
        QCOMPARE(ghost.callback.channelTxnId, QStringLiteral("CAP-NEVER"));
    }

    // Every branch of the one search statement reads through an index on each engine: no
    // table is scanned (SQLite's plan, PostgreSQL's with sequential scans priced out, MariaDB's
    // access types).
    void everyBranchIsAnIndexLookup_data() { addEngineRows(); }
    void everyBranchIsAnIndexLookup()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        buildScenario(f);
        const QString sql = statementFor(QStringLiteral("rb-1"));
        QCOMPARE(sql.count(u'?'), 0);
        const QSqlDatabase db = f.orders->db();
        QStringList steps;
        switch (dbs->dialect()) {
        case Dialect::Sqlite: {
            auto plan = Sql::exec(db, QStringLiteral("EXPLAIN QUERY PLAN ") + sql);
            QVERIFY(plan.ok());
            while (plan->next())
                steps << plan->value(3).toString();
            // SCAN of a branch's own result (b0, b1, ...) is reading what a lookup found.
            static const QRegularExpression tableScan(QStringLiteral(R"(^SCAN (?!b\d+\b))"));
            for (const QString &s : std::as_const(steps))
                QVERIFY2(!tableScan.match(s).hasMatch(), qPrintable(steps.join(u'\n')));
            QVERIFY2(steps.join(u'\n').contains(QStringLiteral("order_transitions_cause")),
                     qPrintable(steps.join(u'\n')));
            break;
        }
        case Dialect::Postgres: {
            QVERIFY(Sql::exec(db, QStringLiteral("SET enable_seqscan = off")).ok());
            auto plan = Sql::exec(db, QStringLiteral("EXPLAIN ") + sql);
            QVERIFY(plan.ok());
            while (plan->next())
                steps << plan->value(0).toString();
            QVERIFY(Sql::exec(db, QStringLiteral("RESET enable_seqscan")).ok());
            const QString all = steps.join(u'\n');
            QVERIFY2(!all.contains(QStringLiteral("Seq Scan")), qPrintable(all));
            // An index read whole (no Index Cond) is a scan too.
            for (int i = 0; i < steps.size(); ++i) {
                if (!steps[i].contains(QStringLiteral("Index Scan")) &&
                    !steps[i].contains(QStringLiteral("Index Only Scan")))
                    continue;
                bool cond = false;
                for (int j = i + 1; j < steps.size() && !steps[j].contains(QStringLiteral("->"));
                     ++j)
                    cond = cond || steps[j].contains(QStringLiteral("Index Cond:"));
                QVERIFY2(cond, qPrintable(steps[i] + u'\n' + all));
            }
            QVERIFY2(all.contains(QStringLiteral("order_transitions_cause")), qPrintable(all));
            break;
        }
        case Dialect::MySql: {
            // MariaDB reads a table of a few rows whole: give the tables a day's worth of
            // rows (MariaDB's sequence engine) so that the plan is the one a real day gets.
            for (const char *pad :
                 {"INSERT INTO orders (order_id, customer_ref, amount_minor, currency, state,"
                  " version, channel, channel_txn_id, created_at, updated_at) SELECT"
                  " CONCAT('pad-', seq), CONCAT('cust-pad-', seq % 500), 100, 'USD', 'paid', 3,"
                  " 'stripe', CONCAT('T-pad-', seq), seq, seq FROM seq_1_to_3000",
                  "INSERT INTO payments (order_id, channel, channel_txn_id, request_id,"
                  " callback_id, amount_minor, currency, status, captured_at) SELECT"
                  " CONCAT('pad-', seq), 'stripe', CONCAT('T-pad-', seq), CONCAT('req-pad-', seq),"
                  " CONCAT('stripe:evt_pad_', seq), 100, 'USD', 'captured', seq"
                  " FROM seq_1_to_3000",
                  "INSERT INTO callback_messages (callback_id, channel, event_kind, order_ref,"
                  " channel_txn_id, raw_body, headers, status, attempts, next_attempt_at,"
                  " received_at, updated_at) SELECT CONCAT('stripe:evt_pad_', seq), 'stripe',"
                  " 'payment_succeeded', IF(seq % 3 = 0, NULL, CONCAT('pad-', seq)),"
                  " CONCAT('T-pad-', seq), '{}', '{}', 'completed', 1, seq, seq, seq"
                  " FROM seq_1_to_3000",
                  "INSERT INTO idempotency_records (request_id, order_id, expected_version,"
                  " operation, payload_digest, status, created_at, updated_at) SELECT"
                  " CONCAT('req-pad-', seq), CONCAT('pad-', seq), 1, 'pay', 'x', 1, seq, seq"
                  " FROM seq_1_to_3000",
                  "INSERT INTO order_transitions (order_id, from_state, to_state, new_version,"
                  " cause_kind, cause_id, actor, created_at) SELECT CONCAT('pad-', seq),"
                  " 'paying', 'paid', 3, IF(seq % 2 = 0, 'request', 'callback'),"
                  " CONCAT('cause-pad-', seq), 'platform', seq FROM seq_1_to_3000",
                  "ANALYZE TABLE orders, payments, callback_messages, idempotency_records,"
                  " order_transitions"})
                QVERIFY(Sql::exec(db, QString::fromLatin1(pad)).ok());
            auto plan = Sql::exec(db, QStringLiteral("EXPLAIN ") + sql);
            QVERIFY(plan.ok());
            const QSqlRecord r = plan->record();
            const int table = r.indexOf(QStringLiteral("table"));
            const int type = r.indexOf(QStringLiteral("type"));
            const int key = r.indexOf(QStringLiteral("key"));
            QStringList scans;
            while (plan->next()) {
                const QString t = plan->value(table).toString();
                const QString row =
                    t + u' ' + plan->value(type).toString() + u' ' + plan->value(key).toString();
                steps << row;
                // A derived table or a union's result is reading what a lookup found.
                if (!t.isEmpty() && !t.startsWith(u'<') &&
                    (plan->value(type).toString() == u"ALL" || plan->value(key).isNull()))
                    scans << row;
            }
            QVERIFY2(scans.isEmpty(), qPrintable(steps.join(u'\n')));
            QVERIFY2(steps.join(u'\n').contains(QStringLiteral("order_transitions_cause")),
                     qPrintable(steps.join(u'\n')));
            break;
        }
        }
    }
};

QTEST_GUILESS_MAIN(TstSearchReach)
#include "tst_search_reach.moc"
