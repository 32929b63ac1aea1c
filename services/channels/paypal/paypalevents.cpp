#include "paypalevents.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay::PayPalEvents {

namespace {

const QString kApi = QStringLiteral("https://api.paypal.com");

QString iso(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

QJsonObject money(const QString &value, const QString &currency)
{
    return QJsonObject{{"currency_code", currency}, {"value", value}};
}

QJsonObject link(const QString &href, const char *rel, const char *method)
{
    return QJsonObject{{"href", href}, {"rel", rel}, {"method", method}};
}

QString statusFor(const QString &eventType)
{
    const QString tail = eventType.section(u'.', -1);
    return tail == QLatin1String("REVERSED") || tail == QLatin1String("REFUNDED")
               ? QStringLiteral("COMPLETED")
               : tail;
}

QByteArray envelope(const QString &eventType, const char *resourceType, const QJsonObject &resource,
                    const Params &p)
{
    const QString self = kApi + QStringLiteral("/v1/notifications/webhooks-events/") + p.eventId;
    const QJsonObject root{
        {"id", p.eventId},
        {"create_time", QString(iso(p.createTimeMs).chopped(1) + QStringLiteral(".123Z"))},
        {"resource_type", resourceType},
        {"event_type", eventType},
        {"summary", QStringLiteral("Payment %1 for %2 %3")
                        .arg(statusFor(eventType).toLower(), p.value, p.currency)},
        {"resource", resource},
        {"links", QJsonArray{link(self, "self", "GET"),
                             link(self + QStringLiteral("/resend"), "resend", "POST")}},
        {"event_version", "1.0"},
        {"resource_version", "2.0"},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

} // namespace

QByteArray captureEvent(const QString &eventType, const Params &p)
{
    const QString capture = kApi + QStringLiteral("/v2/payments/captures/") + p.captureId;
    QJsonObject resource{
        {"id", p.captureId},
        {"status", statusFor(eventType)},
        {"amount", money(p.value, p.currency)},
        {"final_capture", true},
        {"seller_protection",
         QJsonObject{
             {"status", "ELIGIBLE"},
             {"dispute_categories", QJsonArray{"ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"}}}},
        {"supplementary_data",
         QJsonObject{{"related_ids", QJsonObject{{"order_id", p.paypalOrderId}}}}},
        {"seller_receivable_breakdown", QJsonObject{{"gross_amount", money(p.value, p.currency)},
                                                    {"paypal_fee", money(p.fee, p.currency)}}},
        {"custom_id", p.orderId},
        {"invoice_id", p.attemptId},
        {"create_time", iso(p.createTimeMs - 5000)},
        {"update_time", iso(p.createTimeMs - 5000)},
        {"links", QJsonArray{link(capture, "self", "GET"),
                             link(capture + QStringLiteral("/refund"), "refund", "POST"),
                             link(kApi + QStringLiteral("/v2/checkout/orders/") + p.paypalOrderId,
                                  "up", "GET")}},
    };
    if (eventType.endsWith(QLatin1String(".PENDING")))
        resource.insert("status_details", QJsonObject{{"reason", "PENDING_REVIEW"}});
    return envelope(eventType, "capture", resource, p);
}

QByteArray captureCompleted(const Params &p)
{
    return captureEvent(QStringLiteral("PAYMENT.CAPTURE.COMPLETED"), p);
}

QByteArray refundEvent(const QString &eventType, const Params &p)
{
    const QString refund = kApi + QStringLiteral("/v2/payments/refunds/") + p.refundId;
    QJsonObject resource{
        {"id", p.refundId},
        {"status", "COMPLETED"},
        {"amount", money(p.value, p.currency)},
        {"note_to_payer", eventType.endsWith(QLatin1String("REVERSED")) ? "Payment reversed"
                                                                        : "Refund for the order"},
        {"seller_payable_breakdown",
         QJsonObject{{"gross_amount", money(p.value, p.currency)},
                     {"paypal_fee", money(QStringLiteral("0"), p.currency)},
                     {"net_amount", money(p.value, p.currency)},
                     {"total_refunded_amount", money(p.value, p.currency)}}},
        {"create_time", iso(p.createTimeMs - 3000)},
        {"update_time", iso(p.createTimeMs - 3000)},
        {"links", QJsonArray{link(refund, "self", "GET"),
                             link(kApi + QStringLiteral("/v2/payments/captures/") + p.captureId,
                                  "up", "GET")}},
    };
    // A refund made in PayPal's dashboard carries no custom_id (nor, often, invoice_id).
    if (!p.orderId.isEmpty())
        resource.insert("custom_id", p.orderId);
    if (!p.attemptId.isEmpty())
        resource.insert("invoice_id", p.attemptId);
    return envelope(eventType, "refund", resource, p);
}

QByteArray approvalReversed(const Params &p)
{
    // As PayPal's sample: the resource is no capture but the order, with its purchase unit.
    const QJsonObject root{
        {"id", p.eventId},
        {"create_time", QString(iso(p.createTimeMs).chopped(1) + QStringLiteral(".000Z"))},
        {"resource_type", "checkout-order"},
        {"event_type", "CHECKOUT.PAYMENT-APPROVAL.REVERSED"},
        {"summary", "A payment has been reversed after approval."},
        {"resource",
         QJsonObject{
             {"order_id", p.paypalOrderId},
             {"purchase_units", QJsonArray{QJsonObject{{"reference_id", "default"},
                                                       {"custom_id", p.orderId},
                                                       {"invoice_id", p.attemptId}}}},
             {"payment_source", QJsonObject{{"ideal", QJsonObject{{"name", "Jan de Vries"},
                                                                  {"country_code", "NL"}}}}}}},
        {"event_version", "1.0"},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

} // namespace OncePay::PayPalEvents
