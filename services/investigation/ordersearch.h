#pragma once

// One search box for any identifier (DESIGN.md §6): an order id, a customer reference, a
// channel transaction id, a callback id (with or without its "channel:" prefix) or an
// idempotency request id. Each kind is an exact, indexed lookup with the text bound as a
// parameter, so no input can change the query.
// Thread contract: the connection's thread; results are plain values.

#include "core/actor.h"
#include "core/result.h"
#include "db/connection.h"
#include "orders/order.h"

namespace OncePay {

enum class MatchKind { OrderId, CustomerRef, ChannelTxn, CallbackId, RequestId };

QString matchKindName(MatchKind kind); // "order", "customer", "transaction", "callback", "request"

struct OrderHit {
    Order order;
    MatchKind matchedBy = MatchKind::OrderId;
    QString matchedValue;
};

// Whether a match by `kind` names its order for good: an order id, a channel transaction, a
// callback and an idempotency request each belong to one order once written, so an answer
// found by one of them a moment ago is still the answer. A customer reference is not (the
// customer may order again), nor is "nothing matches" (the order may arrive).
constexpr bool matchNamesOneOrderForGood(MatchKind kind)
{
    return kind != MatchKind::CustomerRef;
}

class OrderSearch {
public:
    explicit OrderSearch(const Connection &connection)
        : m_c(connection)
    {}

    static constexpr int kMaxTermLength = 200;

    // Distinct orders, best match first (order id, then transaction, callback, request,
    // customer), newest first within a kind, at most `limit`; one statement for all kinds,
    // kept prepared on the calling thread's connection. An empty or overlong term is
    // ErrorCode::Invalid.
    // Requires Action::ReadOrders.
    Result<QList<OrderHit>> search(const QString &term, const Actor &actor, int limit = 200) const;

private:
    const Connection &m_c;
};

} // namespace OncePay
