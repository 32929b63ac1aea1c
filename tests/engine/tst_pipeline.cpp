// Callbacks through ingest and the worker: the seeds' incidents, out-of-order delivery,
// authentic-but-wrong callbacks and bad input at the door, on every engine.

#include "enginefixture.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using P = StripeEvents::Params;

class TstPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void successBooksEverythingOnce_data() { addEngineRows(); }
    void successBooksEverythingOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-1", 2112);
        f.pay("o-1", 1, "a1");
        const QByteArray body = StripeEvents::paymentIntentSucceeded(
            f.params("o-1", "a1", 2112, "USD", "evt_1", "pi_1"));
        QCOMPARE(f.deliver(body), IngestStatus::Stored);
        QCOMPARE(f.deliver(body), IngestStatus::Duplicate); // the channel's retry
        WorkerStats s = f.drain();
        QCOMPARE(s.completed, 1);
        Order o = f.order("o-1");
        QCOMPARE(o.state, OrderState::Paid);
        QCOMPARE(o.version, 4); // pending 1 → paying 2 → paid_unconfirmed 3 → paid 4
        QCOMPARE(o.channelTxnId, QStringLiteral("pi_1"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"), 1);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-1'"),
                 2112);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders WHERE order_id = 'o-1'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM logistics_orders WHERE order_id = 'o-1'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'completed'"), 1);
        QVERIFY(f.count("SELECT COUNT(*) FROM audit_outbox WHERE callback_id = 'stripe:evt_1'") >=
                3);

        // The same payment reported again under a new event id: second layer says "already".
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-1", "a1", 2112, "USD", "evt_1b", "pi_1")));
        QCOMPARE(f.drain().skipped, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 1);
        QCOMPARE(f.order("o-1").version, 4);
    }

    void rollbackThenStaleRetry_data() { addEngineRows(); }
    void rollbackThenStaleRetry()
    {
        // The seeds' incident: a rolled-back order must not take the old attempt's callback.
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-2", 5000, "EUR");
        f.pay("o-2", 1, "a1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("o-2", "a1", 5000, "EUR", "evt_f", "pi_a1")));
        f.drain();
        QCOMPARE(f.order("o-2").state, OrderState::PaymentFailed);
        QVERIFY(f.service->rollback("o-2", 3, CauseKind::Request, "rb", Actor::platform(), "retry")
                    .ok());
        QCOMPARE(f.order("o-2").version, 4);

        // The old attempt's late success (money captured at the channel).
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-2", "a1", 5000, "EUR", "evt_late", "pi_a1")));
        WorkerStats late = f.drain();
        QCOMPARE(late.skipped, 1);
        QCOMPARE(f.order("o-2").state, OrderState::PendingPayment);
        QCOMPARE(f.order("o-2").version, 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE order_id = 'o-2' AND "
                         "resolved_at IS NULL"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM transition_rejections WHERE order_id = 'o-2'"), 1);
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM callback_messages WHERE callback_id = 'stripe:evt_late' AND"
                " status = 'skipped'"),
            1);

        // A fresh attempt then succeeds exactly once.
        f.pay("o-2", 4, "a2");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-2", "a2", 5000, "EUR", "evt_ok", "pi_a2")));
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-2", "a2", 5000, "EUR", "evt_ok", "pi_a2")));
        f.drain();
        QCOMPARE(f.order("o-2").state, OrderState::Paid);
        QCOMPARE(f.order("o-2").version, 7);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'payment_credit'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), 1);
        auto t = f.service->history("o-2")->transitions;
        for (int i = 1; i < t.size(); ++i)
            QVERIFY(t[i].newVersion > t[i - 1].newVersion);
    }

    void outOfOrder_data() { addEngineRows(); }
    void outOfOrder()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-3", 45000, "KRW");
        f.pay("o-3", 1, "a1");
        const P p = f.params("o-3", "a1", 45000, "KRW", "evt_cap", "pi_k");
        // The refund arrives first: it waits (retried), nothing is booked.
        P refund = p;
        refund.eventId = QStringLiteral("evt_ref");
        f.deliver(StripeEvents::chargeRefunded(refund));
        WorkerStats first = f.drain();
        QCOMPARE(first.failed, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 0);
        QCOMPARE(f.order("o-3").state, OrderState::Paying);

        // Then the capture, then a failure report for the same attempt.
        f.deliver(StripeEvents::paymentIntentSucceeded(p));
        P failure = p;
        failure.eventId = QStringLiteral("evt_fail_after");
        f.deliver(StripeEvents::paymentIntentFailed(failure));
        f.drain();
        QCOMPARE(f.order("o-3").state, OrderState::Paid);
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM callback_messages WHERE callback_id = 'stripe:evt_fail_after'"
                " AND status = 'skipped'"),
            1);

        // The refund's retry is due after its back-off: now it applies.
        f.clock.advance(60 * 1000);
        f.drain();
        QCOMPARE(f.order("o-3").state, OrderState::Refunded);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-3'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status NOT IN ('completed', "
                         "'skipped')"),
                 0);
    }

    void canceledIntentFailsTheAttempt_data() { addEngineRows(); }
    void canceledIntentFailsTheAttempt()
    {
        // payment_intent.canceled: the attempt will never capture; the order must leave
        // paying so that it can be rolled back and paid again.
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-cx", 3000);
        f.pay("o-cx", 1, "a1");
        f.deliver(StripeEvents::paymentIntentCanceled(
            f.params("o-cx", "a1", 3000, "USD", "evt_cx", "pi_cx")));
        QCOMPARE(f.drain().completed, 1);
        QCOMPARE(f.order("o-cx").state, OrderState::PaymentFailed);
        QCOMPARE(f.order("o-cx").stateReason, QStringLiteral("payment_intent.canceled"));
        QVERIFY(f.service->rollback("o-cx", 3, CauseKind::Request, "rb", Actor::platform(), "again")
                    .ok());
        QCOMPARE(f.order("o-cx").state, OrderState::PendingPayment);
    }

    void unknownOrderIsKeptThenDeadLettered_data() { addEngineRows(); }
    void unknownOrderIsKeptThenDeadLettered()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-ghost", "a1", 100, "USD", "evt_g", "pi_g")));
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        QCOMPARE(f.count("SELECT attempts FROM callback_messages"), 4);
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM dead_letters WHERE reason LIKE '%unknown order o-ghost%'"),
            1);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'callback.dead_lettered'"),
            1);
    }

    void mismatchWaitsForAPerson_data() { addEngineRows(); }
    void mismatchWaitsForAPerson()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-4", 1000, "USD");
        f.pay("o-4", 1, "a1");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-4", "a1", 990, "USD", "evt_m", "pi_m")));
        f.createOrder("o-5", 1000, "USD");
        f.pay("o-5", 1, "b1");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-5", "b1", 1000, "EUR", "evt_c", "pi_c")));
        f.drain();
        for (const char *id : {"o-4", "o-5"}) {
            Order o = f.order(id);
            QCOMPARE(o.state, OrderState::PaidUnconfirmed);
            QCOMPARE(o.version, 3);
            QVERIFY2(o.stateReason.contains("differs"), qPrintable(o.stateReason));
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments"), 2); // the money that moved is on record
        // A person confirms one and rolls the other back (money flagged for refund).
        QVERIFY(f.service->confirm("o-4", 3, "fix-1", {"fin", "finance"}, "customer agreed").ok());
        QCOMPARE(f.order("o-4").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT amount_minor FROM ledger_entries WHERE order_id = 'o-4'"), 990);
        QVERIFY(
            f.service
                ->rollback("o-5", 3, CauseKind::Fix, "fix-2", {"fin", "finance"}, "wrong currency")
                .ok());
        QCOMPARE(f.order("o-5").version, 4);
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE order_id = 'o-5'"), 1);
    }

    void badInputAtTheDoor_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason");
        for (auto [name, d] : {std::pair{"sqlite", Dialect::Sqlite},
                               {"postgresql", Dialect::Postgres},
                               {"mariadb", Dialect::MySql}}) {
            for (auto [k, r] : {std::pair{"bad signature", "bad_signature"},
                                {"missing signature", "missing_signature"},
                                {"old timestamp", "stale_timestamp"},
                                {"future timestamp", "stale_timestamp"},
                                {"malformed json", "malformed"},
                                {"unknown channel", "unknown_channel"},
                                {"negative amount", "bad_amount"},
                                {"overflowing amount", "bad_amount"},
                                {"oversized body", "too_large"}})
                QTest::newRow(qPrintable(QString("%1/%2").arg(name, k)))
                    << int(d) << QString(k) << QString(r);
        }
    }
    void badInputAtTheDoor()
    {
        ONCEPAY_SCRATCH(dbs);
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        EngineFixture f(*dbs);
        f.createOrder("o-6", 100);
        f.pay("o-6", 1, "a1");
        P p = f.params("o-6", "a1", 100, "USD", "evt_bad", "pi_bad");
        QByteArray body = StripeEvents::paymentIntentSucceeded(p);
        const qint64 now = f.clock.nowMs() / 1000;
        QString channel = QStringLiteral("stripe");
        InboundRequest req = f.stripe(body);
        if (kind == "bad signature")
            req = StripeSigner::sign(body, QByteArrayLiteral("whsec_wrong"), now);
        else if (kind == "missing signature")
            req.headers.clear();
        else if (kind == "old timestamp")
            req = StripeSigner::sign(body, kStripeSecret, now - 301);
        else if (kind == "future timestamp")
            req = StripeSigner::sign(body, kStripeSecret, now + 301);
        else if (kind == "malformed json")
            req = f.stripe(QByteArrayLiteral("{\"id\": \"evt_x\", \"type\": "));
        else if (kind == "unknown channel")
            channel = QStringLiteral("bitpay");
        else if (kind == "negative amount")
            req = f.stripe(
                QByteArray(body).replace("\"amount_received\": 100", "\"amount_received\": -100"));
        else if (kind == "overflowing amount")
            req = f.stripe(QByteArray(body).replace(
                "\"amount_received\": 100", "\"amount_received\": 99999999999999999999999"));
        else if (kind == "oversized body")
            req = f.stripe(
                QByteArray(body).insert(1, "\"pad\": \"" + QByteArray(300 * 1024, 'x') + "\", "));

        auto r = f.ingest->ingest(channel, req);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason, reason);
        QVERIFY(!r.error().message.contains(QString::fromLatin1(kStripeSecret)));
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ingest_rejections WHERE reason_code = ?", {reason}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'callback.rejected'"),
                 1);
        QCOMPARE(f.order("o-6").version, 2);
    }

    void unhandledEventIsStoredAsSkipped_data() { addEngineRows(); }
    void unhandledEventIsStoredAsSkipped()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto status = f.deliver(StripeEvents::eventOfType(
            "payment_intent.created", f.params("o-7", "a1", 100, "USD", "evt_c", "pi_c")));
        QCOMPARE(status, IngestStatus::Skipped);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'skipped'"), 1);
        QCOMPARE(f.drain().claimed, 0);
    }
};

QTEST_GUILESS_MAIN(TstPipeline)
#include "tst_pipeline.moc"
