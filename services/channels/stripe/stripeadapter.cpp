#include "stripeadapter.h"

#include "channels/channeljson.h"
#include "channels/signature.h"

#include <QJsonArray>

namespace OncePay {

StripeAdapter::StripeAdapter(ChannelSettings settings)
    : m_settings(std::move(settings))
{}

QString StripeAdapter::signatureScheme()
{
    return QStringLiteral("%1: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"t.body\" under a webhook "
                          "signing secret>; timestamp within the tolerance window")
        .arg(QLatin1String(kSignatureHeader));
}

Result<void> StripeAdapter::verify(const InboundRequest &request, qint64 nowMs) const
{
    return Signature::verifyTimestampedHmac(request, kSignatureHeader, "v1", m_settings.secrets,
                                            nowMs, m_settings.toleranceMs, name());
}

Result<NormalizedCallback> StripeAdapter::parse(const InboundRequest &request) const
{
    using namespace ChannelJson;
    auto doc = ChannelJson::parse(request.body);
    if (!doc)
        return doc.error();
    const QJsonObject *root = &doc->root;
    const QString eventId = root->value(QLatin1String("id")).toString();
    const QString type = root->value(QLatin1String("type")).toString();
    const QJsonValue objectValue =
        root->value(QLatin1String("data")).toObject().value(QLatin1String("object"));
    if (eventId.isEmpty() || type.isEmpty() || !objectValue.isObject())
        return malformed(QStringLiteral("stripe: event lacks id, type or data.object"));
    const QJsonObject object = objectValue.toObject();

    NormalizedCallback cb;
    cb.channel = name();
    cb.channelEventId = eventId;
    cb.callbackId = QStringLiteral("stripe:") + eventId;
    cb.channelEventType = type;
    const QJsonObject metadata = object.value(QLatin1String("metadata")).toObject();
    cb.orderRef = metadata.value(QLatin1String("order_id")).toString();
    cb.attemptRef = metadata.value(QLatin1String("attempt_id")).toString();
    const QJsonValue created = root->value(QLatin1String("created"));
    if (!created.isUndefined()) {
        auto seconds =
            doc->nonNegativeInteger(QStringLiteral("created"), QStringLiteral("created"));
        if (!seconds || *seconds > 99'999'999'999LL)
            return malformed(QStringLiteral("stripe: created is not a unix timestamp"));
        cb.occurredAtMs = *seconds * 1000;
    }

    QString amountField;
    if (type == QLatin1String("payment_intent.succeeded")) {
        cb.kind = CallbackKind::PaymentSucceeded;
        amountField = object.contains(QLatin1String("amount_received")) &&
                              !object.value(QLatin1String("amount_received")).isNull()
                          ? QStringLiteral("amount_received")
                          : QStringLiteral("amount");
    } else if (type == QLatin1String("payment_intent.payment_failed")) {
        cb.kind = CallbackKind::PaymentFailed;
        amountField = QStringLiteral("amount");
    } else if (type == QLatin1String("payment_intent.processing")) {
        cb.kind = CallbackKind::PaymentPending;
        amountField = QStringLiteral("amount");
    } else if (type == QLatin1String("charge.refunded")) {
        cb.kind = CallbackKind::Refunded;
        amountField = QStringLiteral("amount_refunded");
    } else {
        cb.kind = CallbackKind::Other;
        cb.skipReason = QStringLiteral("unhandled event type ") + type.left(100);
        cb.channelTxnId = object.value(QLatin1String("id")).toString();
        return cb;
    }

    const QString objectId = object.value(QLatin1String("id")).toString();
    if (objectId.isEmpty())
        return malformed(QStringLiteral("stripe: data.object has no id"));
    if (cb.kind == CallbackKind::Refunded) {
        // A charge: the payment intent is what the order was paid with.
        const QString intent = object.value(QLatin1String("payment_intent")).toString();
        cb.channelTxnId = intent.isEmpty() ? objectId : intent;
        const QJsonArray refunds = object.value(QLatin1String("refunds"))
                                       .toObject()
                                       .value(QLatin1String("data"))
                                       .toArray();
        const QString refundId =
            refunds.isEmpty() ? QString()
                              : refunds.first().toObject().value(QLatin1String("id")).toString();
        cb.refundId = refundId.isEmpty() ? objectId : refundId;
    } else {
        cb.channelTxnId = objectId;
    }

    auto currency = currencyCode(object.value(QLatin1String("currency")));
    if (!currency)
        return makeError(currency.error().code,
                         QStringLiteral("stripe: ") + currency.error().message,
                         currency.error().reason);
    auto amount = doc->nonNegativeInteger(QStringLiteral("data.object.") + amountField,
                                          QStringLiteral("stripe ") + amountField);
    if (!amount)
        return amount.error();
    cb.currency = *currency;
    cb.amountMinor = *amount;
    cb.hasAmount = true;
    return cb;
}

} // namespace OncePay
