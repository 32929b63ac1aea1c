#include "callbackprocessor.h"

#include "core/money.h"
#include "db/sql.h"
#include "orders/orderrepository.h"
#include "orders/paymenteffects.h"
#include "orders/statemachine.h"

namespace OncePay {

namespace {

Decision decision(Decision::Kind kind, const QString &why, const QString &code = QString())
{
    Decision d;
    d.kind = kind;
    d.reason = why;
    d.code = code;
    return d;
}
Decision completed(const QString &why)
{
    return decision(Decision::Completed, why, QStringLiteral("applied"));
}
Decision skipped(const char *code, const QString &why)
{
    return decision(Decision::Skipped, why, QString::fromLatin1(code));
}
Decision retry(const QString &why)
{
    return decision(Decision::Retry, why);
}
Decision hold(const QString &why)
{
    return decision(Decision::Hold, QStringLiteral("held for a person: ") + why);
}

// The callback belongs to the order's current payment attempt. Channels that cannot carry
// our attempt id (none of ours today) fall back to "the attempt on this channel now paying".
bool isCurrentAttempt(const CallbackMessage &m, const Order &o)
{
    if (!m.attemptRef.isEmpty())
        return m.attemptRef == o.currentRequestId;
    return !o.currentRequestId.isEmpty() && o.channel == m.channel;
}

TransitionRequest transitionFor(const CallbackMessage &m, const Order &o, OrderState to,
                                const Actor &actor)
{
    TransitionRequest t;
    t.orderId = o.orderId;
    t.expectedVersion = o.version;
    t.from = o.state;
    t.to = to;
    t.cause = CauseKind::Callback;
    t.causeId = m.callbackId;
    t.callbackId = m.callbackId;
    t.actor = actor;
    return t;
}

} // namespace

Result<Decision> CallbackProcessor::process(const CallbackMessage &m, const Actor &actor) const
{
    if (m.kind == CallbackKind::Other)
        return skipped("not_actionable", QStringLiteral("not an event OncePay acts on"));
    if (m.kind == CallbackKind::PaymentPending)
        return skipped("informational",
                       QStringLiteral("informational: payment still pending at %1").arg(m.channel));
    QString orderRef = m.orderRef;
    if (orderRef.isEmpty() && m.kind == CallbackKind::Refunded && !m.channelTxnId.isEmpty()) {
        // A refund that names only the money (PayPal's refunds made in its dashboard): the
        // order that money was captured for.
        auto owner = refundedOrder(m);
        if (!owner)
            return owner.error();
        orderRef = *owner;
    }
    if (orderRef.isEmpty())
        return retry(QStringLiteral("callback names no order"));

    auto found = OrderRepository(m_c).find(orderRef, true);
    if (!found)
        return found.error();
    if (!*found)
        return retry(QStringLiteral("unknown order %1").arg(orderRef));
    const Order &order = **found;

    Result<Decision> d = skipped("not_actionable", QStringLiteral("not an event OncePay acts on"));
    switch (m.kind) {
    case CallbackKind::PaymentSucceeded: d = succeeded(m, order, actor); break;
    case CallbackKind::PaymentFailed: d = failed(m, order, actor); break;
    case CallbackKind::Refunded: d = refunded(m, order, actor); break;
    default: break;
    }
    if (d)
        d->orderId = order.orderId;
    return d;
}

Result<Decision> CallbackProcessor::stale(const CallbackMessage &m, const Order &o,
                                          const Actor &actor, const QString &why,
                                          bool moneyCaptured) const
{
    StateMachine machine(m_c, m_clock);
    TransitionRequest t =
        transitionFor(m, o,
                      m.kind == CallbackKind::PaymentFailed ? OrderState::PaymentFailed
                                                            : OrderState::PaidUnconfirmed,
                      actor);
    t.expectedVersion = -1; // the callback carried no version; the attempt decides
    if (auto r = machine.insertRejection(t, why); !r)
        return r.error();
    if (moneyCaptured && m.hasAmount) {
        auto f = PaymentEffects(m_c, m_clock)
                     .flagRefund(o.orderId, m.channel, m.channelTxnId, m.amountMinor, m.currency,
                                 m.callbackId, why, actor);
        if (!f)
            return f.error();
        if (!*f)
            return skipped(
                "stale",
                QStringLiteral("stale: %1; captured money already flagged for refund").arg(why));
        return skipped("stale",
                       QStringLiteral("stale: %1; captured money flagged for refund").arg(why));
    }
    return skipped("stale", QStringLiteral("stale: %1").arg(why));
}

Result<Decision> CallbackProcessor::succeeded(const CallbackMessage &m, const Order &o,
                                              const Actor &actor) const
{
    PaymentEffects effects(m_c, m_clock);
    if (m.channelTxnId.isEmpty() || !m.hasAmount)
        return retry(QStringLiteral("success without transaction id or amount"));
    auto known = effects.captureKnown(m.channel, m.channelTxnId);
    if (!known)
        return known.error();
    if (*known)
        return skipped(
            "already_applied",
            QStringLiteral("already applied: capture %1 is recorded").arg(m.channelTxnId));

    if (!isCurrentAttempt(m, o))
        return stale(
            m, o, actor,
            QStringLiteral("attempt %1 is not the current attempt of order %2 (v%3, %4)")
                .arg(m.attemptRef.isEmpty() ? QStringLiteral("?") : m.attemptRef, o.orderId)
                .arg(o.version)
                .arg(orderStateName(o.state)),
            true);
    if (o.state != OrderState::Paying)
        return stale(m, o, actor,
                     QStringLiteral("success for attempt %1 while order %2 is %3 at v%4")
                         .arg(m.attemptRef, o.orderId, orderStateName(o.state))
                         .arg(o.version),
                     true);

    CapturedPayment payment{m.channel,    m.channelTxnId, m.attemptRef,
                            m.callbackId, m.amountMinor,  m.currency};
    if (auto r = effects.recordCapture(o, payment); !r)
        return r.error();

    QString mismatch;
    if (m.currency != o.currency)
        mismatch =
            QStringLiteral("currency %1 differs from the order's %2").arg(m.currency, o.currency);
    else if (m.amountMinor != o.amountMinor)
        mismatch = QStringLiteral("amount %1 differs from the order's %2")
                       .arg(Currency::format(m.amountMinor, m.currency),
                            Currency::format(o.amountMinor, o.currency));

    StateMachine machine(m_c, m_clock);
    TransitionRequest toUnconfirmed = transitionFor(m, o, OrderState::PaidUnconfirmed, actor);
    toUnconfirmed.channelTxnId = m.channelTxnId;
    toUnconfirmed.reason = QStringLiteral("%1 reports success").arg(m.channel);
    toUnconfirmed.stateReason =
        mismatch.isEmpty() ? QString() : QStringLiteral("confirmation refused: ") + mismatch;
    auto v1 = machine.apply(toUnconfirmed);
    if (!v1)
        return v1.error();
    if (!mismatch.isEmpty())
        return completed(QStringLiteral("paid_unconfirmed at v%1: %2; waiting for a person")
                             .arg(*v1)
                             .arg(mismatch));

    Order unconfirmed = o;
    unconfirmed.state = OrderState::PaidUnconfirmed;
    unconfirmed.version = *v1;
    unconfirmed.channelTxnId = m.channelTxnId;
    TransitionRequest toPaid = transitionFor(m, unconfirmed, OrderState::Paid, actor);
    toPaid.reason = QStringLiteral("amount and currency confirmed");
    toPaid.paidAt = m_clock.nowMs();
    auto v2 = machine.apply(toPaid);
    if (!v2)
        return v2.error();
    if (auto b = effects.bookPaid(unconfirmed, payment, actor); !b)
        return b.error();
    return completed(QStringLiteral("paid at v%1").arg(*v2));
}

Result<Decision> CallbackProcessor::failed(const CallbackMessage &m, const Order &o,
                                           const Actor &actor) const
{
    if (!isCurrentAttempt(m, o))
        return stale(
            m, o, actor,
            QStringLiteral(
                "failure of attempt %1, which is not the current attempt of order %2 (v%3)")
                .arg(m.attemptRef.isEmpty() ? QStringLiteral("?") : m.attemptRef, o.orderId)
                .arg(o.version),
            false);
    switch (o.state) {
    case OrderState::Paying: {
        TransitionRequest t = transitionFor(m, o, OrderState::PaymentFailed, actor);
        t.reason = QStringLiteral("%1 reports failure").arg(m.channel);
        t.stateReason = m.channelEventType;
        auto v = StateMachine(m_c, m_clock).apply(t);
        if (!v)
            return v.error();
        return completed(QStringLiteral("payment_failed at v%1").arg(*v));
    }
    case OrderState::PaymentFailed:
        return skipped("already_applied",
                       QStringLiteral("already applied: attempt already failed"));
    default:
        // A failure after a success (out of order): the success stands.
        return skipped("failure_after_success",
                       QStringLiteral("failure after success ignored: order %1 is %2 at v%3")
                           .arg(o.orderId, orderStateName(o.state))
                           .arg(o.version));
    }
}

Result<QString> CallbackProcessor::refundedOrder(const CallbackMessage &m) const
{
    auto payment = PaymentEffects(m_c, m_clock).paymentOf(m.channel, m.channelTxnId);
    if (!payment)
        return payment.error();
    if (*payment)
        return (*payment)->orderId;
    auto flagged = Sql::scalar(
        m_c.db(),
        QStringLiteral("SELECT MIN(order_id) FROM refund_obligations WHERE channel = ? AND"
                       " channel_txn_id = ?"),
        {m.channel, m.channelTxnId});
    if (!flagged)
        return flagged.error();
    return flagged->isNull() ? QString() : flagged->toString();
}

Result<int> CallbackProcessor::resolveObligations(const CallbackMessage &m) const
{
    return Sql::update(
        m_c.db(),
        QStringLiteral("UPDATE refund_obligations SET resolved_at = ? WHERE"
                       " channel = ? AND channel_txn_id = ? AND resolved_at IS NULL"),
        {m_clock.nowMs(), m.channel, m.channelTxnId});
}

Result<Decision> CallbackProcessor::refunded(const CallbackMessage &m, const Order &o,
                                             const Actor &actor) const
{
    PaymentEffects effects(m_c, m_clock);
    auto payment = effects.paymentOf(m.channel, m.channelTxnId);
    if (!payment)
        return payment.error();
    if (!*payment) {
        // Money of a superseded attempt has no payments row, only its refund obligation: this
        // refund meets it.
        auto flagged = Sql::scalar(m_c.db(),
                                   QStringLiteral("SELECT COUNT(*) FROM refund_obligations WHERE"
                                                  " channel = ? AND channel_txn_id = ?"),
                                   {m.channel, m.channelTxnId});
        if (!flagged)
            return flagged.error();
        auto r = flagged->toInt() > 0 ? resolveObligations(m) : Result<int>(0);
        if (!r)
            return r.error();
        if (flagged->toInt() > 0)
            return skipped(
                "superseded_refund",
                QStringLiteral(
                    "refund of %1, not the order's current payment; %2 refund flag(s) resolved")
                    .arg(m.channelTxnId)
                    .arg(*r));
        return retry(QStringLiteral("refund of %1 arrived before its capture").arg(m.channelTxnId));
    }

    // The payments row decides: the refund is of the order's current payment when that row
    // belongs to the order and is the transaction the order was paid with.
    const RecordedPayment &p = **payment;
    const bool ofCurrentPayment = p.orderId == o.orderId && p.channelTxnId == o.channelTxnId;
    if (!ofCurrentPayment) {
        // The refund of money that was flagged (superseded attempt): the obligation is met.
        auto r = resolveObligations(m);
        if (!r)
            return r.error();
        return skipped(
            "superseded_refund",
            QStringLiteral(
                "refund of %1, not the order's current payment; %2 refund flag(s) resolved")
                .arg(m.channelTxnId)
                .arg(*r));
    }
    if (o.state == OrderState::PaidUnconfirmed)
        return refundedUnconfirmed(m, o, p, actor);
    if (o.state != OrderState::Paid && o.state != OrderState::Refunded)
        return retry(QStringLiteral("refund while order %1 is %2; waiting for it to be paid")
                         .arg(o.orderId, orderStateName(o.state)));
    return bookRefund(m, o, p, actor);
}

Result<Decision> CallbackProcessor::refundedUnconfirmed(const CallbackMessage &m, const Order &o,
                                                        const RecordedPayment &p,
                                                        const Actor &actor) const
{
    // Nothing was credited yet (that waits for the confirmation): the money going back is the
    // end of this attempt, not a debit. Only the whole capture; anything else needs a person.
    const QString currency = m.hasAmount ? m.currency : p.currency;
    const qint64 amount = m.hasAmount ? m.amountMinor : p.amountMinor;
    if (currency != p.currency || amount != p.amountMinor || p.status != u"captured")
        return hold(QStringLiteral("refund of %1 of payment %2 (%3 captured) while order %4 is "
                                   "paid_unconfirmed; not booked")
                        .arg(Currency::format(amount, currency), p.channelTxnId,
                             Currency::format(p.amountMinor, p.currency), o.orderId));
    if (auto r = PaymentEffects(m_c, m_clock).markRefunded(o, p, m.callbackId, actor); !r)
        return r.error();
    TransitionRequest t = transitionFor(m, o, OrderState::PendingPayment, actor);
    t.reason = QStringLiteral("%1 reports refund").arg(m.channel);
    t.currentRequestId = QString(); // the attempt is over; a new one may start
    t.channelTxnId = QString();
    t.stateReason = QStringLiteral("%1 refunded %2 before the payment was confirmed")
                        .arg(m.channel, Currency::format(p.amountMinor, p.currency));
    auto v = StateMachine(m_c, m_clock).apply(t);
    if (!v)
        return v.error();
    return completed(
        QStringLiteral("refunded before confirmation: order %1 back to pending_payment at v%2")
            .arg(o.orderId)
            .arg(*v));
}

Result<Decision> CallbackProcessor::bookRefund(const CallbackMessage &m, const Order &o,
                                               const RecordedPayment &p, const Actor &actor) const
{
    PaymentEffects effects(m_c, m_clock);
    const QString currency = m.hasAmount ? m.currency : p.currency;
    if (currency != p.currency)
        return hold(
            QStringLiteral("refund of %1 in %2, but payment %3 was captured in %4; not booked")
                .arg(Currency::format(m.amountMinor, currency), currency, p.channelTxnId,
                     p.currency));
    auto before = effects.refundedTotal(p.channel, p.channelTxnId);
    if (!before)
        return before.error();

    // One ledger entry per refund. A channel that reports the running total (Stripe's
    // charge.refunded) gets one per total: the difference to what is booked is the refund.
    qint64 amount = 0;
    const QString refundId = m.refundId.isEmpty() ? p.channelTxnId : m.refundId;
    const QString key = QStringLiteral("refund:%1:%2").arg(p.channel, refundId);
    if (isCumulativeRefundId(m.refundId)) {
        if (m.amountMinor <= *before)
            return skipped("already_applied",
                           QStringLiteral("already applied: %1 of payment %2 is refunded; this "
                                          "report's total is %3")
                               .arg(Currency::format(*before, p.currency), p.channelTxnId,
                                    Currency::format(m.amountMinor, p.currency)));
        amount = m.amountMinor - *before;
    } else {
        auto seen = effects.ledgerEntryKnown(key);
        if (!seen)
            return seen.error();
        if (*seen)
            return skipped("already_applied",
                           QStringLiteral("already applied: refund %1 is booked").arg(refundId));
        amount = m.hasAmount ? m.amountMinor : p.amountMinor - *before;
        if (amount <= 0)
            return skipped("nothing_to_book",
                           QStringLiteral("refund of %1 of payment %2: nothing to book")
                               .arg(Currency::format(amount, p.currency), p.channelTxnId));
    }
    const auto total = Currency::checkedAdd(*before, amount);
    if (!total || *total > p.amountMinor)
        return hold(QStringLiteral("refund of %1 would bring payment %2's refunds to %3, more than "
                                   "the %4 captured; not booked")
                        .arg(Currency::format(amount, p.currency), p.channelTxnId,
                             total ? Currency::format(*total, p.currency) : QStringLiteral("?"),
                             Currency::format(p.amountMinor, p.currency)));

    if (auto b = effects.bookRefund(o, p, key, amount, *total, m.callbackId, actor); !b)
        return b.error();
    if (*total < p.amountMinor || o.state == OrderState::Refunded)
        return completed(
            QStringLiteral("partial refund of %1 booked; %2 of %3 refunded, order %4 stays %5")
                .arg(Currency::format(amount, p.currency), Currency::format(*total, p.currency),
                     Currency::format(p.amountMinor, p.currency), o.orderId,
                     orderStateName(o.state)));

    TransitionRequest t = transitionFor(m, o, OrderState::Refunded, actor);
    t.reason = QStringLiteral("%1 reports refund").arg(m.channel);
    auto v = StateMachine(m_c, m_clock).apply(t);
    if (!v)
        return v.error();
    return completed(QStringLiteral("refunded at v%1: %2 of %3 refunded")
                         .arg(*v)
                         .arg(Currency::format(*total, p.currency),
                              Currency::format(p.amountMinor, p.currency)));
}

} // namespace OncePay
