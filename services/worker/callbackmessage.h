#pragma once

// A row of the local message table as the worker sees it.
// Thread contract: plain value.

#include "channels/normalizedcallback.h"

#include <QString>

namespace OncePay {

struct CallbackMessage {
    qint64 id = 0;
    QString callbackId;
    QString channel;
    CallbackKind kind = CallbackKind::Other;
    QString channelEventType;
    QString orderRef;
    QString attemptRef;
    QString channelTxnId;
    bool hasAmount = false;
    qint64 amountMinor = 0;
    QString currency;
    QString status;
    int attempts = 0;
    QString leaseOwner;
    qint64 leaseUntil = 0;
    qint64 claimedAt = 0; // updated_at: when this attempt's claim took the lease
    QString refundId;     // from the stored body, for refunds (see CallbackProcessor)
};

} // namespace OncePay
