#pragma once

// The side effects of money moving, each guarded by a unique key so that no replay can
// double it (DESIGN.md §2): the payment record (channel + transaction id), the balance
// credit (one per payment), the purchase order and the logistics order (one per order),
// refund debits and refund obligations. All run in the caller's transaction; a unique
// violation here aborts that transaction instead of being swallowed.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "order.h"

namespace OncePay {

struct CapturedPayment {
    QString channel;
    QString channelTxnId;
    QString requestId;  // the attempt it belongs to
    QString callbackId; // the callback that reported it
    qint64 amountMinor = 0;
    QString currency;
};

class PaymentEffects {
public:
    PaymentEffects(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Inserts the payment row; Conflict if this channel transaction is already recorded.
    Result<void> recordCapture(const Order &order, const CapturedPayment &payment) const;
    // Whether a payment row exists for (channel, txn).
    Result<bool> captureKnown(const QString &channel, const QString &channelTxnId) const;
    // The captured payment of the order's current attempt, if any.
    Result<std::optional<CapturedPayment>> captureFor(const Order &order) const;

    // Reaching `paid`: balance credit, purchase order, logistics order, audit rows.
    Result<void> bookPaid(const Order &order, const CapturedPayment &payment,
                          const Actor &actor) const;

    // Reaching `refunded`: refund debit and the payment marked refunded.
    Result<void> bookRefund(const Order &order, const QString &channelTxnId,
                            const QString &refundKey, qint64 amountMinor, const QString &currency,
                            const QString &callbackId, const Actor &actor) const;

    // Money that really moved but cannot be kept (superseded attempt, rollback after
    // capture): flagged for refund, visible in the stuck view and reconciliation.
    Result<void> flagRefund(const QString &orderId, const QString &channel,
                            const QString &channelTxnId, qint64 amountMinor,
                            const QString &currency, const QString &sourceKey,
                            const QString &reason, const Actor &actor) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
