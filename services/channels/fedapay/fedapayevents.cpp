#include "fedapayevents.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay::FedaPayEvents {

namespace {

QJsonValue timeOrNull(bool set, qint64 ms)
{
    if (!set)
        return QJsonValue::Null;
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace

QByteArray transactionEvent(const QString &status, const Params &p)
{
    const qint64 created = p.timestampMs - 106'000;
    const bool approved =
        status == QLatin1String("approved") || status == QLatin1String("refunded");
    const QJsonObject currency{
        {"klass", "v1/currency"},
        {"id", 1},
        {"name", "FCFA"},
        {"iso", "XOF"},
        {"code", 952},
        {"prefix", QJsonValue::Null},
        {"suffix", "CFA"},
        {"div", 1},
        {"default", true},
        {"modes", QJsonValue::Null},
    };
    const QJsonObject entity{
        {"klass", "v1/transaction"},
        {"id", p.transactionId},
        {"reference", p.reference},
        {"amount", p.amount},
        {"description", QStringLiteral("Commande %1").arg(p.orderId)},
        {"callback_url", "https://checkout.example.com/fedapay/return"},
        {"status", status},
        {"customer_id", 25376},
        {"currency_id", 1},
        {"mode", "mtn_open"},
        {"operation", "payment"},
        {"metadata",
         QJsonObject{{"paid_customer", QJsonObject{{"firstname", "A"}, {"lastname", "K"}}}}},
        {"commission", "0.018"},
        {"fees", p.fees},
        {"fixed_commission", 0},
        {"amount_transferred", approved ? p.amount - p.fees : 0},
        {"created_at", timeOrNull(true, created)},
        {"updated_at", timeOrNull(true, p.timestampMs)},
        {"approved_at", timeOrNull(approved, status == QLatin1String("refunded") ? created + 60'000
                                                                                 : p.timestampMs)},
        {"canceled_at", timeOrNull(status == QLatin1String("canceled"), p.timestampMs)},
        {"declined_at", timeOrNull(status == QLatin1String("declined"), p.timestampMs)},
        {"refunded_at", timeOrNull(status == QLatin1String("refunded"), p.timestampMs)},
        {"transferred_at", QJsonValue::Null},
        {"deleted_at", QJsonValue::Null},
        {"last_error_code", status == QLatin1String("declined") ? QJsonValue("INSUFFICIENT_FUNDS")
                                                                : QJsonValue(QJsonValue::Null)},
        {"custom_metadata", QJsonObject{{"order_id", p.orderId}, {"attempt_id", p.attemptId}}},
        {"amount_debited", p.amount},
        {"receipt_url", QJsonValue::Null},
        {"payment_method_id", 79062},
        {"sub_accounts_commissions", QJsonValue::Null},
        {"transaction_key", "1803322096256732"},
        {"merchant_reference", p.orderId},
        {"account_id", 9976},
        {"balance_id", 236988},
        {"currency", currency},
    };
    const QJsonObject root{
        {"name", QString(QStringLiteral("transaction.") + status)},
        {"object", "transaction"},
        {"entity", entity},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

QByteArray approved(const Params &p)
{
    return transactionEvent(QStringLiteral("approved"), p);
}

QByteArray declined(const Params &p)
{
    return transactionEvent(QStringLiteral("declined"), p);
}

QByteArray canceled(const Params &p)
{
    return transactionEvent(QStringLiteral("canceled"), p);
}

QByteArray refunded(const Params &p)
{
    return transactionEvent(QStringLiteral("refunded"), p);
}

} // namespace OncePay::FedaPayEvents
