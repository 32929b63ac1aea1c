#include "stripesigner.h"

#include "channels/signature.h"

namespace OncePay {

QByteArray StripeSigner::signatureHeader(const QByteArray &body, const QList<QByteArray> &secrets,
                                         qint64 timestampSeconds)
{
    const QByteArray t = QByteArray::number(timestampSeconds);
    QByteArray header = "t=" + t;
    for (const QByteArray &secret : secrets)
        header += ",v1=" + Signature::toHex(Signature::hmacSha256(secret, t + '.' + body));
    return header;
}

InboundRequest StripeSigner::sign(const QByteArray &body, const QByteArray &secret,
                                  qint64 timestampSeconds)
{
    return sign(body, QList<QByteArray>{secret}, timestampSeconds);
}

InboundRequest StripeSigner::sign(const QByteArray &body, const QList<QByteArray> &secrets,
                                  qint64 timestampSeconds)
{
    InboundRequest r;
    r.body = body;
    r.addHeader("Content-Type", "application/json; charset=utf-8");
    r.addHeader("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)");
    r.addHeader("Stripe-Signature", signatureHeader(body, secrets, timestampSeconds));
    return r;
}

} // namespace OncePay
