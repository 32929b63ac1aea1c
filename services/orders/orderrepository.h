#pragma once

// Reads of orders and their history. `lock = true` takes a row lock for the rest of the
// transaction on PostgreSQL/MySQL (SELECT … FOR UPDATE); SQLite's write transaction already
// serialises writers.
// Thread contract: the connection's thread.

#include "core/result.h"
#include "db/connection.h"
#include "order.h"

#include <optional>

namespace OncePay {

class OrderRepository {
public:
    explicit OrderRepository(const Connection &connection)
        : m_c(connection)
    {}

    Result<std::optional<Order>> find(const QString &orderId, bool lock = false) const;
    Result<QList<OrderTransition>> transitions(const QString &orderId) const;
    Result<QList<TransitionRejection>> rejections(const QString &orderId) const;

private:
    const Connection &m_c;
};

} // namespace OncePay
