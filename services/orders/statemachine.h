#pragma once

// Moves an order along DESIGN.md §2 with optimistic locking: one
//   UPDATE orders SET state = ?, version = version + 1 … WHERE order_id = ? AND version = ?
// per transition, plus an order_transitions row and an audit_outbox row, all inside the
// caller's transaction. A rollback to pending_payment still increments the version.
// Zero rows updated means the request was stale: nothing changes, the caller rolls back and
// records the refusal with recordRejection() in a transaction of its own.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "order.h"

#include <optional>

namespace OncePay {

struct TransitionRequest {
    QString orderId;
    qint64 expectedVersion = 0;
    OrderState from = OrderState::PendingPayment; // the state the caller saw
    OrderState to = OrderState::PendingPayment;
    CauseKind cause = CauseKind::System;
    QString causeId; // request id, callback id, fix id, timer name
    Actor actor;
    QString reason;
    QString callbackId; // for the audit row's callback reference

    // Columns that move with the state; std::nullopt leaves them alone, an empty string
    // sets NULL.
    std::optional<QString> currentRequestId;
    std::optional<QString> channel;
    std::optional<QString> channelTxnId;
    std::optional<QString> stateReason;
    std::optional<qint64> paidAt;
};

class StateMachine {
public:
    StateMachine(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Returns the new version. Errors: Conflict (transition does not exist, reason
    // "not_allowed"), Stale (version or state moved; reason "stale_version").
    Result<qint64> apply(const TransitionRequest &request) const;

    // Records a refused transition with an audit row, in its own transaction.
    Result<void> recordRejection(const TransitionRequest &request, const QString &why) const;
    // The same, inside the caller's open transaction (the worker commits the refusal
    // together with the message's final status).
    Result<void> insertRejection(const TransitionRequest &request, const QString &why) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
