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

// A row of `payments` as the refund path reads it.
struct RecordedPayment {
    QString orderId;
    QString channel;
    QString channelTxnId;
    qint64 amountMinor = 0; // captured
    QString currency;
    QString status; // "captured" (also when partly refunded) or "refunded" (all of it)
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

    // The payment recorded for (channel, txn), if any.
    Result<std::optional<RecordedPayment>> paymentOf(const QString &channel,
                                                     const QString &channelTxnId) const;
    // The running refunded total of a payment: the refund debits booked for (channel, txn),
    // as a positive amount in the payment's currency.
    Result<qint64> refundedTotal(const QString &channel, const QString &channelTxnId) const;
    // Whether a ledger entry with this key exists (a refund already booked).
    Result<bool> ledgerEntryKnown(const QString &entryKey) const;

    // One refund of `payment`, partial or the last part: the refund debit under `entryKey`
    // ("refund:<channel>:<refund id>", one per refund) for `amountMinor` in the payment's
    // currency; `refundedTotal` is the payment's total refunded with it, and the payment is
    // marked refunded when that reaches the captured amount. The caller has checked the
    // currency and that the total does not pass the capture.
    Result<void> bookRefund(const Order &order, const RecordedPayment &payment,
                            const QString &entryKey, qint64 amountMinor, qint64 refundedTotal,
                            const QString &callbackId, const Actor &actor) const;

    // The whole payment refunded before anything was booked for it (paid_unconfirmed): the
    // payment marked refunded and an audit row; no ledger entry, as nothing was credited.
    Result<void> markRefunded(const Order &order, const RecordedPayment &payment,
                              const QString &callbackId, const Actor &actor) const;

    // Money that really moved but cannot be kept (superseded attempt, rollback after
    // capture): flagged for refund, visible in the stuck view and reconciliation.
    // True when flagged now; false when this money (or this source) was flagged before.
    Result<bool> flagRefund(const QString &orderId, const QString &channel,
                            const QString &channelTxnId, qint64 amountMinor,
                            const QString &currency, const QString &sourceKey,
                            const QString &reason, const Actor &actor) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
