#pragma once

// Loads an OrderPicture: a handful of indexed reads by order id (by the callback ids of the
// order's messages for the audit rows, by their message ids for the worker's attempts);
// callbacks and reconciliation exceptions also by the order's channel transactions, each
// qualified by the channel that issued it (a transaction id is unique only within its channel),
// through the indexes on the transaction.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/result.h"
#include "db/connection.h"
#include "orderpicture.h"

namespace OncePay {

class OrderPictureQuery {
public:
    explicit OrderPictureQuery(const Connection &connection)
        : m_c(connection)
    {}

    // Requires Action::ReadOrders; the audit rows only with Action::ReadAudit (agents and
    // administrators see the order's history, not the audit trail). ErrorCode::NotFound when
    // there is no such order.
    Result<OrderPicture> load(const QString &orderId, const Actor &actor) const;

private:
    Result<void> loadMessages(OrderPicture *p) const;
    Result<void> loadAttempts(OrderPicture *p) const; // after loadMessages
    Result<void> loadMoney(OrderPicture *p) const;
    Result<void> loadExceptions(OrderPicture *p) const;
    Result<void> loadRecords(OrderPicture *p) const;
    Result<void> loadAudit(OrderPicture *p) const;

    const Connection &m_c;
};

} // namespace OncePay
