#pragma once

// Signs a body the way FedaPay does, for the tests, the simulator and the benchmarks only:
// `X-FEDAPAY-SIGNATURE: t={timestamp},s={hex HMAC-SHA256(secret, "{t}.{body}")}`, one `s`
// per secret.
// Thread contract: pure functions; safe from any thread.

#include "channels/inboundrequest.h"

#include <QList>

namespace OncePay {

class FedaPaySigner {
public:
    static QByteArray signatureHeader(const QByteArray &body, const QList<QByteArray> &secrets,
                                      qint64 timestampSeconds);
    static InboundRequest sign(const QByteArray &body, const QByteArray &secret,
                               qint64 timestampSeconds);
    static InboundRequest sign(const QByteArray &body, const QList<QByteArray> &secrets,
                               qint64 timestampSeconds);
};

} // namespace OncePay
