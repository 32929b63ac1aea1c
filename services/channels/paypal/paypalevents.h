#pragma once

// Realistic PayPal v2 capture webhook events (the layout of PayPal's webhook event
// reference: id WH-…, event_version 1.0, resource_version 2.0, resource = capture or
// refund with links) for the tests, the simulator and the benchmarks. Our order goes in
// custom_id and our attempt in invoice_id, as the platform's checkout sets them.
// Thread contract: pure functions; safe from any thread.

#include <QByteArray>
#include <QString>

namespace OncePay::PayPalEvents {

struct Params {
    QString eventId = QStringLiteral("WH-58D329510W468432D-8HN650336L201105X");
    QString captureId = QStringLiteral("29Y24445UY2083144");
    QString refundId = QStringLiteral("55105082X5896632E");
    QString paypalOrderId = QStringLiteral("89T257400V0473133");
    QString orderId;                         // custom_id
    QString attemptId;                       // invoice_id
    QString value = QStringLiteral("21.12"); // decimal string as PayPal sends it
    QString currency = QStringLiteral("USD");
    QString fee = QStringLiteral("0.93");
    qint64 createTimeMs = 1719878400000;
};

// PAYMENT.CAPTURE.COMPLETED / DENIED / PENDING (or any type) with a capture resource.
QByteArray captureEvent(const QString &eventType, const Params &p);
QByteArray captureCompleted(const Params &p);
// PAYMENT.CAPTURE.REFUNDED / REVERSED with a refund resource linking up to the capture;
// without custom_id / invoice_id when orderId / attemptId are empty (a dashboard refund).
QByteArray refundEvent(const QString &eventType, const Params &p);
// CHECKOUT.PAYMENT-APPROVAL.REVERSED: approved but not captured in time, PayPal cancelled
// the order (paypalOrderId); our order and attempt on its purchase unit.
QByteArray approvalReversed(const Params &p);

} // namespace OncePay::PayPalEvents
