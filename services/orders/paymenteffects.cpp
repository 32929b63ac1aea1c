#include "paymenteffects.h"

#include "audit/auditoutbox.h"
#include "core/money.h"
#include "db/sql.h"

namespace OncePay {

namespace {

Result<void> audit(const Connection &c, const Clock &clock, const Actor &actor,
                   const QString &action, const QString &kind, const QString &id,
                   const QString &orderId, const QString &callbackId, const QJsonObject &after,
                   const QString &reason = {})
{
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = action;
    e.entityKind = kind;
    e.entityId = id;
    e.orderId = orderId;
    e.callbackId = callbackId;
    e.after = after;
    e.reason = reason;
    auto r = AuditOutbox::record(c, e, clock);
    if (!r)
        return r.error();
    return {};
}

} // namespace

Result<void> PaymentEffects::recordCapture(const Order &order, const CapturedPayment &p) const
{
    auto r = m_c.execKept(
        QStringLiteral("INSERT INTO payments (order_id, channel, channel_txn_id, request_id,"
                       " callback_id, amount_minor, currency, status, captured_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, 'captured', ?)"),
        {order.orderId, p.channel, p.channelTxnId, Sql::nullIfEmpty(p.requestId), p.callbackId,
         p.amountMinor, p.currency, m_clock.nowMs()});
    if (!r)
        return r.error();
    return {};
}

Result<bool> PaymentEffects::captureKnown(const QString &channel, const QString &channelTxnId) const
{
    auto n = Sql::scalar(
        m_c.db(),
        QStringLiteral("SELECT COUNT(*) FROM payments WHERE channel = ? AND channel_txn_id = ?"),
        {channel, channelTxnId});
    if (!n)
        return n.error();
    return n->toInt() > 0;
}

Result<std::optional<CapturedPayment>> PaymentEffects::captureFor(const Order &order) const
{
    auto q = Sql::exec(
        m_c.db(),
        QStringLiteral("SELECT channel, channel_txn_id, request_id, callback_id, amount_minor,"
                       " currency FROM payments WHERE order_id = ? AND channel = ? AND"
                       " channel_txn_id = ?"),
        {order.orderId, order.channel, order.channelTxnId});
    if (!q)
        return q.error();
    if (!q->next())
        return std::optional<CapturedPayment>();
    CapturedPayment p;
    p.channel = q->value(0).toString();
    p.channelTxnId = q->value(1).toString();
    p.requestId = q->value(2).toString();
    p.callbackId = q->value(3).toString();
    p.amountMinor = q->value(4).toLongLong();
    p.currency = q->value(5).toString();
    return std::optional<CapturedPayment>(p);
}

Result<void> PaymentEffects::bookPaid(const Order &order, const CapturedPayment &p,
                                      const Actor &actor) const
{
    const qint64 now = m_clock.nowMs();
    const QString creditKey = QStringLiteral("credit:%1:%2").arg(p.channel, p.channelTxnId);
    auto credit = m_c.execKept(
        QStringLiteral("INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor,"
                       " currency, channel, channel_txn_id, callback_id, memo, created_at)"
                       " VALUES (?, ?, 'payment_credit', ?, ?, ?, ?, ?, ?, ?)"),
        {creditKey, order.orderId, p.amountMinor, p.currency, p.channel, p.channelTxnId,
         Sql::nullIfEmpty(p.callbackId), QStringLiteral("balance credit"), now});
    if (!credit)
        return credit.error();
    auto po = m_c.execKept(
        QStringLiteral("INSERT INTO purchase_orders (order_id, callback_id, created_at)"
                       " VALUES (?, ?, ?)"),
        {order.orderId, Sql::nullIfEmpty(p.callbackId), now});
    if (!po)
        return po.error();
    auto lo = m_c.execKept(
        QStringLiteral("INSERT INTO logistics_orders (order_id, callback_id, created_at)"
                       " VALUES (?, ?, ?)"),
        {order.orderId, Sql::nullIfEmpty(p.callbackId), now});
    if (!lo)
        return lo.error();
    return audit(m_c, m_clock, actor, QStringLiteral("payment.booked"), QStringLiteral("order"),
                 order.orderId, order.orderId, p.callbackId,
                 {{QStringLiteral("credit_key"), creditKey},
                  {QStringLiteral("amount_minor"), QString::number(p.amountMinor)},
                  {QStringLiteral("currency"), p.currency},
                  {QStringLiteral("purchase_order"), true},
                  {QStringLiteral("logistics_order"), true}});
}

Result<std::optional<RecordedPayment>> PaymentEffects::paymentOf(const QString &channel,
                                                                 const QString &channelTxnId) const
{
    auto q =
        Sql::exec(m_c.db(),
                  QStringLiteral("SELECT order_id, amount_minor, currency, status FROM payments"
                                 " WHERE channel = ? AND channel_txn_id = ?"),
                  {channel, channelTxnId});
    if (!q)
        return q.error();
    if (!q->next())
        return std::optional<RecordedPayment>();
    RecordedPayment p;
    p.orderId = q->value(0).toString();
    p.channel = channel;
    p.channelTxnId = channelTxnId;
    p.amountMinor = q->value(1).toLongLong();
    p.currency = q->value(2).toString();
    p.status = q->value(3).toString();
    return std::optional<RecordedPayment>(p);
}

Result<qint64> PaymentEffects::refundedTotal(const QString &channel,
                                             const QString &channelTxnId) const
{
    auto n = Sql::scalar(m_c.db(),
                         QStringLiteral("SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries"
                                        " WHERE kind = 'refund_debit' AND channel = ? AND"
                                        " channel_txn_id = ?"),
                         {channel, channelTxnId});
    if (!n)
        return n.error();
    return -n->toLongLong();
}

Result<bool> PaymentEffects::ledgerEntryKnown(const QString &entryKey) const
{
    auto n = Sql::scalar(m_c.db(),
                         QStringLiteral("SELECT COUNT(*) FROM ledger_entries WHERE entry_key = ?"),
                         {entryKey});
    if (!n)
        return n.error();
    return n->toInt() > 0;
}

Result<void> PaymentEffects::bookRefund(const Order &order, const RecordedPayment &p,
                                        const QString &entryKey, qint64 amountMinor,
                                        qint64 refundedTotal, const QString &callbackId,
                                        const Actor &actor) const
{
    const qint64 now = m_clock.nowMs();
    const bool all = refundedTotal >= p.amountMinor;
    auto debit = m_c.execKept(
        QStringLiteral("INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor,"
                       " currency, channel, channel_txn_id, callback_id, memo, created_at)"
                       " VALUES (?, ?, 'refund_debit', ?, ?, ?, ?, ?, ?, ?)"),
        {entryKey, order.orderId, -amountMinor, p.currency, p.channel, p.channelTxnId,
         Sql::nullIfEmpty(callbackId),
         all ? QStringLiteral("refund") : QStringLiteral("partial refund"), now});
    if (!debit)
        return debit.error();
    if (all) {
        auto pay =
            Sql::update(m_c.db(),
                        QStringLiteral("UPDATE payments SET status = 'refunded', refunded_at = ?"
                                       " WHERE channel = ? AND channel_txn_id = ?"),
                        {now, p.channel, p.channelTxnId});
        if (!pay)
            return pay.error();
    }
    return audit(m_c, m_clock, actor, QStringLiteral("payment.refunded"), QStringLiteral("order"),
                 order.orderId, order.orderId, callbackId,
                 {{QStringLiteral("debit_key"), entryKey},
                  {QStringLiteral("amount_minor"), QString::number(amountMinor)},
                  {QStringLiteral("currency"), p.currency},
                  {QStringLiteral("refunded_total_minor"), QString::number(refundedTotal)},
                  {QStringLiteral("captured_minor"), QString::number(p.amountMinor)},
                  {QStringLiteral("partial"), !all}});
}

Result<void> PaymentEffects::markRefunded(const Order &order, const RecordedPayment &p,
                                          const QString &callbackId, const Actor &actor) const
{
    auto pay = Sql::update(m_c.db(),
                           QStringLiteral("UPDATE payments SET status = 'refunded', refunded_at = ?"
                                          " WHERE channel = ? AND channel_txn_id = ?"),
                           {m_clock.nowMs(), p.channel, p.channelTxnId});
    if (!pay)
        return pay.error();
    return audit(m_c, m_clock, actor, QStringLiteral("payment.refunded"), QStringLiteral("order"),
                 order.orderId, order.orderId, callbackId,
                 {{QStringLiteral("amount_minor"), QString::number(p.amountMinor)},
                  {QStringLiteral("currency"), p.currency},
                  {QStringLiteral("refunded_total_minor"), QString::number(p.amountMinor)},
                  {QStringLiteral("captured_minor"), QString::number(p.amountMinor)},
                  {QStringLiteral("before_confirmation"), true}});
}

Result<bool> PaymentEffects::flagRefund(const QString &orderId, const QString &channel,
                                        const QString &channelTxnId, qint64 amountMinor,
                                        const QString &currency, const QString &sourceKey,
                                        const QString &reason, const Actor &actor) const
{
    // Checked first rather than caught: a failed INSERT would abort a PostgreSQL transaction.
    // Keyed by the money too: a capture reported twice (an approve result and an order status,
    // under two webhook ids) is owed back once.
    auto seen =
        channelTxnId.isEmpty()
            ? Sql::scalar(
                  m_c.db(),
                  QStringLiteral("SELECT COUNT(*) FROM refund_obligations WHERE callback_id = ?"),
                  {sourceKey})
            : Sql::scalar(
                  m_c.db(),
                  QStringLiteral("SELECT COUNT(*) FROM refund_obligations WHERE"
                                 " callback_id = ? OR (channel = ? AND channel_txn_id = ?)"),
                  {sourceKey, channel, channelTxnId});
    if (!seen)
        return seen.error();
    if (seen->toInt() > 0)
        return false; // already flagged: an earlier delivery of the same source or money
    auto r =
        Sql::exec(m_c.db(),
                  QStringLiteral("INSERT INTO refund_obligations (callback_id, order_id, channel,"
                                 " channel_txn_id, amount_minor, currency, reason, created_at)"
                                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                  {sourceKey, orderId, channel, Sql::nullIfEmpty(channelTxnId), amountMinor,
                   currency, reason, m_clock.nowMs()});
    if (!r)
        return r.error();
    auto a = audit(m_c, m_clock, actor, QStringLiteral("payment.refund_flagged"),
                   QStringLiteral("order"), orderId, orderId,
                   sourceKey.startsWith(QStringLiteral("fix:")) ? QString() : sourceKey,
                   {{QStringLiteral("amount_minor"), QString::number(amountMinor)},
                    {QStringLiteral("currency"), currency},
                    {QStringLiteral("channel_txn_id"), channelTxnId}},
                   reason);
    if (!a)
        return a.error();
    return true;
}

} // namespace OncePay
