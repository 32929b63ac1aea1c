#include "ordersearch.h"

#include "auth/permissions.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>

#include <algorithm>

namespace OncePay {

namespace {

const QString kOrderCols = QStringLiteral(
    "o.order_id, o.customer_ref, o.amount_minor, o.currency, o.state, o.version, "
    "o.current_request_id,"
    " o.channel, o.channel_txn_id, o.state_reason, o.paid_at, o.created_at, o.updated_at");

// The order's columns, kOrderCols, starting at column `at`.
Order orderFrom(const QSqlQuery &q, int at)
{
    Order o;
    o.orderId = q.value(at).toString();
    o.customerRef = q.value(at + 1).toString();
    o.amountMinor = q.value(at + 2).toLongLong();
    o.currency = q.value(at + 3).toString();
    o.state = parseOrderState(q.value(at + 4).toString()).value_or(OrderState::PendingPayment);
    o.version = q.value(at + 5).toLongLong();
    o.currentRequestId = q.value(at + 6).toString();
    o.channel = q.value(at + 7).toString();
    o.channelTxnId = q.value(at + 8).toString();
    o.stateReason = q.value(at + 9).toString();
    o.paidAt = q.value(at + 10).toLongLong();
    o.createdAt = q.value(at + 11).toLongLong();
    o.updatedAt = q.value(at + 12).toLongLong();
    return o;
}

// One branch per place an identifier can live, best kind first; each an exact, indexed
// lookup that selects kOrderCols plus the matched value and the channel it belongs to. A
// channel transaction id is unique only within its channel: a transaction branch answers with
// the channel that holds it (the order's, the payment's or the callback's), so the same id on
// two channels is two hits, each with its channel.
struct Lookup {
    MatchKind kind;
    QString matched;
    QString channel;   // of the matched value; the order's where the value has none
    QString fromWhere; // with one `?`, or five for the callback ids
    QString order;     // inside the branch, before its LIMIT
};

const QList<Lookup> &lookups()
{
    static const QList<Lookup> all{
        {MatchKind::OrderId,
         QStringLiteral("o.order_id"),
         QStringLiteral("o.channel"),
         QStringLiteral("FROM orders o WHERE o.order_id = ?"),
         {}},
        {MatchKind::ChannelTxn,
         QStringLiteral("o.channel_txn_id"),
         QStringLiteral("o.channel"),
         QStringLiteral("FROM orders o WHERE o.channel_txn_id = ?"),
         {}},
        {MatchKind::ChannelTxn,
         QStringLiteral("p.channel_txn_id"),
         QStringLiteral("p.channel"),
         QStringLiteral("FROM payments p JOIN orders o ON o.order_id = p.order_id WHERE "
                        "p.channel_txn_id = ?"),
         {}},
        {MatchKind::ChannelTxn,
         QStringLiteral("m.channel_txn_id"),
         QStringLiteral("m.channel"),
         QStringLiteral("FROM callback_messages m JOIN orders o ON o.order_id = m.order_ref"
                        " WHERE m.channel_txn_id = ?"),
         {}},
        {MatchKind::CallbackId,
         QStringLiteral("m.callback_id"),
         QStringLiteral("m.channel"),
         QStringLiteral("FROM callback_messages m JOIN orders o ON o.order_id = m.order_ref"
                        " WHERE m.callback_id IN (?, ?, ?, ?, ?)"),
         {}},
        // A callback that names only its transaction (a refund made in the channel's
        // dashboard: no order reference) belongs to the order holding that transaction on the
        // callback's channel, as the worker resolves it and the order page shows it: through a
        // payment (payments' unique channel + transaction) or the order's own transaction.
        {MatchKind::CallbackId,
         QStringLiteral("m.callback_id"),
         QStringLiteral("m.channel"),
         QStringLiteral("FROM callback_messages m JOIN payments p ON p.channel = m.channel AND"
                        " p.channel_txn_id = m.channel_txn_id JOIN orders o ON o.order_id ="
                        " p.order_id WHERE m.callback_id IN (?, ?, ?, ?, ?)"),
         {}},
        {MatchKind::CallbackId,
         QStringLiteral("m.callback_id"),
         QStringLiteral("m.channel"),
         QStringLiteral("FROM callback_messages m JOIN orders o ON o.channel = m.channel AND"
                        " o.channel_txn_id = m.channel_txn_id WHERE m.callback_id IN"
                        " (?, ?, ?, ?, ?)"),
         {}},
        {MatchKind::RequestId,
         QStringLiteral("i.request_id"),
         QStringLiteral("o.channel"),
         QStringLiteral("FROM idempotency_records i JOIN orders o ON o.order_id = i.order_id"
                        " WHERE i.request_id = ?"),
         {}},
        // A rollback's or a cancel's request id lives only on the transition it caused (the
        // order page shows it as that transition's cause); index order_transitions_cause
        // (migration 0018).
        {MatchKind::RequestId,
         QStringLiteral("t.cause_id"),
         QStringLiteral("o.channel"),
         QStringLiteral("FROM order_transitions t JOIN orders o ON o.order_id = t.order_id"
                        " WHERE t.cause_id = ? AND t.cause_kind = 'request'"),
         {}},
        {MatchKind::CustomerRef, QStringLiteral("o.customer_ref"), QStringLiteral("o.channel"),
         QStringLiteral("FROM orders o WHERE o.customer_ref = ?"),
         QStringLiteral(" ORDER BY o.created_at DESC")},
    };
    return all;
}

// Every lookup in one statement, run as a statement its connection keeps prepared
// (Connection::queryKept):
// one parse and plan per connection, one round trip per search. Each branch keeps its own
// LIMIT; the rows are put in order and made distinct here (search()), which on SQLite costs
// far less than DISTINCT and ORDER BY in the statement (temporary b-trees: ~0.4 ms a search
// at 1,000,000 orders, against ~25 µs for the whole statement without them). A branch returns
// an order more than once only through several payments or messages with the searched id.
// Written so SQLite, PostgreSQL and MySQL all accept it.
QString buildSearchSql(int limit)
{
    QStringList branches;
    for (int i = 0; i < lookups().size(); ++i) {
        const Lookup &l = lookups()[i];
        branches << QStringLiteral(
                        "SELECT * FROM (SELECT %1 AS k, %2, %3 AS mv, %4 AS mc %5%6 LIMIT %7) b%1")
                        .arg(i)
                        .arg(kOrderCols, l.matched, l.channel, l.fromWhere, l.order)
                        .arg(limit);
    }
    return branches.join(QStringLiteral(" UNION ALL "));
}

// The statement for `limit`, built once per thread and limit: building it took 7–12 µs of a
// search's ~0.2 ms, and the connection finds its prepared statement by this text.
const QString &searchSql(int limit)
{
    thread_local QHash<int, QString> built;
    auto it = built.constFind(limit);
    if (it == built.cend())
        it = built.insert(limit, buildSearchSql(limit));
    return *it;
}

// Callbacks that name no order: looked up when no order matched, or when one matched by a
// transaction (the same id on another channel is another transaction). The term as a callback
// id (five ways, as above), as the order reference a callback names and as its transaction —
// each an indexed lookup, the text bound — and kept if neither its order reference nor its
// transaction on its channel belongs to an order or a payment.
QString unknownOrderSql(int limit)
{
    return QStringLiteral(
               "SELECT m.callback_id, m.channel, m.order_ref, m.channel_txn_id, m.event_kind,"
               " m.status, m.attempts, m.last_error, d.reason, d.id, m.received_at"
               " FROM callback_messages m LEFT JOIN dead_letters d ON d.message_id = m.id"
               " WHERE (m.callback_id IN (?, ?, ?, ?, ?) OR m.order_ref = ? OR"
               " m.channel_txn_id = ?)"
               " AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = m.order_ref)"
               " AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.channel = m.channel"
               " AND o.channel_txn_id = m.channel_txn_id)"
               " AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.channel = m.channel"
               " AND p.channel_txn_id = m.channel_txn_id)"
               " ORDER BY m.received_at DESC, m.id DESC LIMIT %1")
        .arg(limit);
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
    case MatchKind::UnknownOrderCallback: return QStringLiteral("unknown_order_callback");
    }
    return {};
}

QString OrderSearch::statement(int limit)
{
    return searchSql(limit);
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
    QVariantList binds;
    for (const Lookup &l : lookups()) {
        if (l.kind == MatchKind::CallbackId)
            binds << callbackIds;
        else
            binds << term;
    }
    auto q = m_c.queryKept(searchSql(limit), binds);
    if (!q)
        return q.error();
    struct Row {
        int branch;
        OrderHit hit;
    };
    QList<Row> rows;
    for (QSqlQuery &r = **q; r.next();) {
        const MatchKind kind = lookups().at(r.value(0).toInt()).kind;
        OrderHit hit{orderFrom(r, 1), kind, r.value(14).toString(), {}, {}};
        if (kind == MatchKind::ChannelTxn || kind == MatchKind::CallbackId)
            hit.matchedChannel = r.value(15).toString();
        rows.append({r.value(0).toInt(), hit});
    }
    // The best kind first, then the newest order; each order once, under its best kind.
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.branch != b.branch)
            return a.branch < b.branch;
        if (a.hit.order.createdAt != b.hit.order.createdAt)
            return a.hit.order.createdAt > b.hit.order.createdAt;
        return a.hit.order.orderId < b.hit.order.orderId;
    });
    QList<OrderHit> hits;
    QSet<QString> seen;
    for (const Row &r : std::as_const(rows)) {
        if (hits.size() >= limit)
            break;
        if (seen.contains(r.hit.order.orderId))
            continue;
        seen.insert(r.hit.order.orderId);
        hits << r.hit;
    }
    const bool byTransaction = std::any_of(hits.cbegin(), hits.cend(), [](const OrderHit &h) {
        return h.matchedBy == MatchKind::ChannelTxn;
    });
    if ((!hits.isEmpty() && !byTransaction) || hits.size() >= limit)
        return hits;
    QVariantList unknownBinds = callbackIds;
    unknownBinds << term << term;
    auto u = m_c.queryKept(unknownOrderSql(limit), unknownBinds);
    if (!u)
        return u.error();
    for (QSqlQuery &r = **u; r.next() && hits.size() < limit;) {
        OrderHit hit;
        hit.matchedBy = MatchKind::UnknownOrderCallback;
        UnknownOrderCallback &c = hit.callback;
        c.callbackId = r.value(0).toString();
        c.channel = r.value(1).toString();
        c.orderRef = r.value(2).toString();
        c.channelTxnId = r.value(3).toString();
        c.eventKind = r.value(4).toString();
        c.status = r.value(5).toString();
        c.attempts = r.value(6).toInt();
        c.lastError = r.value(7).toString();
        c.deadLettered = !r.value(9).isNull();
        if (c.lastError.isEmpty() && c.deadLettered)
            c.lastError = r.value(8).toString();
        c.receivedAt = r.value(10).toLongLong();
        hit.matchedValue = c.callbackId;
        hit.matchedChannel = c.channel;
        hits << hit;
    }
    return hits;
}

} // namespace OncePay
