#include "orderstate.h"

namespace OncePay {

QString orderStateName(OrderState state)
{
    switch (state) {
    case OrderState::PendingPayment: return QStringLiteral("pending_payment");
    case OrderState::Paying: return QStringLiteral("paying");
    case OrderState::PaidUnconfirmed: return QStringLiteral("paid_unconfirmed");
    case OrderState::Paid: return QStringLiteral("paid");
    case OrderState::PaymentFailed: return QStringLiteral("payment_failed");
    case OrderState::Cancelled: return QStringLiteral("cancelled");
    case OrderState::Refunded: return QStringLiteral("refunded");
    }
    return {};
}

std::optional<OrderState> parseOrderState(const QString &name)
{
    for (OrderState s :
         {OrderState::PendingPayment, OrderState::Paying, OrderState::PaidUnconfirmed,
          OrderState::Paid, OrderState::PaymentFailed, OrderState::Cancelled, OrderState::Refunded})
        if (orderStateName(s) == name)
            return s;
    return std::nullopt;
}

bool transitionAllowed(OrderState from, OrderState to)
{
    using S = OrderState;
    switch (from) {
    case S::PendingPayment: return to == S::Paying || to == S::Cancelled;
    case S::Paying: return to == S::PaidUnconfirmed || to == S::PaymentFailed;
    case S::PaidUnconfirmed: return to == S::Paid || to == S::PendingPayment;
    case S::PaymentFailed: return to == S::PendingPayment;
    case S::Paid: return to == S::Refunded;
    case S::Cancelled:
    case S::Refunded: return false;
    }
    return false;
}

bool isRollback(OrderState from, OrderState to)
{
    return to == OrderState::PendingPayment &&
           (from == OrderState::PaidUnconfirmed || from == OrderState::PaymentFailed);
}

QString causeKindName(CauseKind kind)
{
    switch (kind) {
    case CauseKind::Request: return QStringLiteral("request");
    case CauseKind::Callback: return QStringLiteral("callback");
    case CauseKind::Fix: return QStringLiteral("fix");
    case CauseKind::Timer: return QStringLiteral("timer");
    case CauseKind::System: return QStringLiteral("system");
    }
    return {};
}

} // namespace OncePay
