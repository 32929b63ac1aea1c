#pragma once

// Realistic Stripe event JSON (the layout of Stripe's API reference, api_version
// 2024-06-20) for the tests, the simulator and the benchmarks. Our order and attempt ids go
// into the payment intent's metadata exactly as the platform's checkout puts them there.
// Thread contract: pure functions; safe from any thread.

#include <QByteArray>
#include <QString>

namespace OncePay::StripeEvents {

struct Params {
    QString eventId = QStringLiteral("evt_3PabcdEFGHijkl0a1b2c3d4e");
    QString paymentIntentId = QStringLiteral("pi_3PabcdEFGHijkl0a1b2c3d4e");
    QString chargeId = QStringLiteral("ch_3PabcdEFGHijkl0a1b2c3d4e");
    // Not in charge.refunded since API 2022-11-15 (the charge no longer embeds its refunds);
    // kept for callers that name the refund they mean.
    QString refundId = QStringLiteral("re_3PabcdEFGHijkl0a1b2c3d4e");
    QString orderId;
    QString attemptId;
    // Stripe's integer: minor units; whole units for zero-decimal currencies; hundredths for
    // ISK and UGX (Stripe's special cases).
    qint64 amountMinor = 0;
    // charge.refunded: the charge's running refunded total (amount_refunded); negative means
    // all of amountMinor.
    qint64 amountRefunded = -1;
    QString currency = QStringLiteral("usd"); // any case; Stripe sends lower case
    qint64 createdSeconds = 1719878400;
};

QByteArray paymentIntentSucceeded(const Params &p);
QByteArray paymentIntentFailed(const Params &p);
QByteArray paymentIntentProcessing(const Params &p);
QByteArray paymentIntentCanceled(const Params &p);
// The charge after a refund, partial or full: amount_refunded is amountRefunded (all of
// amountMinor by default), `refunded` true only when all is refunded, no refund list.
QByteArray chargeRefunded(const Params &p);
// Any other type, with a payment intent as data.object (e.g. "payment_intent.created").
QByteArray eventOfType(const QString &type, const Params &p);

} // namespace OncePay::StripeEvents
