#pragma once

// Stripe webhooks (DESIGN.md §3): `Stripe-Signature: t=…,v1=…` where each v1 is the hex
// HMAC-SHA256 of "{t}.{raw body}" under a webhook signing secret ("whsec_…", used as is).
// Any v1 may match any configured secret (rotation). Events handled:
//   payment_intent.succeeded       → PaymentSucceeded (amount_received, else amount)
//   payment_intent.payment_failed  → PaymentFailed
//   payment_intent.canceled        → PaymentFailed (the intent will never capture)
//   payment_intent.processing      → PaymentPending
//   charge.refunded                → Refunded, for partial refunds too: amount_refunded is the
//                                    charge's running total (cumulativeRefundId; txn = the
//                                    payment intent)
// anything else → Other with a skip reason. Our order and attempt travel in the payment
// intent's metadata (order_id, attempt_id). Stripe's integer amounts are minor units
// (zero-decimal currencies such as JPY/KRW/XOF in whole units), except ISK and UGX, which
// Stripe counts in hundredths of their ISO unit: isoMinorUnits converts.
// Thread contract: immutable after construction; share freely between threads.

#include "channels/channeladapter.h"

namespace OncePay {

class StripeAdapter final : public ChannelAdapter {
public:
    explicit StripeAdapter(ChannelSettings settings);

    QString name() const override { return QStringLiteral("stripe"); }
    Result<void> verify(const InboundRequest &request, qint64 nowMs) const override;
    Result<NormalizedCallback> parse(const InboundRequest &request) const override;

    // How this channel signs a callback and what verify() checks (ChannelRegistry::
    // signatureScheme), in the channel's header names.
    static QString signatureScheme();

    static constexpr const char *kSignatureHeader = "stripe-signature";

    // Stripe's amount in ISO-4217 minor units of `currency` (upper case): ISK and UGX divided
    // by 100, a remainder refused (bad_amount); every other currency as it is.
    static Result<qint64> isoMinorUnits(qint64 stripeAmount, const QString &currency);

private:
    ChannelSettings m_settings;
};

} // namespace OncePay
