#pragma once

// A small day of payments made through the real engine (EngineFixture), with one of each
// thing the console must show: a clean payment with a channel retry and a second report of
// the same payment, a rollback followed by the old attempt's late (stale) success and a new
// attempt, a refund, a callback for an unknown order that ends as a dead letter, a callback
// still waiting, an order stuck in paying, a request that never finished, and a forged
// request refused at the door.
// Thread contract: test main thread.

#include "db/sql.h"
#include "enginefixture.h"

namespace OncePay::Test {

struct Scenario {
    qint64 start = 0; // the fixture clock when the scenario began
    qint64 end = 0;   // and when it finished
};

inline Scenario buildScenario(EngineFixture &f)
{
    Scenario s;
    s.start = f.clock.nowMs();

    // 1. Paid once; the channel's retry is absorbed at the door, a re-report by the worker.
    f.createOrder("ord-paid", 2112);
    f.pay("ord-paid", 1, "req-paid-1");
    const QByteArray paid = StripeEvents::paymentIntentSucceeded(
        f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_paid", "pi_paid"));
    f.deliver(paid);
    f.deliver(paid);
    f.drain();
    f.clock.advance(60 * 1000);
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_paid_again", "pi_paid")));
    f.drain();

    // 2. Failed, rolled back, the old attempt's late success (stale: money to refund), then
    //    a new attempt that succeeds.
    f.clock.advance(60 * 1000);
    f.createOrder("ord-rb", 5000, "EUR");
    f.pay("ord-rb", 1, "req-rb-1");
    f.deliver(StripeEvents::paymentIntentFailed(
        f.params("ord-rb", "req-rb-1", 5000, "EUR", "evt_rb_fail", "pi_rb1")));
    f.drain();
    f.clock.advance(30 * 1000);
    if (!f.service->rollback("ord-rb", 3, CauseKind::Request, "rb-1", Actor::platform(),
                             "new attempt"))
        qFatal("rollback failed");
    f.clock.advance(30 * 1000);
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("ord-rb", "req-rb-1", 5000, "EUR", "evt_rb_late", "pi_rb1")));
    f.drain();
    f.clock.advance(30 * 1000);
    f.pay("ord-rb", 4, "req-rb-2");
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("ord-rb", "req-rb-2", 5000, "EUR", "evt_rb_ok", "pi_rb2")));
    f.drain();

    // 3. Paid, then refunded.
    f.clock.advance(60 * 1000);
    f.createOrder("ord-ref", 45000, "KRW");
    f.pay("ord-ref", 1, "req-ref-1");
    auto p = f.params("ord-ref", "req-ref-1", 45000, "KRW", "evt_ref_cap", "pi_ref");
    f.deliver(StripeEvents::paymentIntentSucceeded(p));
    f.drain();
    p.eventId = QStringLiteral("evt_ref_refund");
    f.deliver(StripeEvents::chargeRefunded(p));
    f.drain();

    // 4. A callback for an order nobody knows: retried, then dead-lettered.
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("ord-ghost", "a1", 100, "USD", "evt_ghost", "pi_ghost")));
    for (int i = 0; i < 8; ++i) {
        f.drain();
        f.clock.advance(3600 * 1000);
    }

    // 5. An order left in paying with no callback, and one whose callback waits unprocessed.
    f.createOrder("ord-stuck", 990);
    f.pay("ord-stuck", 1, "req-stuck-1");
    f.createOrder("ord-wait", 1234);
    f.pay("ord-wait", 1, "req-wait-1");
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("ord-wait", "req-wait-1", 1234, "USD", "evt_wait", "pi_wait")));

    // 6. A request that crashed after its idempotency record was written (never finished).
    if (!Sql::exec(
            f.orders->db(),
            "INSERT INTO idempotency_records (request_id, order_id, expected_version, operation,"
            " payload_digest, status, created_at, updated_at) VALUES ('req-crashed', 'ord-stuck', "
            "2,"
            " 'rollback', 'x', 0, ?, ?)",
            {f.clock.nowMs(), f.clock.nowMs()}))
        qFatal("idempotency insert failed");

    // 7. A forged request: refused at the door, recorded.
    InboundRequest forged = f.stripe(StripeEvents::paymentIntentSucceeded(
        f.params("ord-paid", "req-paid-1", 1, "USD", "evt_forged", "pi_paid")));
    forged.body.replace("\"amount\"", "\"amount \"");
    (void)f.ingest->ingest(QStringLiteral("stripe"), forged);

    // Let the thresholds pass so that what is stuck shows as stuck.
    f.clock.advance(3600 * 1000);
    s.end = f.clock.nowMs();
    return s;
}

} // namespace OncePay::Test
