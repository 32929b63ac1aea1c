#pragma once

// Plain rows of the orders database as the services hand them out.
// Thread contract: plain values.

#include "orderstate.h"

#include <QList>
#include <QString>

namespace OncePay {

struct Order {
    QString orderId;
    QString customerRef;
    qint64 amountMinor = 0;
    QString currency;
    OrderState state = OrderState::PendingPayment;
    qint64 version = 0;
    QString currentRequestId; // the payment attempt now in force, empty when none
    QString channel;
    QString channelTxnId;
    QString stateReason;
    qint64 paidAt = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

struct OrderTransition {
    qint64 id = 0;
    QString orderId;
    QString fromState;
    QString toState;
    qint64 newVersion = 0;
    QString causeKind;
    QString causeId;
    QString actor;
    QString reason;
    qint64 createdAt = 0;
};

// A transition that was asked for and refused (stale version, not allowed, superseded
// attempt). Nothing changed; this row says why, for the console's timeline.
struct TransitionRejection {
    qint64 id = 0;
    QString orderId;
    qint64 expectedVersion = -1;
    qint64 actualVersion = -1;
    QString actualState;
    QString requestedTo;
    QString causeKind;
    QString causeId;
    QString actor;
    QString reason;
    qint64 createdAt = 0;
};

} // namespace OncePay
