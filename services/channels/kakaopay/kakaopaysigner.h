#pragma once

// Signs a relayed KakaoPay result the way the platform's checkout service does (Standard
// Webhooks): webhook-id, webhook-timestamp and webhook-signature "v1,<base64 HMAC-SHA256
// of id.timestamp.body>", one entry per secret, space-separated. For the tests, the
// simulator, the benchmarks — and as the reference for the checkout team's relay.
// Thread contract: pure functions; safe from any thread.

#include "channels/inboundrequest.h"

#include <QList>

namespace OncePay {

class KakaoPaySigner {
public:
    // `secrets` as configured: "[whsec_]<base64>" (one that does not decode is used raw).
    static QByteArray signatureHeader(const QByteArray &body, const QByteArray &webhookId,
                                      qint64 timestampSeconds, const QList<QByteArray> &secrets);
    static InboundRequest sign(const QByteArray &body, const QByteArray &secret,
                               const QByteArray &webhookId, qint64 timestampSeconds);
    static InboundRequest sign(const QByteArray &body, const QList<QByteArray> &secrets,
                               const QByteArray &webhookId, qint64 timestampSeconds);
    // A fresh "whsec_" secret of 24 random bytes.
    static QByteArray generateSecret();
};

} // namespace OncePay
