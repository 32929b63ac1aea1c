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
    QString refundId = QStringLiteral("re_3PabcdEFGHijkl0a1b2c3d4e");
    QString orderId;
    QString attemptId;
    qint64 amountMinor = 0; // minor units; whole units for zero-decimal currencies
    QString currency = QStringLiteral("usd"); // any case; Stripe sends lower case
    qint64 createdSeconds = 1719878400;
};

QByteArray paymentIntentSucceeded(const Params &p);
QByteArray paymentIntentFailed(const Params &p);
QByteArray paymentIntentProcessing(const Params &p);
QByteArray chargeRefunded(const Params &p); // full refund of amountMinor
// Any other type, with a payment intent as data.object (e.g. "payment_intent.created").
QByteArray eventOfType(const QString &type, const Params &p);

} // namespace OncePay::StripeEvents
