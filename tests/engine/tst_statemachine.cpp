// The state machine of DESIGN.md §2 and the platform's order requests with idempotency.

#include "enginefixture.h"
#include "orders/idempotencystore.h"
#include "orders/orderrepository.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

class TstStateMachine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onlyTheDesignedTransitionsExist()
    {
        using S = OrderState;
        const QList<QPair<S, S>> designed = {
            {S::PendingPayment, S::Paying},        {S::PendingPayment, S::Cancelled},
            {S::Paying, S::PaidUnconfirmed},       {S::Paying, S::PaymentFailed},
            {S::PaidUnconfirmed, S::Paid},         {S::PaidUnconfirmed, S::PendingPayment},
            {S::PaymentFailed, S::PendingPayment}, {S::Paid, S::Refunded}};
        const QList<S> all = {S::PendingPayment, S::Paying,    S::PaidUnconfirmed, S::Paid,
                              S::PaymentFailed,  S::Cancelled, S::Refunded};
        int allowed = 0;
        for (S from : all)
            for (S to : all) {
                const bool expected = designed.contains({from, to});
                QVERIFY2(transitionAllowed(from, to) == expected,
                         qPrintable(orderStateName(from) + " -> " + orderStateName(to)));
                allowed += transitionAllowed(from, to);
            }
        QCOMPARE(allowed, 8);
        QVERIFY(isRollback(S::PaymentFailed, S::PendingPayment));
        QVERIFY(isRollback(S::PaidUnconfirmed, S::PendingPayment));
        QVERIFY(!isRollback(S::Paying, S::PaymentFailed));
    }

    void payIsIdempotentAndVersioned_data() { addEngineRows(); }
    void payIsIdempotentAndVersioned()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Order o = f.createOrder(QStringLiteral("o-1"), 2112);
        QCOMPARE(o.version, 1);

        auto first = f.service->startPayment("o-1", "stripe", 1, "req-1", Actor::platform());
        QVERIFY(first.ok());
        QCOMPARE(first->order.state, OrderState::Paying);
        QCOMPARE(first->order.version, 2);
        QVERIFY(!first->replayed);

        auto retry = f.service->startPayment("o-1", "stripe", 1, "req-1", Actor::platform());
        QVERIFY(retry.ok());
        QVERIFY(retry->replayed);
        QCOMPARE(retry->order.version, 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE order_id = 'o-1'"), 1);

        auto reused = f.service->startPayment("o-1", "paypal", 1, "req-1", Actor::platform());
        QVERIFY(!reused.ok());
        QCOMPARE(reused.error().code, ErrorCode::Conflict);
        QCOMPARE(reused.error().reason, QStringLiteral("request_id_reused"));

        // A second attempt against the version the caller saw before: stale, nothing moves.
        auto stale = f.service->startPayment("o-1", "stripe", 1, "req-2", Actor::platform());
        QVERIFY(!stale.ok());
        QCOMPARE(stale.error().code, ErrorCode::Stale);
        QCOMPARE(f.order("o-1").version, 2);
        QCOMPARE(f.order("o-1").currentRequestId, QStringLiteral("req-1"));
        auto history = f.service->history("o-1");
        QCOMPARE(history->rejections.size(), 1);
        QCOMPARE(history->rejections.first().expectedVersion, 1);
        QCOMPARE(history->rejections.first().actualVersion, 2);
        // Its retry returns the recorded refusal without touching the order again.
        auto staleRetry = f.service->startPayment("o-1", "stripe", 1, "req-2", Actor::platform());
        QCOMPARE(staleRetry.error().code, ErrorCode::Stale);
        QCOMPARE(f.count("SELECT status FROM idempotency_records WHERE request_id = 'req-2'"), 2);
        QCOMPARE(f.count("SELECT status FROM idempotency_records WHERE request_id = 'req-1'"), 1);
    }

    void payRefusesAnUnknownChannel_data() { addEngineRows(); }
    void payRefusesAnUnknownChannel()
    {
        // "Stripe" is not "stripe": its callbacks and refunds would never match the payment.
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder(QStringLiteral("o-c"), 2112);
        for (const char *name : {"Stripe", "stripe ", "alipay", ""}) {
            auto r = f.service->startPayment("o-c", name, 1, "req-c", Actor::platform());
            QVERIFY2(!r.ok(), name);
            QCOMPARE(r.error().code, ErrorCode::Invalid);
            QCOMPARE(r.error().reason, QStringLiteral("unknown_channel"));
            QCOMPARE(r.error().message,
                     QStringLiteral("unknown channel '%1'; OncePay's channels are: fedapay, "
                                    "kakaopay, paypal, stripe")
                         .arg(QLatin1String(name)));
        }
        // Nothing was written: the order, and the request id still free for the right name.
        QCOMPARE(f.order("o-c").state, OrderState::PendingPayment);
        QCOMPARE(f.order("o-c").version, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM idempotency_records"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM transition_rejections"), 0);
        auto ok = f.service->startPayment("o-c", "stripe", 1, "req-c", Actor::platform());
        QVERIFY(ok.ok());
        QCOMPARE(ok->order.channel, QStringLiteral("stripe"));
    }

    void pendingRecordFromACrashIsCompletedOnRetry_data() { addEngineRows(); }
    void pendingRecordFromACrashIsCompletedOnRetry()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder(QStringLiteral("o-2"), 500);
        // The crash happened after the idempotency record was committed, before the work.
        IdempotencyStore store(*f.orders, f.clock);
        IdempotencyRecord rec;
        rec.requestId = QStringLiteral("req-9");
        rec.orderId = QStringLiteral("o-2");
        rec.expectedVersion = 1;
        rec.operation = QStringLiteral("pay");
        rec.payloadDigest = IdempotencyStore::digest({"pay", "o-2", "stripe", "1"});
        bool fresh = false;
        QVERIFY(store.begin(rec, &fresh).ok());
        QVERIFY(fresh);
        auto retry = f.service->startPayment("o-2", "stripe", 1, "req-9", Actor::platform());
        QVERIFY2(retry.ok(), qPrintable(retry.ok() ? QString() : retry.error().message));
        QCOMPARE(retry->order.version, 2);
        QCOMPARE(f.count("SELECT status FROM idempotency_records WHERE request_id = 'req-9'"), 1);
    }

    void rollbackNeverLowersTheVersion_data() { addEngineRows(); }
    void rollbackNeverLowersTheVersion()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder(QStringLiteral("o-3"), 1000);
        f.pay("o-3", 1, "a1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("o-3", "a1", 1000, "USD", "evt_f1", "pi_1")));
        f.drain();
        QCOMPARE(f.order("o-3").state, OrderState::PaymentFailed);
        QCOMPARE(f.order("o-3").version, 3);
        auto back = f.service->rollback("o-3", 3, CauseKind::Request, "rb-1", Actor::platform(),
                                        "new attempt");
        QVERIFY(back.ok());
        QCOMPARE(back->state, OrderState::PendingPayment);
        QCOMPARE(back->version, 4);
        QVERIFY(back->currentRequestId.isEmpty());

        auto wrong =
            f.service->cancel("o-3", 3, CauseKind::Request, "c-1", Actor::platform(), "too late");
        QCOMPARE(wrong.error().code, ErrorCode::Stale);
        auto notATransition =
            f.service->rollback("o-3", 4, CauseKind::Request, "rb-2", Actor::platform(), "x");
        QCOMPARE(notATransition.error().code, ErrorCode::Conflict);
        QCOMPARE(f.order("o-3").version, 4);

        auto transitions = f.service->history("o-3")->transitions;
        for (int i = 1; i < transitions.size(); ++i)
            QCOMPARE(transitions[i].newVersion, transitions[i - 1].newVersion + 1);
        QCOMPARE(transitions.last().toState, QStringLiteral("pending_payment"));
    }

    void createRefusesBadInput_data() { addEngineRows(); }
    void createRefusesBadInput()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QCOMPARE(f.service->create({"o-x", "c", -1, "USD"}, Actor::platform()).error().reason,
                 QStringLiteral("bad_amount"));
        QCOMPARE(f.service->create({"o-x", "c", 1, "XYZ"}, Actor::platform()).error().reason,
                 QStringLiteral("unknown_currency"));
        QCOMPARE(f.service->create({"o x;drop", "c", 1, "USD"}, Actor::platform()).error().reason,
                 QStringLiteral("bad_order_id"));
        QVERIFY(f.service->create({"o-x", "c", 1, "USD"}, Actor::platform()).ok());
        QCOMPARE(f.service->create({"o-x", "c", 1, "USD"}, Actor::platform()).error().reason,
                 QStringLiteral("duplicate_order"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM orders"), 1);
    }
};

QTEST_GUILESS_MAIN(TstStateMachine)
#include "tst_statemachine.moc"
