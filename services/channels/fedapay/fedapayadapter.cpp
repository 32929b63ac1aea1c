#include "fedapayadapter.h"

#include "channels/channeljson.h"
#include "channels/signature.h"

#include <QDateTime>

namespace OncePay {

namespace {

// FedaPay's currency ids as its API numbers them; the entity normally carries the
// currency object too, which wins.
QString currencyForId(const QString &id)
{
    if (id == QLatin1String("1"))
        return QStringLiteral("XOF");
    return {};
}

qint64 isoToMs(const QJsonValue &value)
{
    const QDateTime t = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toMSecsSinceEpoch() : 0;
}

} // namespace

FedaPayAdapter::FedaPayAdapter(ChannelSettings settings)
    : m_settings(std::move(settings))
{}

QString FedaPayAdapter::signatureScheme()
{
    return QStringLiteral("%1: t=<unix seconds>,s=<hex HMAC-SHA256 of \"t.body\" under a webhook "
                          "secret>; timestamp within the tolerance window")
        .arg(QLatin1String(kSignatureHeader));
}

Result<void> FedaPayAdapter::verify(const InboundRequest &request, qint64 nowMs) const
{
    return Signature::verifyTimestampedHmac(request, kSignatureHeader, "s", m_settings.secrets,
                                            nowMs, m_settings.toleranceMs, name());
}

Result<NormalizedCallback> FedaPayAdapter::parse(const InboundRequest &request) const
{
    using namespace ChannelJson;
    auto doc = ChannelJson::parse(request.body);
    if (!doc)
        return Signature::prefixed(name(), doc.error());
    const QString type = doc->root.value(QLatin1String("name")).toString();
    const QJsonValue entityValue = doc->root.value(QLatin1String("entity"));
    const QString entityId = doc->idString(QStringLiteral("entity.id"));
    if (type.isEmpty() || !entityValue.isObject() || entityId.isEmpty())
        return malformed(QStringLiteral("fedapay: event lacks name, entity or entity.id"));
    const QJsonObject entity = entityValue.toObject();

    NormalizedCallback cb;
    cb.channel = name();
    const QString ownId = doc->idString(QStringLiteral("id"));
    cb.channelEventId = ownId.isEmpty() ? QString(type + u':' + entityId) : ownId;
    cb.callbackId = QStringLiteral("fedapay:") + cb.channelEventId;
    cb.channelEventType = type;
    cb.channelTxnId = entityId;
    const QJsonObject custom = entity.value(QLatin1String("custom_metadata")).toObject();
    cb.orderRef = custom.value(QLatin1String("order_id")).toString();
    if (cb.orderRef.isEmpty())
        cb.orderRef = entity.value(QLatin1String("merchant_reference")).toString();
    cb.attemptRef = custom.value(QLatin1String("attempt_id")).toString();

    QString timeField = QStringLiteral("updated_at");
    if (type == QLatin1String("transaction.approved")) {
        cb.kind = CallbackKind::PaymentSucceeded;
        timeField = QStringLiteral("approved_at");
    } else if (type == QLatin1String("transaction.declined")) {
        cb.kind = CallbackKind::PaymentFailed;
        timeField = QStringLiteral("declined_at");
    } else if (type == QLatin1String("transaction.canceled")) {
        cb.kind = CallbackKind::PaymentFailed;
        timeField = QStringLiteral("canceled_at");
    } else if (type == QLatin1String("transaction.refunded")) {
        cb.kind = CallbackKind::Refunded;
        cb.refundId = entityId; // FedaPay refunds the whole transaction
        timeField = QStringLiteral("refunded_at");
    } else {
        cb.kind = CallbackKind::Other;
        cb.skipReason = QStringLiteral("unhandled event type ") + type.left(100);
        cb.occurredAtMs = isoToMs(entity.value(timeField));
        return cb;
    }
    cb.occurredAtMs = isoToMs(entity.value(timeField));
    if (cb.occurredAtMs == 0)
        cb.occurredAtMs = isoToMs(entity.value(QLatin1String("updated_at")));

    const QString klass = entity.value(QLatin1String("klass")).toString();
    if (!klass.isEmpty() && klass != QLatin1String("v1/transaction"))
        return malformed(QStringLiteral("fedapay: %1 carries a %2, not a v1/transaction")
                             .arg(type.left(100), klass.left(40)));

    QJsonValue iso = entity.value(QLatin1String("currency")).toObject().value(QLatin1String("iso"));
    if (iso.isUndefined())
        iso = currencyForId(doc->idString(QStringLiteral("entity.currency_id")));
    auto currency = currencyCode(iso);
    if (!currency)
        return Signature::prefixed(name(), currency.error());
    auto amount =
        doc->nonNegativeInteger(QStringLiteral("entity.amount"), QStringLiteral("fedapay amount"));
    if (!amount)
        return amount.error();
    cb.currency = *currency;
    cb.amountMinor = *amount;
    cb.hasAmount = true;
    return cb;
}

} // namespace OncePay
