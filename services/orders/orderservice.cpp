#include "orderservice.h"

#include "audit/auditoutbox.h"
#include "channels/channelregistry.h"
#include "core/money.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "idempotencystore.h"
#include "orderrepository.h"
#include "paymenteffects.h"
#include "statemachine.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUuid>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

Error notFound(const QString &orderId)
{
    return makeError(ErrorCode::NotFound, QStringLiteral("order %1 does not exist").arg(orderId),
                     QStringLiteral("unknown_order"));
}

bool validId(const QString &id)
{
    static const QRegularExpression re(QStringLiteral(R"(^[A-Za-z0-9_.:\-]{1,64}$)"));
    return re.match(id).hasMatch();
}

} // namespace

Result<Order> OrderService::create(const NewOrder &n, const Actor &actor) const
{
    Order o;
    o.orderId = n.orderId.isEmpty()
                    ? QStringLiteral("ord_") + QUuid::createUuid().toString(QUuid::Id128).left(20)
                    : n.orderId;
    if (!validId(o.orderId))
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("order id '%1' must be 1–64 letters, digits or _.:-").arg(o.orderId),
            QStringLiteral("bad_order_id"));
    if (n.customerRef.trimmed().isEmpty() || n.customerRef.size() > 128)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("customer reference must be 1–128 characters"),
                         QStringLiteral("bad_customer"));
    if (!Currency::isKnown(n.currency))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("unknown currency '%1'").arg(n.currency),
                         QStringLiteral("unknown_currency"));
    if (n.amountMinor <= 0)
        return makeError(ErrorCode::Invalid, QStringLiteral("amount must be positive"),
                         QStringLiteral("bad_amount"));
    o.customerRef = n.customerRef;
    o.amountMinor = n.amountMinor;
    o.currency = n.currency;
    o.state = OrderState::PendingPayment;
    o.version = 1;
    o.createdAt = o.updatedAt = m_clock.nowMs();

    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<Order> {
        auto ins = Sql::exec(
            m_c.db(),
            QStringLiteral(
                "INSERT INTO orders (order_id, customer_ref, amount_minor, currency,"
                " state, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)"),
            {o.orderId, o.customerRef, o.amountMinor, o.currency, orderStateName(o.state),
             o.createdAt, o.updatedAt});
        if (!ins) {
            if (ins.error().code == ErrorCode::Conflict)
                return makeError(ErrorCode::Conflict,
                                 QStringLiteral("order %1 already exists").arg(o.orderId),
                                 QStringLiteral("duplicate_order"));
            return ins.error();
        }
        AuditEvent e;
        e.actor = actor.id;
        e.actorRole = actor.role;
        e.action = QStringLiteral("order.created");
        e.entityKind = QStringLiteral("order");
        e.entityId = e.orderId = o.orderId;
        e.after = {{QStringLiteral("state"), orderStateName(o.state)},
                   {QStringLiteral("version"), 1},
                   {QStringLiteral("amount_minor"), QString::number(o.amountMinor)},
                   {QStringLiteral("currency"), o.currency},
                   {QStringLiteral("customer_ref"), o.customerRef}};
        if (auto a = AuditOutbox::record(m_c.db(), e, m_clock); !a)
            return a.error();
        return o;
    });
}

Result<AttemptResult> OrderService::startPayment(const QString &orderId, const QString &channel,
                                                 qint64 expectedVersion, const QString &requestId,
                                                 const Actor &actor) const
{
    // Only a channel OncePay has, by its exact name: the callbacks and refunds of a payment
    // started under any other name would never be matched with it.
    static const QStringList known = ChannelRegistry(AppConfig()).names();
    if (!known.contains(channel))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("unknown channel '%1'; OncePay's channels are: %2")
                             .arg(channel.left(40), known.join(QStringLiteral(", "))),
                         QStringLiteral("unknown_channel"));
    IdempotencyStore store(m_c, m_clock);
    IdempotencyRecord wanted;
    wanted.requestId = requestId;
    wanted.orderId = orderId;
    wanted.expectedVersion = expectedVersion;
    wanted.operation = QStringLiteral("pay");
    wanted.payloadDigest = IdempotencyStore::digest(
        {wanted.operation, orderId, channel, QString::number(expectedVersion)});
    bool fresh = false;
    auto record = store.begin(wanted, &fresh);
    if (!record)
        return record.error();
    if (!fresh && record->status == IdempotencyStatus::Succeeded) {
        auto o = get(orderId);
        if (!o)
            return o.error();
        return AttemptResult{*o, true};
    }
    if (!fresh && record->status == IdempotencyStatus::Failed)
        return makeError(ErrorCode::Stale, record->outcome, QStringLiteral("recorded_failure"));
    // Fresh, or pending from a run that crashed or lost its database: (re)do the work. The
    // version check makes a second execution harmless.

    TransitionRequest t;
    t.orderId = orderId;
    t.expectedVersion = expectedVersion;
    t.from = OrderState::PendingPayment;
    t.to = OrderState::Paying;
    t.cause = CauseKind::Request;
    t.causeId = requestId;
    t.actor = actor;
    t.reason = QStringLiteral("payment attempt on %1").arg(channel);
    t.currentRequestId = requestId;
    t.channel = channel;
    t.channelTxnId = QString();
    t.stateReason = QString();

    OrderRepository orders(m_c);
    StateMachine machine(m_c, m_clock);
    bool alreadyDone = false;
    auto applied = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<Order> {
        auto found = orders.find(orderId, true);
        if (!found)
            return found.error();
        if (!*found)
            return notFound(orderId);
        Order o = **found;
        if (o.state == OrderState::Paying && o.currentRequestId == requestId) {
            alreadyDone = true; // the crashed run had committed
        } else {
            t.from = o.version == expectedVersion ? o.state : OrderState::PendingPayment;
            auto v = machine.apply(t);
            if (!v)
                return v.error();
            o.version = *v;
            o.state = OrderState::Paying;
            o.currentRequestId = requestId;
            o.channel = channel;
        }
        const QString outcome = QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("version"), o.version},
                                      {QStringLiteral("state"), orderStateName(o.state)}})
                .toJson(QJsonDocument::Compact));
        if (auto f = store.finish(requestId, IdempotencyStatus::Succeeded, outcome); !f)
            return f.error();
        return o;
    });
    if (applied)
        return AttemptResult{*applied, alreadyDone};

    const Error err = applied.error();
    if (err.code == ErrorCode::Stale || err.code == ErrorCode::Conflict ||
        err.code == ErrorCode::NotFound) {
        // A definite refusal: recorded, so a retry of this request id gets the same answer.
        (void)store.finish(requestId, IdempotencyStatus::Failed, err.message);
        if (err.code != ErrorCode::NotFound)
            (void)machine.recordRejection(t, err.message);
    }
    // Unavailable/Internal: the record stays pending; a retry redoes the work.
    return err;
}

TransitionRequest OrderService::request(const QString &orderId, qint64 expectedVersion,
                                        OrderState to, CauseKind cause, const QString &causeId,
                                        const Actor &actor, const QString &reason)
{
    TransitionRequest t;
    t.orderId = orderId;
    t.expectedVersion = expectedVersion;
    t.to = to;
    t.cause = cause;
    t.causeId = causeId;
    t.actor = actor;
    t.reason = reason;
    return t;
}

Result<Order> OrderService::transitionInTransaction(TransitionRequest &t) const
{
    OrderRepository orders(m_c);
    StateMachine machine(m_c, m_clock);
    PaymentEffects effects(m_c, m_clock);
    const QString &orderId = t.orderId;
    const qint64 expectedVersion = t.expectedVersion;
    const OrderState to = t.to;
    const Actor &actor = t.actor;
    const QString reason = t.reason;
    auto found = orders.find(orderId, true);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(orderId);
    Order o = **found;
    t.from = o.state;
    if (o.version != expectedVersion)
        return makeError(ErrorCode::Stale,
                         QStringLiteral("order %1 is at version %2, not %3")
                             .arg(orderId)
                             .arg(o.version)
                             .arg(expectedVersion),
                         QStringLiteral("stale_version"));
    std::optional<CapturedPayment> captured;
    if (to == OrderState::PendingPayment || to == OrderState::Paid) {
        auto c = effects.captureFor(o);
        if (!c)
            return c.error();
        captured = *c;
    }
    if (to == OrderState::PendingPayment) {
        // The attempt is superseded: its late callbacks will be rejected as stale.
        t.currentRequestId = QString();
        t.channelTxnId = QString();
        t.stateReason = reason;
    }
    if (to == OrderState::Paid) {
        if (auto ok = confirmable(o, captured); !ok)
            return ok.error();
        t.paidAt = m_clock.nowMs();
        t.stateReason = QString();
    }
    auto v = machine.apply(t);
    if (!v)
        return v.error();
    if (to == OrderState::PendingPayment && captured && o.state == OrderState::PaidUnconfirmed) {
        if (auto f = effects.flagRefund(
                orderId, captured->channel, captured->channelTxnId, captured->amountMinor,
                captured->currency, QStringLiteral("rollback:%1:v%2").arg(orderId).arg(*v),
                QStringLiteral("rolled back after capture: %1").arg(reason), actor);
            !f)
            return f.error();
    }
    if (to == OrderState::Paid) {
        if (auto b = effects.bookPaid(o, *captured, actor); !b)
            return b.error();
    }
    auto after = orders.find(orderId);
    if (!after)
        return after.error();
    return **after;
}

Result<void> OrderService::confirmable(const Order &o) const
{
    auto captured = PaymentEffects(m_c, m_clock).captureFor(o);
    if (!captured)
        return captured.error();
    return confirmable(o, *captured);
}

Result<void> OrderService::confirmable(const Order &o,
                                       const std::optional<CapturedPayment> &captured) const
{
    if (!captured)
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("order %1 has no captured payment to confirm").arg(o.orderId),
            QStringLiteral("no_payment"));
    // Money the channel has returned, or reported returning, is not confirmed.
    auto refund = refundReported(*captured);
    if (!refund)
        return refund.error();
    if (!refund->isEmpty())
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("order %1 cannot be confirmed: %2").arg(o.orderId, *refund),
                         QStringLiteral("payment_refunded"));
    return {};
}

Result<QString> OrderService::refundReported(const CapturedPayment &p) const
{
    auto payment = PaymentEffects(m_c, m_clock).paymentOf(p.channel, p.channelTxnId);
    if (!payment)
        return payment.error();
    if (*payment && (*payment)->status != u"captured")
        return QStringLiteral("payment %1 was refunded by %2").arg(p.channelTxnId, p.channel);
    auto waiting = Sql::scalar(
        m_c.db(),
        QStringLiteral("SELECT MIN(callback_id) FROM callback_messages WHERE channel = ? AND"
                       " channel_txn_id = ? AND event_kind = 'refunded' AND status IN ('pending',"
                       " 'processing', 'failed', 'dead')"),
        {p.channel, p.channelTxnId});
    if (!waiting)
        return waiting.error();
    if (!waiting->isNull())
        return QStringLiteral("%1 reported a refund of payment %2 (callback %3) not yet processed")
            .arg(p.channel, p.channelTxnId, waiting->toString());
    return QString();
}

Result<Order> OrderService::simpleTransition(const QString &orderId, qint64 expectedVersion,
                                             OrderState to, CauseKind cause, const QString &causeId,
                                             const Actor &actor, const QString &reason) const
{
    TransitionRequest t = request(orderId, expectedVersion, to, cause, causeId, actor, reason);
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate,
                              [&]() -> Result<Order> { return transitionInTransaction(t); });
    if (!done &&
        (done.error().code == ErrorCode::Stale || done.error().code == ErrorCode::Conflict))
        (void)StateMachine(m_c, m_clock).recordRejection(t, done.error().message);
    return done;
}

Result<Order> OrderService::rollback(const QString &orderId, qint64 expectedVersion,
                                     CauseKind cause, const QString &causeId, const Actor &actor,
                                     const QString &reason) const
{
    return simpleTransition(orderId, expectedVersion, OrderState::PendingPayment, cause, causeId,
                            actor, reason);
}

Result<Order> OrderService::cancel(const QString &orderId, qint64 expectedVersion, CauseKind cause,
                                   const QString &causeId, const Actor &actor,
                                   const QString &reason) const
{
    return simpleTransition(orderId, expectedVersion, OrderState::Cancelled, cause, causeId, actor,
                            reason);
}

Result<Order> OrderService::confirm(const QString &orderId, qint64 expectedVersion,
                                    const QString &causeId, const Actor &actor,
                                    const QString &reason) const
{
    return simpleTransition(orderId, expectedVersion, OrderState::Paid, CauseKind::Fix, causeId,
                            actor, reason);
}

Result<Order> OrderService::get(const QString &orderId) const
{
    auto found = OrderRepository(m_c).find(orderId);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(orderId);
    return **found;
}

Result<OrderHistory> OrderService::history(const QString &orderId) const
{
    OrderRepository repo(m_c);
    auto o = get(orderId);
    if (!o)
        return o.error();
    auto t = repo.transitions(orderId);
    if (!t)
        return t.error();
    auto r = repo.rejections(orderId);
    if (!r)
        return r.error();
    return OrderHistory{*o, *t, *r};
}

} // namespace OncePay
