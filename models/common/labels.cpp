#include "labels.h"

#include "core/money.h"

#include <QCoreApplication>
#include <QDateTime>

namespace OncePay::Labels {

QString orderState(const QString &code)
{
    if (code == u"pending_payment")
        return QCoreApplication::translate("OncePay::Labels", "pending payment");
    if (code == u"paying")
        return QCoreApplication::translate("OncePay::Labels", "paying");
    if (code == u"paid_unconfirmed")
        return QCoreApplication::translate("OncePay::Labels", "paid, unconfirmed");
    if (code == u"paid")
        return QCoreApplication::translate("OncePay::Labels", "paid");
    if (code == u"payment_failed")
        return QCoreApplication::translate("OncePay::Labels", "payment failed");
    if (code == u"cancelled")
        return QCoreApplication::translate("OncePay::Labels", "cancelled");
    if (code == u"refunded")
        return QCoreApplication::translate("OncePay::Labels", "refunded");
    return code;
}

QString messageStatus(const QString &code)
{
    if (code == u"pending")
        return QCoreApplication::translate("OncePay::Labels", "pending");
    if (code == u"processing")
        return QCoreApplication::translate("OncePay::Labels", "processing");
    if (code == u"completed")
        return QCoreApplication::translate("OncePay::Labels", "completed");
    if (code == u"skipped")
        return QCoreApplication::translate("OncePay::Labels", "skipped");
    if (code == u"failed")
        return QCoreApplication::translate("OncePay::Labels", "failed, will retry");
    if (code == u"dead")
        return QCoreApplication::translate("OncePay::Labels", "dead letter");
    return code;
}

QString stuckKind(StuckKind kind)
{
    switch (kind) {
    case StuckKind::PendingMessage:
        return QCoreApplication::translate("OncePay::Labels", "Message waiting");
    case StuckKind::ProcessingMessage:
        return QCoreApplication::translate("OncePay::Labels", "Message processing too long");
    case StuckKind::ExpiredLease:
        return QCoreApplication::translate("OncePay::Labels", "Expired lease");
    case StuckKind::DeadLetter:
        return QCoreApplication::translate("OncePay::Labels", "Dead letter");
    case StuckKind::PendingIdempotency:
        return QCoreApplication::translate("OncePay::Labels", "Unfinished request");
    case StuckKind::RefundObligation:
        return QCoreApplication::translate("OncePay::Labels", "Refund due");
    case StuckKind::OrderInFlight:
        return QCoreApplication::translate("OncePay::Labels", "Order in flight");
    }
    return {};
}

QString stuckKindFromCode(const QString &code)
{
    for (StuckKind k : allStuckKinds())
        if (stuckKindName(k) == code)
            return stuckKind(k);
    return code;
}

QString matchKind(MatchKind kind)
{
    switch (kind) {
    case MatchKind::OrderId: return QCoreApplication::translate("OncePay::Labels", "order id");
    case MatchKind::CustomerRef:
        return QCoreApplication::translate("OncePay::Labels", "customer reference");
    case MatchKind::ChannelTxn:
        return QCoreApplication::translate("OncePay::Labels", "channel transaction");
    case MatchKind::CallbackId:
        return QCoreApplication::translate("OncePay::Labels", "callback id");
    case MatchKind::RequestId: return QCoreApplication::translate("OncePay::Labels", "request id");
    }
    return {};
}

QString role(StaffRole r)
{
    switch (r) {
    case StaffRole::Agent: return QCoreApplication::translate("OncePay::Labels", "agent");
    case StaffRole::Finance: return QCoreApplication::translate("OncePay::Labels", "finance");
    case StaffRole::Auditor: return QCoreApplication::translate("OncePay::Labels", "auditor");
    case StaffRole::Admin: return QCoreApplication::translate("OncePay::Labels", "administrator");
    }
    return {};
}

QString causeKind(const QString &code)
{
    if (code == u"request")
        return QCoreApplication::translate("OncePay::Labels", "request");
    if (code == u"callback")
        return QCoreApplication::translate("OncePay::Labels", "callback");
    if (code == u"fix")
        return QCoreApplication::translate("OncePay::Labels", "fix");
    if (code == u"timer")
        return QCoreApplication::translate("OncePay::Labels", "timer");
    if (code == u"system")
        return QCoreApplication::translate("OncePay::Labels", "system");
    return code;
}

QString idempotencyStatus(int status)
{
    switch (status) {
    case 0: return QCoreApplication::translate("OncePay::Labels", "pending");
    case 1: return QCoreApplication::translate("OncePay::Labels", "succeeded");
    case 2: return QCoreApplication::translate("OncePay::Labels", "failed");
    }
    return QString::number(status);
}

QString ledgerKind(const QString &code)
{
    if (code == u"payment_credit")
        return QCoreApplication::translate("OncePay::Labels", "payment credit");
    if (code == u"refund_debit")
        return QCoreApplication::translate("OncePay::Labels", "refund debit");
    if (code == u"fee_adjustment")
        return QCoreApplication::translate("OncePay::Labels", "fee adjustment");
    if (code == u"write_off")
        return QCoreApplication::translate("OncePay::Labels", "write-off");
    return code;
}

QString paymentStatus(const QString &code)
{
    if (code == u"captured")
        return QCoreApplication::translate("OncePay::Labels", "captured");
    if (code == u"refunded")
        return QCoreApplication::translate("OncePay::Labels", "refunded");
    return code;
}

QString settlementStatus(const QString &code)
{
    if (code == u"settled")
        return QCoreApplication::translate("OncePay::Labels", "settled");
    if (code == u"pending")
        return QCoreApplication::translate("OncePay::Labels", "not settled yet");
    return code;
}

QString settlementKind(const QString &code)
{
    if (code == u"charge")
        return QCoreApplication::translate("OncePay::Labels", "charge");
    if (code == u"refund")
        return QCoreApplication::translate("OncePay::Labels", "refund", "settlement line kind");
    return code;
}

QString time(qint64 epochMs)
{
    if (epochMs <= 0)
        return QStringLiteral("—");
    return QDateTime::fromMSecsSinceEpoch(epochMs).toLocalTime().toString(
        QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString age(qint64 ms)
{
    const qint64 s = qMax<qint64>(0, ms / 1000);
    if (s < 60)
        return QCoreApplication::translate("OncePay::Labels", "%1 s").arg(s);
    if (s < 3600)
        return QCoreApplication::translate("OncePay::Labels", "%1 min").arg(s / 60);
    if (s < 86400)
        return QCoreApplication::translate("OncePay::Labels", "%1 h %2 min")
            .arg(s / 3600)
            .arg((s % 3600) / 60);
    return QCoreApplication::translate("OncePay::Labels", "%1 d %2 h")
        .arg(s / 86400)
        .arg((s % 86400) / 3600);
}

QString money(qint64 minor, const QString &currency)
{
    return Currency::format(minor, currency);
}

QString refusedColour()
{
    return QStringLiteral("#f8d7da");
}

QString rollbackColour()
{
    return QStringLiteral("#fff3cd");
}

} // namespace OncePay::Labels
