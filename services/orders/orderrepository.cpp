#include "orderrepository.h"

#include "db/sql.h"

namespace OncePay {

Result<std::optional<Order>> OrderRepository::find(const QString &orderId, bool lock) const
{
    QString sql = QStringLiteral(
        "SELECT order_id, customer_ref, amount_minor, currency, state, version, current_request_id,"
        " channel, channel_txn_id, state_reason, paid_at, created_at, updated_at"
        " FROM orders WHERE order_id = ?");
    if (lock && m_c.dialect() != Dialect::Sqlite)
        sql += QStringLiteral(" FOR UPDATE");
    auto q = m_c.queryKept(sql, {orderId});
    if (!q)
        return q.error();
    if (!q->next())
        return std::optional<Order>();
    Order o;
    o.orderId = q->value(0).toString();
    o.customerRef = q->value(1).toString();
    o.amountMinor = q->value(2).toLongLong();
    o.currency = q->value(3).toString();
    const auto state = parseOrderState(q->value(4).toString());
    if (!state)
        return makeError(
            ErrorCode::Corrupt,
            QStringLiteral("order %1 has unknown state '%2'").arg(orderId, q->value(4).toString()));
    o.state = *state;
    o.version = q->value(5).toLongLong();
    o.currentRequestId = q->value(6).toString();
    o.channel = q->value(7).toString();
    o.channelTxnId = q->value(8).toString();
    o.stateReason = q->value(9).toString();
    o.paidAt = q->value(10).toLongLong();
    o.createdAt = q->value(11).toLongLong();
    o.updatedAt = q->value(12).toLongLong();
    return std::optional<Order>(o);
}

Result<QList<OrderTransition>> OrderRepository::transitions(const QString &orderId) const
{
    auto q = m_c.queryKept(
        QStringLiteral("SELECT id, order_id, from_state, to_state, new_version, cause_kind,"
                       " cause_id, actor, reason, created_at FROM order_transitions"
                       " WHERE order_id = ? ORDER BY new_version"),
        {orderId});
    if (!q)
        return q.error();
    QList<OrderTransition> out;
    while (q->next()) {
        OrderTransition t;
        t.id = q->value(0).toLongLong();
        t.orderId = q->value(1).toString();
        t.fromState = q->value(2).toString();
        t.toState = q->value(3).toString();
        t.newVersion = q->value(4).toLongLong();
        t.causeKind = q->value(5).toString();
        t.causeId = q->value(6).toString();
        t.actor = q->value(7).toString();
        t.reason = q->value(8).toString();
        t.createdAt = q->value(9).toLongLong();
        out << t;
    }
    return out;
}

Result<QList<TransitionRejection>> OrderRepository::rejections(const QString &orderId) const
{
    auto q = m_c.queryKept(
        QStringLiteral("SELECT id, order_id, expected_version, actual_version, actual_state,"
                       " requested_to, cause_kind, cause_id, actor, reason, created_at"
                       " FROM transition_rejections WHERE order_id = ? ORDER BY id"),
        {orderId});
    if (!q)
        return q.error();
    QList<TransitionRejection> out;
    while (q->next()) {
        TransitionRejection r;
        r.id = q->value(0).toLongLong();
        r.orderId = q->value(1).toString();
        r.expectedVersion = q->value(2).isNull() ? -1 : q->value(2).toLongLong();
        r.actualVersion = q->value(3).isNull() ? -1 : q->value(3).toLongLong();
        r.actualState = q->value(4).toString();
        r.requestedTo = q->value(5).toString();
        r.causeKind = q->value(6).toString();
        r.causeId = q->value(7).toString();
        r.actor = q->value(8).toString();
        r.reason = q->value(9).toString();
        r.createdAt = q->value(10).toLongLong();
        out << r;
    }
    return out;
}

} // namespace OncePay
