#pragma once

// Stripe webhooks (DESIGN.md §3): `Stripe-Signature: t=…,v1=…` where each v1 is the hex
// HMAC-SHA256 of "{t}.{raw body}" under a webhook signing secret ("whsec_…", used as is).
// Any v1 may match any configured secret (rotation). Events handled:
//   payment_intent.succeeded       → PaymentSucceeded (amount_received, else amount)
//   payment_intent.payment_failed  → PaymentFailed
//   payment_intent.processing      → PaymentPending
//   charge.refunded                → Refunded (amount_refunded; txn = the payment intent)
// anything else → Other with a skip reason. Our order and attempt travel in the payment
// intent's metadata (order_id, attempt_id). Amounts are already integer minor units
// (zero-decimal currencies such as JPY/KRW/XOF in whole units).
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

private:
    ChannelSettings m_settings;
};

} // namespace OncePay
