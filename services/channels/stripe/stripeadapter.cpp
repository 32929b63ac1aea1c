#include "stripeadapter.h"

#include "channels/channeljson.h"
#include "channels/signature.h"

#include <QJsonArray>

namespace OncePay {

Result<qint64> StripeAdapter::isoMinorUnits(qint64 stripeAmount, const QString &currency)
{
    // Stripe's currencies guide, "Special cases": ISK and UGX became zero-decimal, but for
    // backwards compatibility Stripe still counts them in hundredths, always ending in 00
    // (500 is 5 kr). HUF and TWD are zero-decimal only for payouts; their charges and refunds
    // are two-decimal, as ISO 4217 and OncePay count them.
    if (currency != QLatin1String("ISK") && currency != QLatin1String("UGX"))
        return stripeAmount;
    if (stripeAmount % 100 != 0)
        return ChannelJson::badAmount(
            QStringLiteral("%1 is not a whole number of %2: Stripe counts this currency in "
                           "hundredths, always ending in 00")
                .arg(stripeAmount)
                .arg(currency));
    return stripeAmount / 100;
}

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
    } else if (type == QLatin1String("payment_intent.payment_failed") ||
               type == QLatin1String("payment_intent.canceled")) {
        // A canceled intent will never capture: the attempt failed, the order leaves paying.
        cb.kind = CallbackKind::PaymentFailed;
        amountField = QStringLiteral("amount");
    } else if (type == QLatin1String("payment_intent.processing")) {
        cb.kind = CallbackKind::PaymentPending;
        amountField = QStringLiteral("amount");
    } else if (type == QLatin1String("charge.refunded")) {
        // Sent for partial refunds too; amount_refunded is the charge's running total.
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
    auto iso = isoMinorUnits(*amount, *currency);
    if (!iso)
        return makeError(iso.error().code,
                         QStringLiteral("stripe %1: %2").arg(amountField, iso.error().message),
                         iso.error().reason);
    cb.currency = *currency;
    cb.amountMinor = *iso;
    cb.hasAmount = true;
    if (cb.kind == CallbackKind::Refunded)
        cb.refundId = cumulativeRefundId(objectId, cb.amountMinor);
    return cb;
}

} // namespace OncePay
