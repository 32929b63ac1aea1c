#pragma once

// A channel's webhook after verification and parsing: the same shape for every channel
// (DESIGN.md §3), which is all the ingest and the worker ever see.
// Thread contract: plain value.

#include "inboundrequest.h"

#include <QString>

namespace OncePay {

enum class CallbackKind {
    PaymentSucceeded, // money captured
    PaymentFailed,    // the attempt failed (declined, canceled)
    PaymentPending,   // informational: still pending at the channel
    Refunded,         // money returned to the customer (a refund, partial or full, or a reversal)
    Other,            // authentic, but not an event OncePay acts on: stored as skipped
};

QString callbackKindName(CallbackKind kind); // "payment_succeeded", ...
bool parseCallbackKind(const QString &name, CallbackKind *out);

// A refund a channel reports as the payment's running refunded total rather than as one refund
// (Stripe's charge.refunded carries the charge's cumulative amount_refunded and, since API
// 2022-11-15, no refund list): the adapter sets amountMinor to that total and refundId to
// cumulativeRefundId(basis, total) — "cumulative:<basis>:<total>" — and the worker books the
// difference to what is already booked for the payment, once per total; a total not above it
// is a stale or repeated report.
QString cumulativeRefundId(const QString &basis, qint64 totalMinor);
bool isCumulativeRefundId(const QString &refundId);

struct NormalizedCallback {
    QString channel;        // "stripe", "paypal", "fedapay", "kakaopay"
    QString channelEventId; // the channel's own event id (retries keep it)
    QString callbackId;     // channel + ':' + channelEventId — the dedup key
    CallbackKind kind = CallbackKind::Other;
    QString channelEventType; // as the channel names it ("payment_intent.succeeded")
    QString orderRef;         // our order id, from the channel's metadata
    QString attemptRef;       // our payment attempt (idempotency request id), from metadata
    QString channelTxnId;     // payment intent / capture / transaction id
    QString refundId;         // for Refunded: the channel's refund id (or cumulativeRefundId)
    bool hasAmount = false;
    qint64 amountMinor = 0;  // integer ISO-4217 minor units of `currency`
    QString currency;        // ISO-4217, upper case
    qint64 occurredAtMs = 0; // channel's event time, 0 if not given
    QString skipReason;      // for Other: why it is stored but not applied
};

} // namespace OncePay
