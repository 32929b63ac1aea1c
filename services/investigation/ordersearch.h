#pragma once

// One search box for any identifier (DESIGN.md §6): an order id, a customer reference, a
// channel transaction id, a callback id (with or without its "channel:" prefix; the order it
// names, or the order holding its transaction on its channel when it names none) or a request
// id (an idempotency record's, or a rollback's or cancel's on the transition it caused). Each
// kind is an exact, indexed lookup with the text bound as a parameter, so no input can change
// the query.
// Thread contract: the connection's thread; results are plain values.

#include "core/actor.h"
#include "core/result.h"
#include "db/connection.h"
#include "orders/order.h"

namespace OncePay {

// UnknownOrderCallback: a stored callback matches (by its id, the order reference it names or
// its transaction) and names an order that does not exist — a dead letter of a ghost order,
// say. The hit carries the callback, not an order.
enum class MatchKind {
    OrderId,
    CustomerRef,
    ChannelTxn,
    CallbackId,
    RequestId,
    UnknownOrderCallback
};

// "order", "customer", "transaction", "callback", "request", "unknown_order_callback"
QString matchKindName(MatchKind kind);

// A stored callback that names no existing order, as the search found it.
struct UnknownOrderCallback {
    QString callbackId;
    QString channel;
    QString orderRef; // the order it names (empty when it names only a transaction)
    QString channelTxnId;
    QString eventKind;
    QString status; // callback_messages.status: dead, failed, pending, ...
    int attempts = 0;
    QString lastError; // engine text, or the dead letter's reason when it has none
    bool deadLettered = false;
    qint64 receivedAt = 0;
};

struct OrderHit {
    Order order; // empty for MatchKind::UnknownOrderCallback
    MatchKind matchedBy = MatchKind::OrderId;
    QString matchedValue;
    // The channel the matched transaction or callback belongs to (a transaction id is unique
    // only within its channel: the order's, the payment's or the callback's); empty for the
    // other kinds.
    QString matchedChannel;
    UnknownOrderCallback callback; // only for MatchKind::UnknownOrderCallback
};

// Whether a match by `kind` names its order for good: an order id, a channel transaction, a
// callback and an idempotency request each belong to one order once written, so an answer
// found by one of them a moment ago is still the answer. (A transaction id is unique only
// within its channel: a single hit by one is the only holder found; another channel's holder
// arriving within a look-ahead's freshness is not worth a read at every search.) A customer
// reference is not (the customer may order again), nor is "nothing matches" (the order may
// arrive), nor a callback for an unknown order (it names no order; the order may yet arrive).
constexpr bool matchNamesOneOrderForGood(MatchKind kind)
{
    return kind != MatchKind::CustomerRef && kind != MatchKind::UnknownOrderCallback;
}

class OrderSearch {
public:
    explicit OrderSearch(const Connection &connection)
        : m_c(connection)
    {}

    static constexpr int kMaxTermLength = 200;

    // Distinct orders, best match first (order id, then transaction, callback, request,
    // customer), newest first within a kind, at most `limit`; one statement for all kinds,
    // kept prepared on the calling thread's connection. A transaction hit carries the channel
    // that holds the transaction: the same id on two channels gives both orders, each with its
    // channel. When no order matches, or one matched by a transaction, a second statement
    // looks for stored callbacks whose id, order reference or transaction (on the callback's
    // channel) is the term and that name no existing order: those come back as
    // UnknownOrderCallback hits, newest first, after the order hits (so a transaction an order
    // holds on one channel and a ghost order's callback holds on another are both answered).
    // An empty or overlong term is ErrorCode::Invalid.
    // Requires Action::ReadOrders.
    Result<QList<OrderHit>> search(const QString &term, const Actor &actor, int limit = 200) const;

    // The first statement search() runs, as text: each `?` is the term (five for a callback
    // id: the term, then "stripe:", "paypal:", "fedapay:", "kakaopay:" before it). For the
    // tests that read its plan on each engine (every branch an index lookup).
    static QString statement(int limit = 200);

private:
    const Connection &m_c;
};

} // namespace OncePay
