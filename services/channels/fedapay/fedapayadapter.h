#pragma once

// FedaPay webhooks (DESIGN.md §3): `X-FEDAPAY-SIGNATURE: t=…,s=…`, each `s` the hex
// HMAC-SHA256 of "{t}.{raw body}" under the webhook's secret — Stripe's construction with
// the key `s`. The body is {"name": "transaction.approved", "object": "transaction",
// "entity": {"klass": "v1/transaction", "id": 250828, "amount": 9113, "currency_id": 1, ...}}:
//   transaction.approved                      → PaymentSucceeded
//   transaction.declined, transaction.canceled → PaymentFailed
//   transaction.refunded                      → Refunded (whole transaction)
// anything else → Other with a skip reason. Amounts are integers in the currency's unit
// (XOF has no minor unit). Our order and attempt travel in entity.custom_metadata
// (order_id, attempt_id); merchant_reference stands in for a missing order_id.
// FedaPay sends no event id, so the event id is "{name}:{entity.id}": a retry of the same
// notification keeps it, and a transaction reaches each state once.
// Thread contract: immutable after construction; share freely between threads.

#include "channels/channeladapter.h"

namespace OncePay {

class FedaPayAdapter final : public ChannelAdapter {
public:
    explicit FedaPayAdapter(ChannelSettings settings);

    QString name() const override { return QStringLiteral("fedapay"); }
    Result<void> verify(const InboundRequest &request, qint64 nowMs) const override;
    Result<NormalizedCallback> parse(const InboundRequest &request) const override;

    // How this channel signs a callback and what verify() checks (ChannelRegistry::
    // signatureScheme), in the channel's header names.
    static QString signatureScheme();

    static constexpr const char *kSignatureHeader = "x-fedapay-signature";

private:
    ChannelSettings m_settings;
};

} // namespace OncePay
