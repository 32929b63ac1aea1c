#pragma once

// PayPal webhooks (DESIGN.md §3), verified offline: PAYPAL-TRANSMISSION-SIG is the base64
// RSA-SHA256 signature (PAYPAL-AUTH-ALGO: SHA256withRSA) over
//   "{PAYPAL-TRANSMISSION-ID}|{PAYPAL-TRANSMISSION-TIME}|{our webhook_id}|{crc32(raw body)}"
// (CRC-32 in decimal), checked with the PayPal certificate configured locally — no network
// call. PAYPAL-CERT-URL must be https on paypal.com or a subdomain, else refused. PayPal
// documents no freshness window, so our own tolerance applies to the transmission time, in
// both directions.
// Events handled (v2 captures; amounts are decimal strings, "21.12" → 2112):
//   PAYMENT.CAPTURE.COMPLETED → PaymentSucceeded
//   PAYMENT.CAPTURE.DENIED, PAYMENT.CAPTURE.DECLINED → PaymentFailed
//   PAYMENT.CAPTURE.PENDING   → PaymentPending
//   PAYMENT.CAPTURE.REFUNDED, PAYMENT.CAPTURE.REVERSED → Refunded (resource is the refund;
//     the capture comes from its "up" link, the amount is this refund's own). A refund made
//     in PayPal's dashboard has no custom_id: orderRef is then empty and the capture id
//     (channelTxnId) is what names the payment.
//   CHECKOUT.PAYMENT-APPROVAL.REVERSED → PaymentFailed without an amount (approved, never
//     captured; PayPal cancels the order): order and attempt from the purchase unit's
//     custom_id / invoice_id, channelTxnId is PayPal's order id.
// CHECKOUT.ORDER.APPROVED/COMPLETED/SAVED and PAYMENT.AUTHORIZATION.CREATED/VOIDED → Other,
// "not a payment result"; anything else → Other, "unhandled event type". Our order travels
// in custom_id, our attempt in invoice_id; channelTxnId is the capture id.
// Settings (ChannelSettings::extra): webhook_id (our subscription id, not an event id),
// cert_file (PEM path; several comma-separated during PayPal's certificate rotation).
// Thread contract: immutable after construction (the certificates are read then); share
// freely between threads.

#include "channels/channeladapter.h"

#include <QJsonObject>

#include <memory>
#include <vector>

struct evp_pkey_st;

namespace OncePay {

class PayPalAdapter final : public ChannelAdapter {
public:
    explicit PayPalAdapter(ChannelSettings settings);
    ~PayPalAdapter() override;

    QString name() const override { return QStringLiteral("paypal"); }
    Result<void> verify(const InboundRequest &request, qint64 nowMs) const override;
    Result<NormalizedCallback> parse(const InboundRequest &request) const override;

    // How this channel signs a callback and what verify() checks (ChannelRegistry::
    // signatureScheme), in the channel's header names.
    static QString signatureScheme();

    // Why the adapter cannot verify (no webhook_id, unreadable certificate), or empty.
    QString configurationError() const { return m_configError; }

    // https, no user info, default port, host paypal.com or *.paypal.com.
    static bool isPayPalCertUrl(const QByteArray &url);

    static constexpr const char *kTransmissionId = "paypal-transmission-id";
    static constexpr const char *kTransmissionTime = "paypal-transmission-time";
    static constexpr const char *kTransmissionSig = "paypal-transmission-sig";
    static constexpr const char *kCertUrl = "paypal-cert-url";
    static constexpr const char *kAuthAlgo = "paypal-auth-algo";

private:
    static Result<NormalizedCallback> approvalReversed(NormalizedCallback cb,
                                                       const QJsonObject &resource);

    ChannelSettings m_settings;
    QByteArray m_webhookId;
    std::vector<std::shared_ptr<evp_pkey_st>> m_keys;
    QString m_configError;
};

} // namespace OncePay
