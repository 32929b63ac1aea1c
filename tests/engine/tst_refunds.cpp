// Refunds through ingest and the worker, on every engine: partial refunds book their debit
// and leave the order paid, the order becomes refunded when the refunds reach the capture,
// each refund is booked once, and a refund that cannot be right (another currency, more than
// was captured) is held for a person as a dead letter instead of being booked.

#include "channels/kakaopay/kakaopayevents.h"
#include "channels/kakaopay/kakaopaysigner.h"
#include "enginefixture.h"
#include "fixes/fixtargets.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const QByteArray kKakaoSecret = QByteArrayLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

// The fixture with KakaoPay configured too.
void addKakaoPay(EngineFixture &f)
{
    f.config.channels[QStringLiteral("kakaopay")][QStringLiteral("webhook_secret")] =
        QString::fromLatin1(kKakaoSecret);
    f.ingest.reset();
    f.channels = std::make_unique<ChannelRegistry>(f.config);
    f.ingest = std::make_unique<IngestService>(*f.orders, *f.channels, f.clock);
}

IngestStatus deliverKakao(EngineFixture &f, const QByteArray &body, const QByteArray &webhookId)
{
    auto r = f.ingest->ingest(
        QStringLiteral("kakaopay"),
        KakaoPaySigner::sign(body, kKakaoSecret, webhookId, f.clock.nowMs() / 1000));
    if (!r)
        qFatal("ingest: %s", qPrintable(r.error().message));
    return r->status;
}

QString reasonOf(const EngineFixture &f, const QString &callbackId)
{
    auto v = Sql::scalar(
        f.orders->db(),
        QStringLiteral("SELECT COALESCE(result_reason, last_error) FROM callback_messages"
                       " WHERE callback_id = ?"),
        {callbackId});
    return v ? v->toString() : QString();
}

// A Stripe order of `amount` paid through payment intent `pi`.
StripeEvents::Params paidStripeOrder(EngineFixture &f, const QString &id, qint64 amount,
                                     const QString &pi, const QString &currency = "USD")
{
    f.createOrder(id, amount, currency);
    f.pay(id, 1, id + "-a1");
    StripeEvents::Params p = f.params(id, id + "-a1", amount, currency, "evt_pay_" + id, pi);
    f.deliver(StripeEvents::paymentIntentSucceeded(p));
    f.drain();
    if (f.order(id).state != OrderState::Paid)
        qFatal("order %s not paid", qPrintable(id));
    return p;
}

} // namespace

class TstRefunds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stripePartialRefundsAddUp_data() { addEngineRows(); }
    void stripePartialRefundsAddUp()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StripeEvents::Params p = paidStripeOrder(f, "o-r1", 10000, "pi_r1");

        // 10.00 of 100.00 refunded: Stripe sends charge.refunded with the running total.
        StripeEvents::Params r = p;
        r.eventId = "evt_ref_1";
        r.amountRefunded = 1000;
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().completed, 1);
        QCOMPARE(f.order("o-r1").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-r1'"
                         " AND kind = 'refund_debit'"),
                 -1000);
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments WHERE status = 'captured'"), 1);
        QVERIFY2(reasonOf(f, "stripe:evt_ref_1").startsWith("partial refund of 10.00 USD booked"),
                 qPrintable(reasonOf(f, "stripe:evt_ref_1")));

        // The same total again under another event id: nothing more is booked.
        r.eventId = "evt_ref_1_again";
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().skipped, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 1);

        // The rest: the running total reaches the capture, the difference is booked.
        r.eventId = "evt_ref_2";
        r.amountRefunded = 10000;
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().completed, 1);
        const Order o = f.order("o-r1");
        QCOMPARE(o.state, OrderState::Refunded);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 2);
        QCOMPARE(f.count("SELECT amount_minor FROM ledger_entries WHERE entry_key ="
                         " 'refund:stripe:cumulative:ch_r1:10000'"),
                 -9000);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-r1'"),
                 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments WHERE status = 'refunded'"), 1);

        // An older total delivered late is stale.
        r.eventId = "evt_ref_late";
        r.amountRefunded = 5000;
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().skipped, 1);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-r1'"),
                 0);
        QCOMPARE(f.order("o-r1").version, o.version);
    }

    void kakaoPayPartialCancels_data() { addEngineRows(); }
    void kakaoPayPartialCancels()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        addKakaoPay(f);
        f.createOrder("k1", 10000, "KRW");
        auto paying = f.service->startPayment("k1", "kakaopay", 1, "K1A1", Actor::platform());
        QVERIFY(paying.ok());
        KakaoPayEvents::Params k;
        k.orderId = "k1";
        k.attemptId = "K1A1";
        k.tid = "T1";
        k.amountTotal = 10000;
        k.approvedAtMs = f.clock.nowMs();
        deliverKakao(f, KakaoPayEvents::approveResult(k), "msg_k1_appr");
        f.drain();
        QCOMPARE(f.order("k1").state, OrderState::Paid);

        // PART_CANCEL_PAYMENT of 3,000: a partial refund.
        const QByteArray part = KakaoPayEvents::cancelResult(k, 3000, "C1", f.clock.nowMs());
        deliverKakao(f, part, "msg_k1_c1");
        QCOMPARE(f.drain().completed, 1);
        QCOMPARE(f.order("k1").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'k1'"),
                 7000);
        // The relay sends the same cancel answer again under a new webhook id.
        deliverKakao(f, part, "msg_k1_c1_again");
        QCOMPARE(f.drain().skipped, 1);

        // CANCEL_PAYMENT of the other 7,000: the order is refunded.
        deliverKakao(f, KakaoPayEvents::cancelResult(k, 7000, "C2", f.clock.nowMs(), 3000),
                     "msg_k1_c2");
        QCOMPARE(f.drain().completed, 1);
        QCOMPARE(f.order("k1").state, OrderState::Refunded);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'k1'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 2);

        // An order status saying all is cancelled (a running total) books nothing more.
        deliverKakao(f, KakaoPayEvents::statusResult(k, "CANCEL_PAYMENT"), "msg_k1_status");
        f.drain();
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'k1'"), 0);
    }

    // The same partial cancel reported twice, first by an order status (its running total) and
    // then by the cancel answer (its own aid and amount, and the running total): booked once,
    // whichever comes first.
    void kakaoPayCancelReportedByStatusAndAnswer_data() { addEngineRows(); }
    void kakaoPayCancelReportedByStatusAndAnswer()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        addKakaoPay(f);
        f.createOrder("k2", 10000, "KRW");
        QVERIFY(f.service->startPayment("k2", "kakaopay", 1, "K2A1", Actor::platform()).ok());
        KakaoPayEvents::Params k;
        k.orderId = "k2";
        k.attemptId = "K2A1";
        k.tid = "T2";
        k.amountTotal = 10000;
        k.approvedAtMs = f.clock.nowMs();
        deliverKakao(f, KakaoPayEvents::approveResult(k), "msg_k2_appr");
        f.drain();
        QCOMPARE(f.order("k2").state, OrderState::Paid);

        deliverKakao(f, KakaoPayEvents::statusResult(k, "PART_CANCEL_PAYMENT", 3000),
                     "msg_k2_status");
        QCOMPARE(f.drain().completed, 1);
        deliverKakao(f, KakaoPayEvents::cancelResult(k, 3000, "C1", f.clock.nowMs()),
                     "msg_k2_answer");
        QCOMPARE(f.drain().skipped, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 1);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'k2'"),
                 7000);
        QCOMPARE(f.order("k2").state, OrderState::Paid);

        // The rest, answered first and reported by the order status after: booked once.
        deliverKakao(f, KakaoPayEvents::cancelResult(k, 7000, "C2", f.clock.nowMs(), 3000),
                     "msg_k2_answer2");
        QCOMPARE(f.drain().completed, 1);
        deliverKakao(f, KakaoPayEvents::statusResult(k, "CANCEL_PAYMENT"), "msg_k2_status2");
        QCOMPARE(f.drain().skipped, 1);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'k2'"), 0);
        QCOMPARE(f.order("k2").state, OrderState::Refunded);
    }

    void impossibleRefundsAreHeld_data() { addEngineRows(); }
    void impossibleRefundsAreHeld()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StripeEvents::Params p = paidStripeOrder(f, "o-h1", 1000, "pi_h1");

        // 50.00 refunded of a 10.00 payment.
        StripeEvents::Params over = p;
        over.eventId = "evt_over";
        over.amountRefunded = 5000;
        f.deliver(StripeEvents::chargeRefunded(over));
        WorkerStats s = f.drain();
        QCOMPARE(s.dead, 1); // at once: retrying cannot cure it
        QCOMPARE(f.count("SELECT attempts FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_over'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM dead_letters WHERE reason = 'held for a person:"
                         " refund of 50.00 USD would bring payment pi_h1''s refunds to 50.00 USD,"
                         " more than the 10.00 USD captured; not booked'"),
                 1);

        // A refund in EUR of a USD payment.
        StripeEvents::Params euro = p;
        euro.eventId = "evt_eur";
        euro.currency = "eur";
        f.deliver(StripeEvents::chargeRefunded(euro));
        QCOMPARE(f.drain().dead, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM dead_letters WHERE reason LIKE"
                         " '%refund of 10.00 EUR in EUR, but payment pi_h1 was captured in USD%'"),
                 1);

        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE kind = 'refund_debit'"), 0);
        QCOMPARE(f.order("o-h1").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action ="
                         " 'callback.dead_lettered'"),
                 2);
    }

    void refundFindsItsPaymentByTransaction_data() { addEngineRows(); }
    void refundFindsItsPaymentByTransaction()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StripeEvents::Params p = paidStripeOrder(f, "o-t1", 4000, "pi_t1");

        // A refund made in the channel's dashboard names no order: found by its transaction.
        StripeEvents::Params r = p;
        r.eventId = "evt_noref";
        r.orderId.clear();
        r.attemptId.clear();
        r.amountRefunded = 1500;
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().completed, 1);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-t1'"),
                 2500);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE callback_id = 'stripe:evt_noref'"
                         " AND action = 'callback.completed' AND order_id = 'o-t1'"),
                 1);

        // The payments row decides which payment is current, not the order's channel text
        // (an order written as "Stripe" before names were checked).
        QVERIFY(Sql::exec(f.orders->db(),
                          "UPDATE orders SET channel = 'Stripe' WHERE order_id = 'o-t1'")
                    .ok());
        r.eventId = "evt_rest";
        r.amountRefunded = 4000;
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().completed, 1);
        QCOMPARE(f.order("o-t1").state, OrderState::Refunded);
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM ledger_entries WHERE order_id = 'o-t1'"),
                 0);

        // A refund of money OncePay never saw still waits (and is dead-lettered in the end).
        r.eventId = "evt_unknown";
        r.paymentIntentId = "pi_never";
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().failed, 1);
        QCOMPARE(reasonOf(f, "stripe:evt_unknown"), QStringLiteral("callback names no order"));
    }

    void staleCaptureOwedOnceAndItsRefundMeetsIt_data() { addEngineRows(); }
    void staleCaptureOwedOnceAndItsRefundMeetsIt()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-s1", 10000);
        f.pay("o-s1", 1, "a1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("o-s1", "a1", 10000, "USD", "evt_fail", "pi_s1")));
        f.drain();
        QVERIFY(f.service->rollback("o-s1", 3, CauseKind::Request, "rb", Actor::platform(), "retry")
                    .ok());
        f.pay("o-s1", 4, "a2");

        // The superseded attempt captured after all, reported twice under two event ids.
        for (const char *event : {"evt_late_1", "evt_late_2"})
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params("o-s1", "a1", 10000, "USD", event, "pi_s1")));
        QCOMPARE(f.drain().skipped, 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE order_id = 'o-s1'"), 1);
        QVERIFY2(reasonOf(f, "stripe:evt_late_2")
                     .endsWith("; captured money already flagged for refund"),
                 qPrintable(reasonOf(f, "stripe:evt_late_2")));
        QCOMPARE(f.count("SELECT SUM(amount_minor) FROM refund_obligations"), 10000);

        // Finance refunds it at Stripe: the obligation is met, nothing is booked.
        StripeEvents::Params r = f.params("o-s1", "a1", 10000, "USD", "evt_back", "pi_s1");
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().skipped, 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL"), 0);
        QCOMPARE(reasonOf(f, "stripe:evt_back"),
                 QStringLiteral("refund of pi_s1, not the order's current payment; 1 refund "
                                "flag(s) resolved"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 0);
        QCOMPARE(f.order("o-s1").state, OrderState::Paying);
        // Delivered again: still nothing owed, nothing booked, not retried.
        r.eventId = "evt_back_again";
        f.deliver(StripeEvents::chargeRefunded(r));
        QCOMPARE(f.drain().skipped, 1);
    }

    void refundBeforeConfirmation_data() { addEngineRows(); }
    void refundBeforeConfirmation()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        // Two orders paid 9.90 for 10.00: paid_unconfirmed, waiting for a person.
        for (const char *id : {"o-u1", "o-u2"}) {
            f.createOrder(id, 1000);
            f.pay(id, 1, QString(id) + "-a1");
            f.deliver(StripeEvents::paymentIntentSucceeded(
                f.params(id, QString(id) + "-a1", 990, "USD", QString("evt_pay_") + id,
                         QString("pi_") + QString(id).mid(2))));
        }
        f.drain();
        QCOMPARE(f.order("o-u1").state, OrderState::PaidUnconfirmed);

        // The refund of o-u1 is reported; before the worker takes it, a person confirms.
        StripeEvents::Params r = f.params("o-u1", "o-u1-a1", 990, "USD", "evt_back_u1", "pi_u1");
        f.deliver(StripeEvents::chargeRefunded(r));
        auto early = f.service->confirm("o-u1", 3, "fix-1", {"fin", "finance"}, "agreed");
        QVERIFY(!early.ok());
        QCOMPARE(early.error().reason, QStringLiteral("payment_refunded"));
        QCOMPARE(early.error().message,
                 QStringLiteral("order o-u1 cannot be confirmed: stripe reported a refund of "
                                "payment pi_u1 (callback stripe:evt_back_u1) not yet processed"));

        // The worker: the whole capture went back before anything was credited.
        QCOMPARE(f.drain().completed, 1);
        const Order back = f.order("o-u1");
        QCOMPARE(back.state, OrderState::PendingPayment);
        QCOMPARE(back.stateReason,
                 QStringLiteral("stripe refunded 9.90 USD before the payment was confirmed"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM payments WHERE channel_txn_id = 'pi_u1' AND"
                         " status = 'refunded'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM refund_obligations"), 0);

        // Part of o-u2 refunded while unconfirmed: held; and confirming it is refused.
        StripeEvents::Params part = f.params("o-u2", "o-u2-a1", 990, "USD", "evt_part_u2", "pi_u2");
        part.amountRefunded = 400;
        f.deliver(StripeEvents::chargeRefunded(part));
        QCOMPARE(f.drain().dead, 1);
        QCOMPARE(f.order("o-u2").state, OrderState::PaidUnconfirmed);
        auto held = f.service->confirm("o-u2", 3, "fix-2", {"fin", "finance"}, "agreed");
        QVERIFY(!held.ok());
        QCOMPARE(held.error().reason, QStringLiteral("payment_refunded"));
        // Nor is its confirmation proposed: a reviewer is not asked to approve what the
        // confirmation refuses.
        FixProposal confirm;
        confirm.kind = FixKind::ConfirmPayment;
        confirm.targetId = QStringLiteral("o-u2");
        auto proposed = FixTargets(*f.orders, f.clock).plan(confirm);
        QVERIFY(!proposed.ok());
        QCOMPARE(proposed.error().reason, QStringLiteral("payment_refunded"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders"), 0);
    }
};

QTEST_GUILESS_MAIN(TstRefunds)
#include "tst_refunds.moc"
