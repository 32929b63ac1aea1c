#pragma once

// Signs a body the way Stripe does, for the tests, the simulator and the benchmarks only:
// `Stripe-Signature: t={timestamp},v1={hex HMAC-SHA256(secret, "{t}.{body}")}` with one v1
// per secret (as Stripe does while an old secret is still rolling).
// Thread contract: pure functions; safe from any thread.

#include "channels/inboundrequest.h"

#include <QList>

namespace OncePay {

class StripeSigner {
public:
    static QByteArray signatureHeader(const QByteArray &body, const QList<QByteArray> &secrets,
                                      qint64 timestampSeconds);
    // The request as Stripe posts it: the body plus Stripe-Signature and Content-Type.
    static InboundRequest sign(const QByteArray &body, const QByteArray &secret,
                               qint64 timestampSeconds);
    static InboundRequest sign(const QByteArray &body, const QList<QByteArray> &secrets,
                               qint64 timestampSeconds);
};

} // namespace OncePay
