#include "statemachine.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "orderrepository.h"

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

QVariant nullable(const QString &s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

} // namespace

Result<qint64> StateMachine::apply(const TransitionRequest &r) const
{
    if (!transitionAllowed(r.from, r.to))
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("order %1: %2 → %3 is not a transition of the state machine")
                .arg(r.orderId, orderStateName(r.from), orderStateName(r.to)),
            QStringLiteral("not_allowed"));

    const qint64 now = m_clock.nowMs();
    QString sql =
        QStringLiteral("UPDATE orders SET state = ?, version = version + 1, updated_at = ?");
    QVariantList binds{orderStateName(r.to), now};
    auto set = [&](const char *column, const QVariant &value) {
        sql += QStringLiteral(", %1 = ?").arg(QLatin1String(column));
        binds << value;
    };
    if (r.currentRequestId)
        set("current_request_id", nullable(*r.currentRequestId));
    if (r.channel)
        set("channel", nullable(*r.channel));
    if (r.channelTxnId)
        set("channel_txn_id", nullable(*r.channelTxnId));
    if (r.stateReason)
        set("state_reason", nullable(*r.stateReason));
    if (r.paidAt)
        set("paid_at", *r.paidAt > 0 ? QVariant(*r.paidAt) : QVariant());
    sql += QStringLiteral(" WHERE order_id = ? AND version = ? AND state = ?");
    binds << r.orderId << r.expectedVersion << orderStateName(r.from);

    auto updated = m_c.execKept(sql, binds);
    if (!updated)
        return updated.error();
    if (*updated != 1)
        return makeError(ErrorCode::Stale,
                         QStringLiteral("order %1 is no longer at version %2 in state %3")
                             .arg(r.orderId)
                             .arg(r.expectedVersion)
                             .arg(orderStateName(r.from)),
                         QStringLiteral("stale_version"));

    const qint64 newVersion = r.expectedVersion + 1;
    auto t = m_c.execKept(
        QStringLiteral("INSERT INTO order_transitions (order_id, from_state, to_state,"
                       " new_version, cause_kind, cause_id, actor, reason, created_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {r.orderId, orderStateName(r.from), orderStateName(r.to), newVersion,
         causeKindName(r.cause), nullable(r.causeId), r.actor.id, nullable(r.reason), now});
    if (!t)
        return t.error();

    AuditEvent e;
    e.actor = r.actor.id;
    e.actorRole = r.actor.role;
    e.action = isRollback(r.from, r.to) ? QStringLiteral("order.rollback")
                                        : QStringLiteral("order.transition");
    e.entityKind = QStringLiteral("order");
    e.entityId = r.orderId;
    e.orderId = r.orderId;
    e.callbackId = r.callbackId;
    e.before = {{QStringLiteral("state"), orderStateName(r.from)},
                {QStringLiteral("version"), r.expectedVersion}};
    e.after = {{QStringLiteral("state"), orderStateName(r.to)},
               {QStringLiteral("version"), newVersion},
               {QStringLiteral("cause"), causeKindName(r.cause)},
               {QStringLiteral("cause_id"), r.causeId}};
    e.reason = r.reason;
    if (auto a = AuditOutbox::record(m_c, e, m_clock); !a)
        return a.error();
    return newVersion;
}

Result<void> StateMachine::recordRejection(const TransitionRequest &r, const QString &why) const
{
    return inTransaction(m_c.db(), Transaction::Mode::Immediate,
                         [&]() -> Result<void> { return insertRejection(r, why); });
}

Result<void> StateMachine::insertRejection(const TransitionRequest &r, const QString &why) const
{
    OrderRepository orders(m_c);
    auto current = orders.find(r.orderId);
    if (!current)
        return current.error();
    const qint64 now = m_clock.nowMs();
    const QVariant actualVersion = *current ? QVariant((*current)->version) : QVariant();
    const QVariant actualState =
        *current ? QVariant(orderStateName((*current)->state)) : QVariant();
    auto ins = Sql::exec(
        m_c.db(),
        QStringLiteral("INSERT INTO transition_rejections (order_id, expected_version,"
                       " actual_version, actual_state, requested_to, cause_kind, cause_id,"
                       " actor, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {r.orderId, r.expectedVersion, actualVersion, actualState, orderStateName(r.to),
         causeKindName(r.cause), nullable(r.causeId), r.actor.id, why, now});
    if (!ins)
        return ins.error();
    AuditEvent e;
    e.actor = r.actor.id;
    e.actorRole = r.actor.role;
    e.action = QStringLiteral("order.transition_rejected");
    e.entityKind = QStringLiteral("order");
    e.entityId = r.orderId;
    e.orderId = r.orderId;
    e.callbackId = r.callbackId;
    e.before = {{QStringLiteral("state"), actualState.toString()},
                {QStringLiteral("version"), actualVersion.toLongLong()}};
    e.after = {{QStringLiteral("requested_state"), orderStateName(r.to)},
               {QStringLiteral("expected_version"), r.expectedVersion},
               {QStringLiteral("cause_id"), r.causeId}};
    e.reason = why;
    if (auto a = AuditOutbox::record(m_c, e, m_clock); !a)
        return a.error();
    spdlog::info("order {}: refused {} → {} (expected v{}): {}", r.orderId.toStdString(),
                 orderStateName(r.from).toStdString(), orderStateName(r.to).toStdString(),
                 r.expectedVersion, why.toStdString());
    return {};
}

} // namespace OncePay
