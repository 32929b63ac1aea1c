#pragma once

// The platform's side of an order: create it, start a payment attempt (pending_payment →
// paying, as checkout does before sending the customer to the channel), roll it back,
// cancel it, confirm a paid_unconfirmed payment, and read it with its history.
// Requests that carry a request id go through the idempotency records first.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "order.h"
#include "paymenteffects.h"
#include "statemachine.h"

namespace OncePay {

struct NewOrder {
    QString orderId;     // empty: one is generated
    QString customerRef; // a reference, never a name or an e-mail address
    qint64 amountMinor = 0;
    QString currency;
};

struct AttemptResult {
    Order order;
    bool replayed = false; // the request id had already succeeded; nothing was done again
};

struct OrderHistory {
    Order order;
    QList<OrderTransition> transitions;
    QList<TransitionRejection> rejections;
};

class OrderService {
public:
    OrderService(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    Result<Order> create(const NewOrder &order, const Actor &actor) const;

    // pending_payment → paying for attempt `requestId` on `channel`. A retry of the same
    // request id returns the recorded outcome; the same id with another payload is refused.
    // A channel OncePay does not have (names are exact: "stripe", not "Stripe") is refused
    // (Invalid, "unknown_channel") before anything is written.
    Result<AttemptResult> startPayment(const QString &orderId, const QString &channel,
                                       qint64 expectedVersion, const QString &requestId,
                                       const Actor &actor) const;

    // payment_failed → pending_payment, or paid_unconfirmed → pending_payment (captured money
    // is flagged for refund). The version goes up; the attempt is superseded.
    Result<Order> rollback(const QString &orderId, qint64 expectedVersion, CauseKind cause,
                           const QString &causeId, const Actor &actor, const QString &reason) const;

    // pending_payment → cancelled.
    Result<Order> cancel(const QString &orderId, qint64 expectedVersion, CauseKind cause,
                         const QString &causeId, const Actor &actor, const QString &reason) const;

    // paid_unconfirmed → paid by a person (an approved fix): books credit, purchase and
    // logistics order exactly as the worker does. Refused (Conflict, "payment_refunded") when
    // the payment was refunded or a refund of it is reported and not processed.
    Result<Order> confirm(const QString &orderId, qint64 expectedVersion, const QString &causeId,
                          const Actor &actor, const QString &reason) const;

    // The transition, its state reason and its money effects (refund flag on a rollback after
    // capture; credit, purchase and logistics order on a confirmation) inside the CALLER's open
    // transaction — for an approved fix, which commits the transition with the fix's own status
    // and audit rows. Errors leave the transaction to be rolled back by the caller; `t.from`
    // is filled so the caller can record the refusal afterwards.
    Result<Order> transitionInTransaction(TransitionRequest &t) const;

    // Why order `o` may not be confirmed now: no captured payment ("no_payment"), or its payment
    // refunded or a refund of it reported and not processed ("payment_refunded"); nothing when
    // it may. The confirmation checks it, and so does a proposal to confirm (FixTargets), so a
    // reviewer is not asked to approve what the confirmation would refuse.
    Result<void> confirmable(const Order &o) const;
    static TransitionRequest request(const QString &orderId, qint64 expectedVersion, OrderState to,
                                     CauseKind cause, const QString &causeId, const Actor &actor,
                                     const QString &reason);

    Result<Order> get(const QString &orderId) const;
    Result<OrderHistory> history(const QString &orderId) const;

private:
    // Why a captured payment may not be confirmed: refunded, or a refund of it reported and
    // not processed (waiting, retried or dead-lettered); empty when none.
    Result<QString> refundReported(const CapturedPayment &payment) const;
    // confirmable() on the payment the caller has read already (transitionInTransaction).
    Result<void> confirmable(const Order &o, const std::optional<CapturedPayment> &captured) const;
    Result<Order> simpleTransition(const QString &orderId, qint64 expectedVersion, OrderState to,
                                   CauseKind cause, const QString &causeId, const Actor &actor,
                                   const QString &reason) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
