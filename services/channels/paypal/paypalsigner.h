#pragma once

// Plays PayPal for the tests, the simulator and the benchmarks only: generates an RSA-2048
// key and a self-signed certificate for it (CN=messageverificationcerts.paypal.com, valid
// 2000–2099 so that any test clock fits), writes the certificate where the adapter's
// cert_file points, and signs bodies exactly as PayPal does:
//   PAYPAL-TRANSMISSION-SIG = base64(RSA-SHA256("{id}|{time}|{webhook_id}|{crc32(body)}"))
// Usage:
//   PayPalSigner signer;                         // a new key per instance (~0.1 s)
//   signer.writeCertificate(dir + "/paypal.pem"); // → ChannelSettings.extra["cert_file"]
//   InboundRequest req = signer.sign(body, "8PT597110X687430LKGECATA", nowMs);
// Thread contract: immutable after construction; sign() is safe from several threads.

#include "channels/inboundrequest.h"
#include "core/result.h"

#include <memory>

struct evp_pkey_st;

namespace OncePay {

class PayPalSigner {
public:
    PayPalSigner();
    ~PayPalSigner();
    PayPalSigner(const PayPalSigner &) = default;
    PayPalSigner &operator=(const PayPalSigner &) = default;

    bool isValid() const { return m_key && !m_certPem.isEmpty(); }
    QByteArray certificatePem() const { return m_certPem; }
    Result<void> writeCertificate(const QString &path) const;

    // Base64 RSA-SHA256 signature of the PayPal message for these fields.
    QByteArray signature(const QByteArray &body, const QByteArray &webhookId,
                         const QByteArray &transmissionId,
                         const QByteArray &transmissionTime) const;

    // The request as PayPal posts it, with all five PAYPAL-* headers. An empty
    // `transmissionId` gets a fresh UUID, as PayPal uses.
    InboundRequest sign(const QByteArray &body, const QByteArray &webhookId, qint64 timestampMs,
                        const QByteArray &transmissionId = {},
                        const QByteArray &certUrl = kDefaultCertUrl) const;

    // "2024-07-02T00:00:00Z": PayPal's transmission-time layout.
    static QByteArray transmissionTime(qint64 ms);

    static constexpr const char *kDefaultCertUrl =
        "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77";

private:
    std::shared_ptr<evp_pkey_st> m_key;
    QByteArray m_certPem;
};

} // namespace OncePay
