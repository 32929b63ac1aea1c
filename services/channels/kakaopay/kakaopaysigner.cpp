#include "kakaopaysigner.h"

#include "channels/signature.h"
#include "kakaopayadapter.h"

#include <QRandomGenerator>

namespace OncePay {

QByteArray KakaoPaySigner::signatureHeader(const QByteArray &body, const QByteArray &webhookId,
                                           qint64 timestampSeconds,
                                           const QList<QByteArray> &secrets)
{
    const QByteArray payload = webhookId + '.' + QByteArray::number(timestampSeconds) + '.' + body;
    QList<QByteArray> entries;
    for (const QByteArray &secret : secrets) {
        const QByteArray key =
            KakaoPayAdapter::keyFromSecret(QString::fromUtf8(secret)).value_or(secret);
        entries << "v1," + Signature::toBase64(Signature::hmacSha256(key, payload));
    }
    return entries.join(' ');
}

InboundRequest KakaoPaySigner::sign(const QByteArray &body, const QByteArray &secret,
                                    const QByteArray &webhookId, qint64 timestampSeconds)
{
    return sign(body, QList<QByteArray>{secret}, webhookId, timestampSeconds);
}

InboundRequest KakaoPaySigner::sign(const QByteArray &body, const QList<QByteArray> &secrets,
                                    const QByteArray &webhookId, qint64 timestampSeconds)
{
    InboundRequest r;
    r.body = body;
    r.addHeader("Content-Type", "application/json");
    r.addHeader("webhook-id", webhookId);
    r.addHeader("webhook-timestamp", QByteArray::number(timestampSeconds));
    r.addHeader("webhook-signature", signatureHeader(body, webhookId, timestampSeconds, secrets));
    return r;
}

QByteArray KakaoPaySigner::generateSecret()
{
    QByteArray key(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(key.data()), key.size() / 4);
    return "whsec_" + Signature::toBase64(key);
}

} // namespace OncePay
