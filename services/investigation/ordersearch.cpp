#include "ordersearch.h"

#include "auth/permissions.h"
#include "db/sql.h"

#include <QSet>
#include <QSqlQuery>

namespace OncePay {

namespace {

const QString kOrderCols = QStringLiteral(
    "o.order_id, o.customer_ref, o.amount_minor, o.currency, o.state, o.version, "
    "o.current_request_id,"
    " o.channel, o.channel_txn_id, o.state_reason, o.paid_at, o.created_at, o.updated_at");

Order orderFrom(const QSqlQuery &q)
{
    Order o;
    o.orderId = q.value(0).toString();
    o.customerRef = q.value(1).toString();
    o.amountMinor = q.value(2).toLongLong();
    o.currency = q.value(3).toString();
    o.state = parseOrderState(q.value(4).toString()).value_or(OrderState::PendingPayment);
    o.version = q.value(5).toLongLong();
    o.currentRequestId = q.value(6).toString();
    o.channel = q.value(7).toString();
    o.channelTxnId = q.value(8).toString();
    o.stateReason = q.value(9).toString();
    o.paidAt = q.value(10).toLongLong();
    o.createdAt = q.value(11).toLongLong();
    o.updatedAt = q.value(12).toLongLong();
    return o;
}

struct Lookup {
    MatchKind kind;
    QString sql; // selects kOrderCols plus the matched value
    int binds;
};

QList<Lookup> lookups()
{
    const QString sel = QStringLiteral("SELECT DISTINCT %1, %2 ");
    return {
        {MatchKind::OrderId,
         sel.arg(kOrderCols, QStringLiteral("o.order_id")) +
             QStringLiteral("FROM orders o WHERE o.order_id = ?"),
         1},
        {MatchKind::ChannelTxn,
         sel.arg(kOrderCols, QStringLiteral("o.channel_txn_id")) +
             QStringLiteral("FROM orders o WHERE o.channel_txn_id = ?"),
         1},
        {MatchKind::ChannelTxn,
         sel.arg(kOrderCols, QStringLiteral("p.channel_txn_id")) +
             QStringLiteral("FROM payments p JOIN orders o ON o.order_id = p.order_id WHERE "
                            "p.channel_txn_id = ?"),
         1},
        {MatchKind::ChannelTxn,
         sel.arg(kOrderCols, QStringLiteral("m.channel_txn_id")) +
             QStringLiteral("FROM callback_messages m JOIN orders o ON o.order_id = m.order_ref"
                            " WHERE m.channel_txn_id = ?"),
         1},
        {MatchKind::CallbackId,
         sel.arg(kOrderCols, QStringLiteral("m.callback_id")) +
             QStringLiteral("FROM callback_messages m JOIN orders o ON o.order_id = m.order_ref"
                            " WHERE m.callback_id IN (?, ?, ?, ?, ?)"),
         5},
        {MatchKind::RequestId,
         sel.arg(kOrderCols, QStringLiteral("i.request_id")) +
             QStringLiteral("FROM idempotency_records i JOIN orders o ON o.order_id = i.order_id"
                            " WHERE i.request_id = ?"),
         1},
        {MatchKind::CustomerRef,
         sel.arg(kOrderCols, QStringLiteral("o.customer_ref")) +
             QStringLiteral("FROM orders o WHERE o.customer_ref = ? ORDER BY o.created_at DESC"),
         1},
    };
}

} // namespace

QString matchKindName(MatchKind kind)
{
    switch (kind) {
    case MatchKind::OrderId: return QStringLiteral("order");
    case MatchKind::CustomerRef: return QStringLiteral("customer");
    case MatchKind::ChannelTxn: return QStringLiteral("transaction");
    case MatchKind::CallbackId: return QStringLiteral("callback");
    case MatchKind::RequestId: return QStringLiteral("request");
    }
    return {};
}

Result<QList<OrderHit>> OrderSearch::search(const QString &rawTerm, const Actor &actor,
                                            int limit) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    const QString term = rawTerm.trimmed();
    if (term.isEmpty())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("type an order, customer, transaction, callback or"
                                        " request id"),
                         QStringLiteral("empty_search"));
    if (term.size() > kMaxTermLength)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("the search text is longer than any identifier"),
                         QStringLiteral("search_too_long"));
    // Callback ids are "channel:event id"; people paste the channel's event id alone.
    const QVariantList callbackIds{
        term, QString(QStringLiteral("stripe:") + term), QString(QStringLiteral("paypal:") + term),
        QString(QStringLiteral("fedapay:") + term), QString(QStringLiteral("kakaopay:") + term)};
    QList<OrderHit> hits;
    QSet<QString> seen;
    for (const Lookup &l : lookups()) {
        if (hits.size() >= limit)
            break;
        const QVariantList binds = l.binds == 5 ? callbackIds : QVariantList{term};
        auto q = Sql::exec(m_c.db(), l.sql + QStringLiteral(" LIMIT %1").arg(limit), binds);
        if (!q)
            return q.error();
        while (q->next() && hits.size() < limit) {
            OrderHit h{orderFrom(*q), l.kind, q->value(13).toString()};
            if (seen.contains(h.order.orderId))
                continue;
            seen.insert(h.order.orderId);
            hits << h;
        }
    }
    return hits;
}

} // namespace OncePay
