#include "fedapaysigner.h"

#include "channels/signature.h"

namespace OncePay {

QByteArray FedaPaySigner::signatureHeader(const QByteArray &body, const QList<QByteArray> &secrets,
                                          qint64 timestampSeconds)
{
    const QByteArray t = QByteArray::number(timestampSeconds);
    QByteArray header = "t=" + t;
    for (const QByteArray &secret : secrets)
        header += ",s=" + Signature::toHex(Signature::hmacSha256(secret, t + '.' + body));
    return header;
}

InboundRequest FedaPaySigner::sign(const QByteArray &body, const QByteArray &secret,
                                   qint64 timestampSeconds)
{
    return sign(body, QList<QByteArray>{secret}, timestampSeconds);
}

InboundRequest FedaPaySigner::sign(const QByteArray &body, const QList<QByteArray> &secrets,
                                   qint64 timestampSeconds)
{
    InboundRequest r;
    r.body = body;
    r.addHeader("Content-Type", "application/json");
    r.addHeader("X-FEDAPAY-SIGNATURE", signatureHeader(body, secrets, timestampSeconds));
    return r;
}

} // namespace OncePay
