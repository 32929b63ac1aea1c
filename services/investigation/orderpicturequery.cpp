#include "orderpicturequery.h"

#include "audit/audittrailquery.h"

#include "fixes/fixservice.h"

#include "auth/permissions.h"
#include "db/sql.h"
#include "orders/orderrepository.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>

#include <algorithm>
#include <utility>

namespace OncePay {

namespace {

qint64 ms(const QVariant &v)
{
    return v.isNull() ? 0 : v.toLongLong();
}

// The order's channel transactions, each with the channel that issued it (a transaction id is
// unique only within its channel): the order's current one and its payments' (after
// loadMoney; a new attempt after a rollback may be on another channel), at most 50.
QList<std::pair<QString, QString>> transactionsOf(const OrderPicture &p)
{
    QList<std::pair<QString, QString>> txns;
    auto add = [&txns](const QString &channel, const QString &txn) {
        const std::pair<QString, QString> t{channel, txn};
        if (!channel.isEmpty() && !txn.isEmpty() && !txns.contains(t) && txns.size() < 50)
            txns << t;
    };
    add(p.order.channel, p.order.channelTxnId);
    for (const PaymentRow &pay : std::as_const(p.payments))
        add(pay.channel, pay.channelTxnId);
    return txns;
}

// " OR (<channel> = ? AND <txn> = ?)" for each transaction, its values appended to `binds`.
QString orTransactions(const QList<std::pair<QString, QString>> &txns, const QString &prefix,
                       QVariantList *binds)
{
    QString sql;
    for (const auto &[channel, txn] : txns) {
        sql += QStringLiteral(" OR (%1channel = ? AND %1channel_txn_id = ?)").arg(prefix);
        *binds << channel << txn;
    }
    return sql;
}

} // namespace

Result<OrderPicture> OrderPictureQuery::load(const QString &orderId, const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    OrderRepository repo(m_c);
    auto order = repo.find(orderId);
    if (!order)
        return order.error();
    if (!order->has_value())
        return makeError(ErrorCode::NotFound, QStringLiteral("no order %1").arg(orderId),
                         QStringLiteral("unknown_order"));
    OrderPicture p;
    p.order = **order;
    auto transitions = repo.transitions(orderId);
    if (!transitions)
        return transitions.error();
    p.transitions = *transitions;
    auto rejections = repo.rejections(orderId);
    if (!rejections)
        return rejections.error();
    p.rejections = *rejections;
    for (auto step : {&OrderPictureQuery::loadMoney, &OrderPictureQuery::loadMessages,
                      &OrderPictureQuery::loadAttempts, &OrderPictureQuery::loadExceptions,
                      &OrderPictureQuery::loadRecords})
        if (auto r = (this->*step)(&p); !r)
            return r.error();
    FixFilter fixFilter;
    fixFilter.orderId = orderId;
    fixFilter.limit = 200;
    auto fixes = FixService(m_c, Clock::system()).list(fixFilter);
    if (!fixes)
        return fixes.error();
    p.fixes = *fixes;
    // Audit rows as the audit trail shows them: to the account as it is now, a refusal audited
    // (a disabled or demoted finance reviewer or auditor kept seeing them here and in the
    // dossier). Refused, the rest of the order is still shown.
    p.auditVisible = require(actor, Action::ReadAudit).ok();
    if (p.auditVisible) {
        auto now =
            authorizeAuditRead(m_c, Clock::system(), actor, QStringLiteral("order:") + orderId);
        if (!now && now.error().code != ErrorCode::Forbidden)
            return now.error();
        p.auditVisible = now.ok();
    }
    if (p.auditVisible)
        if (auto r = loadAudit(&p); !r)
            return r.error();
    p.timeline = buildTimeline(p);
    return p;
}

Result<void> OrderPictureQuery::loadMessages(OrderPicture *p) const
{
    // By the order reference the channel sent; refunds that name only the transaction are
    // found by the order's transactions (after loadMoney), each on its own channel.
    QVariantList binds{p->order.orderId};
    const QString where = QStringLiteral("m.order_ref = ?") +
                          orTransactions(transactionsOf(*p), QStringLiteral("m."), &binds);
    auto q = m_c.queryKept(
        QStringLiteral("SELECT m.id, m.callback_id, m.channel, m.event_kind, m.channel_event_type,"
                       " m.attempt_ref, m.channel_txn_id, m.amount_minor, m.currency, m.status,"
                       " m.attempts, m.last_error, m.result_reason, m.lease_owner, m.lease_until,"
                       " m.received_at, m.updated_at, m.finished_at, m.raw_body, m.headers,"
                       " d.reason, d.created_at, d.id"
                       " FROM callback_messages m LEFT JOIN dead_letters d ON d.message_id = m.id"
                       " WHERE %1 ORDER BY m.received_at, m.id")
            .arg(where),
        binds);
    if (!q)
        return q.error();
    while (q->next()) {
        CallbackMessageRow m;
        m.id = q->value(0).toLongLong();
        m.callbackId = q->value(1).toString();
        m.channel = q->value(2).toString();
        m.eventKind = q->value(3).toString();
        m.channelEventType = q->value(4).toString();
        m.attemptRef = q->value(5).toString();
        m.channelTxnId = q->value(6).toString();
        m.hasAmount = !q->value(7).isNull();
        m.amountMinor = q->value(7).toLongLong();
        m.currency = q->value(8).toString();
        m.status = q->value(9).toString();
        m.attempts = q->value(10).toInt();
        m.lastError = q->value(11).toString();
        m.resultReason = q->value(12).toString();
        m.leaseOwner = q->value(13).toString();
        m.leaseUntil = ms(q->value(14));
        m.receivedAt = ms(q->value(15));
        m.updatedAt = ms(q->value(16));
        m.finishedAt = ms(q->value(17));
        m.rawBody = q->value(18).toString();
        m.headers = q->value(19).toString();
        m.deadLettered = !q->value(22).isNull();
        m.deadReason = q->value(20).toString();
        m.deadAt = ms(q->value(21));
        p->messages << m;
    }
    return {};
}

Result<void> OrderPictureQuery::loadAttempts(OrderPicture *p) const
{
    // By the messages' ids through the index on callback_attempts.message_id, in chunks of a
    // fixed size (the last padded with its own last id) so that one kept statement serves.
    constexpr int kChunk = 20;
    QHash<qint64, QString> callbackOf;
    for (const CallbackMessageRow &m : std::as_const(p->messages))
        callbackOf.insert(m.id, m.callbackId);
    QStringList marks;
    for (int i = 0; i < kChunk; ++i)
        marks << QStringLiteral("?");
    const QString sql =
        QStringLiteral("SELECT id, message_id, attempt, worker_id, outcome, error, started_at,"
                       " ended_at FROM callback_attempts WHERE message_id IN (%1)")
            .arg(marks.join(u", "));
    for (qsizetype from = 0; from < p->messages.size(); from += kChunk) {
        QVariantList binds;
        for (qsizetype i = from; i < from + kChunk; ++i)
            binds << p->messages.at(std::min(i, p->messages.size() - 1)).id;
        auto q = m_c.queryKept(sql, binds);
        if (!q)
            return q.error();
        while (q->next()) {
            CallbackAttemptRow a;
            a.id = q->value(0).toLongLong();
            a.messageId = q->value(1).toLongLong();
            a.callbackId = callbackOf.value(a.messageId);
            a.attempt = q->value(2).toInt();
            a.workerId = q->value(3).toString();
            a.outcome = q->value(4).toString();
            a.error = q->value(5).toString();
            a.startedAt = ms(q->value(6));
            a.endedAt = ms(q->value(7));
            p->attempts << a;
        }
    }
    std::sort(p->attempts.begin(), p->attempts.end(),
              [](const CallbackAttemptRow &a, const CallbackAttemptRow &b) {
                  return std::pair(a.endedAt, a.id) < std::pair(b.endedAt, b.id);
              });
    return {};
}

Result<void> OrderPictureQuery::loadMoney(OrderPicture *p) const
{
    const QVariantList id{p->order.orderId};
    auto pay = m_c.queryKept(
        QStringLiteral("SELECT p.id, p.channel, p.channel_txn_id, p.request_id, p.callback_id,"
                       " p.amount_minor, p.currency, p.status, CASE WHEN m.payment_id IS NULL"
                       " THEN 'pending' ELSE 'settled' END, p.captured_at, p.refunded_at"
                       " FROM payments p LEFT JOIN settlement_matches m ON m.payment_id = p.id"
                       " WHERE p.order_id = ? ORDER BY p.captured_at, p.id"),
        id);
    if (!pay)
        return pay.error();
    while (pay->next())
        p->payments << PaymentRow{
            pay->value(0).toLongLong(), pay->value(1).toString(), pay->value(2).toString(),
            pay->value(3).toString(),   pay->value(4).toString(), pay->value(5).toLongLong(),
            pay->value(6).toString(),   pay->value(7).toString(), pay->value(8).toString(),
            ms(pay->value(9)),          ms(pay->value(10))};
    auto led = m_c.queryKept(
        QStringLiteral(
            "SELECT id, entry_key, kind, amount_minor, currency, channel, channel_txn_id,"
            " callback_id, memo, created_at FROM ledger_entries WHERE order_id = ?"
            " ORDER BY created_at, id"),
        id);
    if (!led)
        return led.error();
    while (led->next())
        p->ledger << LedgerRow{led->value(0).toLongLong(), led->value(1).toString(),
                               led->value(2).toString(),   led->value(3).toLongLong(),
                               led->value(4).toString(),   led->value(5).toString(),
                               led->value(6).toString(),   led->value(7).toString(),
                               led->value(8).toString(),   ms(led->value(9))};
    auto ref = m_c.queryKept(
        QStringLiteral("SELECT id, callback_id, channel, channel_txn_id, amount_minor, currency,"
                       " reason, created_at, resolved_at FROM refund_obligations"
                       " WHERE order_id = ? ORDER BY created_at, id"),
        id);
    if (!ref)
        return ref.error();
    while (ref->next())
        p->refunds << RefundObligationRow{
            ref->value(0).toLongLong(), ref->value(1).toString(),   ref->value(2).toString(),
            ref->value(3).toString(),   ref->value(4).toLongLong(), ref->value(5).toString(),
            ref->value(6).toString(),   ms(ref->value(7)),          ms(ref->value(8))};
    return {};
}

Result<void> OrderPictureQuery::loadExceptions(OrderPicture *p) const
{
    // Reconciliation names a finding by its channel transaction, and by the order when it
    // knew it: the order's id, and its transactions (after loadMoney) each on its channel,
    // bound as parameters.
    QVariantList binds{p->order.orderId};
    const QString where =
        QStringLiteral("order_id = ?") + orTransactions(transactionsOf(*p), QString(), &binds);
    auto q = m_c.queryKept(
        // The expected amount is in expected_currency (migration 0012), else in the row's
        // currency, which is always the actual amount's (the settlement's).
        QStringLiteral("SELECT id, kind, status, channel, channel_txn_id, expected_minor,"
                       " actual_minor, currency, detail, opened_at, closed_at,"
                       " COALESCE(expected_currency, currency) FROM discrepancies d"
                       " WHERE %1 ORDER BY opened_at, id")
            .arg(where),
        binds);
    if (!q)
        return q.error();
    while (q->next()) {
        OrderExceptionRow d;
        d.id = q->value(0).toLongLong();
        d.kind = q->value(1).toString();
        d.status = q->value(2).toString();
        d.channel = q->value(3).toString();
        d.channelTxnId = q->value(4).toString();
        d.hasExpected = !q->value(5).isNull();
        d.expectedMinor = q->value(5).toLongLong();
        d.hasActual = !q->value(6).isNull();
        d.actualMinor = q->value(6).toLongLong();
        d.currency = q->value(7).toString();
        d.detail = q->value(8).toString();
        d.openedAt = ms(q->value(9));
        d.closedAt = ms(q->value(10));
        d.expectedCurrency = q->value(11).isNull() ? d.currency : q->value(11).toString();
        p->discrepancies << d;
    }
    return {};
}

Result<void> OrderPictureQuery::loadRecords(OrderPicture *p) const
{
    const QVariantList id{p->order.orderId};
    auto idem = m_c.queryKept(
        QStringLiteral("SELECT id, request_id, expected_version, operation, status, outcome,"
                       " created_at, updated_at FROM idempotency_records WHERE order_id = ?"
                       " ORDER BY created_at, id"),
        id);
    if (!idem)
        return idem.error();
    while (idem->next())
        p->idempotency << IdempotencyRow{idem->value(0).toLongLong(), idem->value(1).toString(),
                                         idem->value(2).toLongLong(), idem->value(3).toString(),
                                         idem->value(4).toInt(),      idem->value(5).toString(),
                                         ms(idem->value(6)),          ms(idem->value(7))};
    for (const auto &[table, kind] :
         {std::pair{"purchase_orders", "purchase"}, std::pair{"logistics_orders", "logistics"}}) {
        auto f = m_c.queryKept(
            QStringLiteral("SELECT status, callback_id, created_at FROM %1 WHERE order_id = ?")
                .arg(QLatin1String(table)),
            id);
        if (!f)
            return f.error();
        while (f->next())
            p->fulfilment << FulfilmentRow{QLatin1String(kind), f->value(0).toString(),
                                           f->value(1).toString(), ms(f->value(2))};
    }
    return {};
}

Result<void> OrderPictureQuery::loadAudit(OrderPicture *p) const
{
    // Rows about the order, and rows about its callbacks written before the order was known
    // (ingest). Callback ids go in as parameters, in chunks.
    QString where = QStringLiteral("order_id = ?");
    QVariantList binds{p->order.orderId};
    int n = 0;
    QStringList marks;
    for (const CallbackMessageRow &m : std::as_const(p->messages)) {
        if (++n > 200)
            break;
        marks << QStringLiteral("?");
        binds << m.callbackId;
    }
    if (!marks.isEmpty())
        where += QStringLiteral(" OR callback_id IN (%1)").arg(marks.join(u", "));
    auto q = m_c.queryKept(
        QStringLiteral("SELECT id, event_id, occurred_at, actor, actor_role, action, entity_kind,"
                       " entity_id, callback_id, before_json, after_json, reason, shipped_at"
                       " FROM audit_outbox WHERE %1 ORDER BY id")
            .arg(where),
        binds);
    if (!q)
        return q.error();
    while (q->next())
        p->audit << AuditRow{
            q->value(0).toLongLong(), q->value(1).toString(),  ms(q->value(2)),
            q->value(3).toString(),   q->value(4).toString(),  q->value(5).toString(),
            q->value(6).toString(),   q->value(7).toString(),  q->value(8).toString(),
            q->value(9).toString(),   q->value(10).toString(), q->value(11).toString(),
            ms(q->value(12))};
    return {};
}

} // namespace OncePay
