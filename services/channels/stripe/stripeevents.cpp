#include "stripeevents.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay::StripeEvents {

namespace {

QJsonObject metadata(const Params &p)
{
    return QJsonObject{{"order_id", p.orderId}, {"attempt_id", p.attemptId}};
}

QJsonObject paymentIntent(const Params &p, const QString &status, qint64 received)
{
    QJsonObject lastError;
    if (status == QLatin1String("requires_payment_method"))
        lastError = QJsonObject{{"code", "card_declined"},
                                {"decline_code", "generic_decline"},
                                {"message", "Your card was declined."},
                                {"type", "card_error"}};
    return QJsonObject{
        {"id", p.paymentIntentId},
        {"object", "payment_intent"},
        {"amount", p.amountMinor},
        {"amount_capturable", 0},
        {"amount_received", received},
        {"capture_method", "automatic_async"},
        {"client_secret", QString(p.paymentIntentId + QStringLiteral("_secret_Xyz"))},
        {"confirmation_method", "automatic"},
        {"created", p.createdSeconds - 30},
        {"currency", p.currency.toLower()},
        {"customer", QJsonValue::Null},
        {"description", QJsonValue::Null},
        {"last_payment_error", lastError.isEmpty() ? QJsonValue(QJsonValue::Null) : lastError},
        {"latest_charge", status == QLatin1String("succeeded") ? QJsonValue(p.chargeId)
                                                               : QJsonValue(QJsonValue::Null)},
        {"livemode", false},
        {"metadata", metadata(p)},
        {"payment_method_types", QJsonArray{"card"}},
        {"status", status},
    };
}

QByteArray event(const QString &type, const QJsonObject &object, const Params &p)
{
    const QJsonObject root{
        {"id", p.eventId},
        {"object", "event"},
        {"api_version", "2024-06-20"},
        {"created", p.createdSeconds},
        {"data", QJsonObject{{"object", object}}},
        {"livemode", false},
        {"pending_webhooks", 1},
        {"request", QJsonObject{{"id", "req_8fYHwq0pD1XaZc"}, {"idempotency_key", p.attemptId}}},
        {"type", type},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace

QByteArray paymentIntentSucceeded(const Params &p)
{
    return event(QStringLiteral("payment_intent.succeeded"),
                 paymentIntent(p, QStringLiteral("succeeded"), p.amountMinor), p);
}

QByteArray paymentIntentFailed(const Params &p)
{
    return event(QStringLiteral("payment_intent.payment_failed"),
                 paymentIntent(p, QStringLiteral("requires_payment_method"), 0), p);
}

QByteArray paymentIntentProcessing(const Params &p)
{
    return event(QStringLiteral("payment_intent.processing"),
                 paymentIntent(p, QStringLiteral("processing"), 0), p);
}

QByteArray paymentIntentCanceled(const Params &p)
{
    QJsonObject intent = paymentIntent(p, QStringLiteral("canceled"), 0);
    intent.insert("canceled_at", p.createdSeconds);
    intent.insert("cancellation_reason", "abandoned");
    return event(QStringLiteral("payment_intent.canceled"), intent, p);
}

QByteArray eventOfType(const QString &type, const Params &p)
{
    return event(type, paymentIntent(p, QStringLiteral("requires_payment_method"), 0), p);
}

QByteArray chargeRefunded(const Params &p)
{
    const qint64 refunded = p.amountRefunded < 0 ? p.amountMinor : p.amountRefunded;
    const QJsonObject charge{
        {"id", p.chargeId},
        {"object", "charge"},
        {"amount", p.amountMinor},
        {"amount_captured", p.amountMinor},
        {"amount_refunded", refunded},
        {"captured", true},
        {"created", p.createdSeconds - 3600},
        {"currency", p.currency.toLower()},
        {"metadata", metadata(p)},
        {"paid", true},
        {"payment_intent", p.paymentIntentId},
        {"refunded", refunded >= p.amountMinor},
        {"status", "succeeded"},
    };
    return event(QStringLiteral("charge.refunded"), charge, p);
}

} // namespace OncePay::StripeEvents
