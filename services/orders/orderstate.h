#pragma once

// The order state machine of DESIGN.md §2 — every state, and the only transitions that exist.
// Thread contract: pure functions.

#include <QString>

#include <optional>

namespace OncePay {

enum class OrderState {
    PendingPayment,
    Paying,
    PaidUnconfirmed,
    Paid,
    PaymentFailed,
    Cancelled,
    Refunded,
};

QString orderStateName(OrderState state); // "pending_payment", ...
std::optional<OrderState> parseOrderState(const QString &name);

// True only for the eight transitions of DESIGN.md §2.
bool transitionAllowed(OrderState from, OrderState to);

// paid_unconfirmed → pending_payment and payment_failed → pending_payment.
bool isRollback(OrderState from, OrderState to);

enum class CauseKind { Request, Callback, Fix, Timer, System };
QString causeKindName(CauseKind kind);

} // namespace OncePay
