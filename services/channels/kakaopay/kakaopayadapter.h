#pragma once

// KakaoPay (DESIGN.md §3) sends no signed webhook: the platform's checkout service calls
// KakaoPay's approve (or cancel, or order-status) API and relays KakaoPay's JSON answer
// unchanged to OncePay, signed with our shared secret in the Standard Webhooks layout:
//   webhook-id: msg_…            (kept across the relay's retries — the dedup key)
//   webhook-timestamp: 1719878400
//   webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}"> [v1,… …]
// Secrets are base64 of the key, optionally prefixed "whsec_" (as Standard Webhooks issues
// them and its reference libraries read them). Several signatures and several secrets may
// be in play during rotation.
// Bodies understood:
//   approve result (aid, tid, partner_order_id, amount.total, approved_at)  → PaymentSucceeded
//   cancel result / status CANCEL_PAYMENT or PART_CANCEL_PAYMENT            → Refunded,
//     PART_CANCEL_PAYMENT a partial refund: a cancel result is one refund (amount =
//     approved_cancel_amount.total, refundId = the cancel's aid); an order status, which
//     has only canceled_amount (the running total cancelled), is a cumulative refund of the
//     tid (cumulativeRefundId)
//   status SUCCESS_PAYMENT → PaymentSucceeded; FAIL_PAYMENT, FAIL_AUTH_PASSWORD,
//   QUIT_PAYMENT → PaymentFailed; READY … ISSUED_SID → PaymentPending; others → Other.
// Our order is partner_order_id; the relay may add our attempt as a top-level
// "attempt_id". KakaoPay settles in KRW only; its times are KST without a zone.
// Thread contract: immutable after construction; share freely between threads.

#include "channels/channeladapter.h"

#include <QList>

namespace OncePay {

class KakaoPayAdapter final : public ChannelAdapter {
public:
    explicit KakaoPayAdapter(ChannelSettings settings);

    QString name() const override { return QStringLiteral("kakaopay"); }
    Result<void> verify(const InboundRequest &request, qint64 nowMs) const override;
    Result<NormalizedCallback> parse(const InboundRequest &request) const override;

    // How this channel signs a callback and what verify() checks (ChannelRegistry::
    // signatureScheme), in the channel's header names.
    static QString signatureScheme();

    static constexpr const char *kIdHeader = "webhook-id";
    static constexpr const char *kTimestampHeader = "webhook-timestamp";
    static constexpr const char *kSignatureHeader = "webhook-signature";

    // "[whsec_]<base64>" → the decoded key; nothing when the base64 is broken.
    static std::optional<QByteArray> keyFromSecret(const QString &secret);

private:
    ChannelSettings m_settings;
    QList<QByteArray> m_keys;
    int m_badSecrets = 0;
};

} // namespace OncePay
