#pragma once

// The second layer of idempotency (seed 002, pitfall 1): decides what one claimed message
// means for its order, given the order's current state, version and payment attempt, and
// applies it — transition, payment record, credit, purchase and logistics order, refund
// flags, audit rows — inside the caller's transaction.
//
//   applicable          → transition + effects            → Completed
//   already there       → nothing                          → Skipped ("already applied")
//   superseded attempt  → rejection recorded (+ refund flag when money was captured)
//                                                          → Skipped ("stale: …")
//   cannot apply yet    → nothing (unknown order, refund before capture)
//                                                          → Retry, later dead-lettered
//   must not apply      → nothing (a refund in another currency than its payment, or one
//                         taking the refunded total past the captured amount)
//                                                          → Hold: dead-lettered at once,
//                                                            for a person
// Refunds (partial or full) are booked one debit per refund; the order becomes `refunded` when
// its payment's refunded total reaches the captured amount, and stays `paid` before. The whole
// capture refunded while the order is paid_unconfirmed (nothing credited yet) marks the payment
// refunded and rolls the order back to pending_payment; a partial one there is held.
// Thread contract: the connection's thread.

#include "callbackmessage.h"
#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

struct Decision {
    enum Kind { Completed, Skipped, Retry, Hold } kind = Skipped;
    QString reason;
    // What the outcome was, as a code kept beside the words (callback_messages.result_code,
    // migration 0020) for what counts them: "applied" for every Completed; for a Skipped
    // "already_applied" (a duplicate: its effect is there), "failure_after_success" (a
    // duplicate too), "stale" (refused: an attempt the order moved past), "not_actionable",
    // "informational", "superseded_refund" or "nothing_to_book". Empty for Retry and Hold.
    QString code;
    QString orderId; // the order it was decided for (a refund may name none), when found
};

class CallbackProcessor {
public:
    CallbackProcessor(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Runs inside an open transaction. A Retry decision has written nothing.
    Result<Decision> process(const CallbackMessage &message, const Actor &actor) const;

private:
    Result<Decision> succeeded(const CallbackMessage &m, const struct Order &order,
                               const Actor &actor) const;
    Result<Decision> failed(const CallbackMessage &m, const struct Order &order,
                            const Actor &actor) const;
    Result<Decision> refunded(const CallbackMessage &m, const struct Order &order,
                              const Actor &actor) const;
    // The order of the money a refund names: its payments row, else its refund obligation;
    // empty when neither is known.
    Result<QString> refundedOrder(const CallbackMessage &m) const;
    // Marks the unresolved refund obligations of the refunded money met; how many.
    Result<int> resolveObligations(const CallbackMessage &m) const;
    Result<Decision> refundedUnconfirmed(const CallbackMessage &m, const struct Order &order,
                                         const struct RecordedPayment &payment,
                                         const Actor &actor) const;
    Result<Decision> bookRefund(const CallbackMessage &m, const struct Order &order,
                                const struct RecordedPayment &payment, const Actor &actor) const;
    Result<Decision> stale(const CallbackMessage &m, const struct Order &order, const Actor &actor,
                           const QString &why, bool moneyCaptured) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
