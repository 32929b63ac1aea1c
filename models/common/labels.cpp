#include "labels.h"

#include "core/money.h"
#include "enginetext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

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
        return QCoreApplication::translate("OncePay::Labels",
                                           "Message stalled"); // processing past its threshold
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
    case MatchKind::UnknownOrderCallback:
        return QCoreApplication::translate("OncePay::Labels", "callback for an unknown order");
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
    if (code == u"audit")
        return QCoreApplication::translate("OncePay::Labels", "audit row");
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

namespace {
// lupdate files plain tr() calls here under the namespace's name.
QString tr(const char *text, const char *disambiguation = nullptr)
{
    return QCoreApplication::translate("OncePay::Labels", text, disambiguation);
}
} // namespace

QString auditAction(const QString &code)
{
    static const QList<QPair<const char *, const char *>> names = {
        {"order.created", QT_TRANSLATE_NOOP("OncePay::AuditActions", "order created")},
        {"order.transition", QT_TRANSLATE_NOOP("OncePay::AuditActions", "order state changed")},
        {"order.rollback", QT_TRANSLATE_NOOP("OncePay::AuditActions", "order rolled back")},
        {"order.transition_rejected",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "state change refused")},
        {"payment.booked", QT_TRANSLATE_NOOP("OncePay::AuditActions", "payment booked")},
        {"payment.refunded", QT_TRANSLATE_NOOP("OncePay::AuditActions", "refund booked")},
        {"payment.refund_flagged",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "payment flagged for refund")},
        {"callback.completed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "callback processed")},
        {"callback.skipped", QT_TRANSLATE_NOOP("OncePay::AuditActions", "callback skipped")},
        {"callback.failed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "callback failed")},
        {"callback.dead_lettered",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "callback dead-lettered")},
        {"callback.rejected",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "callback refused at the door")},
        {"fix.proposed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fix proposed")},
        {"fix.approved", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fix approved")},
        {"fix.rejected", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fix rejected")},
        {"fix.applied", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fix applied")},
        {"fix.failed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fix failed")},
        {"fix.refused", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fix request refused")},
        {"login.succeeded", QT_TRANSLATE_NOOP("OncePay::AuditActions", "signed in")},
        {"login.failed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "sign-in failed")},
        {"login.refused", QT_TRANSLATE_NOOP("OncePay::AuditActions", "sign-in refused")},
        {"login.locked", QT_TRANSLATE_NOOP("OncePay::AuditActions", "account locked")},
        {"logout", QT_TRANSLATE_NOOP("OncePay::AuditActions", "signed out")},
        {"staff.added", QT_TRANSLATE_NOOP("OncePay::AuditActions", "staff account added")},
        {"staff.disabled", QT_TRANSLATE_NOOP("OncePay::AuditActions", "staff account disabled")},
        {"staff.enabled", QT_TRANSLATE_NOOP("OncePay::AuditActions", "staff account enabled")},
        {"staff.password_reset", QT_TRANSLATE_NOOP("OncePay::AuditActions", "password reset")},
        {"staff.role_changed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "role changed")},
        {"staff.refused", QT_TRANSLATE_NOOP("OncePay::AuditActions", "staff change refused")},
        {"setting.changed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "setting changed")},
        {"setting.refused", QT_TRANSLATE_NOOP("OncePay::AuditActions", "setting change refused")},
        {"settlement.imported",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "settlement statement imported")},
        {"settlement.import_conflicts",
         QT_TRANSLATE_NOOP("OncePay::AuditActions",
                           "settlement lines in conflict with those imported")},
        {"fees.imported", QT_TRANSLATE_NOOP("OncePay::AuditActions", "fee schedule imported")},
        {"reconciliation.run", QT_TRANSLATE_NOOP("OncePay::AuditActions", "reconciliation run")},
        {"reconciliation.failed",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "reconciliation run failed")},
        {"reconciliation.cancelled",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "reconciliation run cancelled")},
        {"reconciliation.refused",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "reconciliation run refused")},
        {"reconciliation.fee_auto_fixed",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "fee corrected automatically")},
        {"audit.exported", QT_TRANSLATE_NOOP("OncePay::AuditActions", "audit trail exported")},
        {"audit.export_refused",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "audit trail export refused")},
        {"audit.access_refused",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "audit trail access refused")},
        {"audit.crosscheck", QT_TRANSLATE_NOOP("OncePay::AuditActions", "audit cross-check")},
        {"audit.sealed", QT_TRANSLATE_NOOP("OncePay::AuditActions", "audit chain sealed")},
        {"export.dossier", QT_TRANSLATE_NOOP("OncePay::AuditActions", "dispute dossier exported")},
        {"export.dossier_refused",
         QT_TRANSLATE_NOOP("OncePay::AuditActions", "dispute dossier export refused")}};
    for (const auto &[c, name] : names)
        if (code == QLatin1String(c))
            return QCoreApplication::translate("OncePay::AuditActions", name);
    return code;
}

QString actorRole(const QString &code)
{
    if (code == u"platform")
        return tr("platform", "actor role");
    if (code == u"system")
        return tr("system");
    if (code == u"channel")
        return tr("channel", "actor role");
    if (code == u"agent")
        return tr("agent");
    if (code == u"finance")
        return tr("finance");
    if (code == u"auditor")
        return tr("auditor");
    if (code == u"admin")
        return tr("administrator");
    if (code == u"anonymous")
        return tr("anonymous", "actor role");
    if (code == u"unknown")
        return tr("unknown", "actor role");
    return code;
}

QString entityKind(const QString &code)
{
    static const QList<QPair<const char *, const char *>> names = {
        {"order", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "order")},
        {"callback", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "callback")},
        {"staff", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "staff account")},
        {"settlement_statement", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "settlement statement")},
        {"fee_schedule", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "fee schedule")},
        {"discrepancy", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "discrepancy")},
        {"reconciliation_run", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "reconciliation run")},
        {"audit", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "audit trail")},
        {"audit_trail", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "audit trail")},
        {"export", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "export")},
        {"fix", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "fix")},
        {"setting", QT_TRANSLATE_NOOP("OncePay::EntityKinds", "setting")}};
    for (const auto &[c, name] : names)
        if (code == QLatin1String(c))
            return QCoreApplication::translate("OncePay::EntityKinds", name);
    return code;
}

QString callbackEvent(const QString &eventKind, const QString &channelEventType)
{
    QString kind;
    if (eventKind == u"payment_succeeded")
        kind = tr("payment succeeded");
    else if (eventKind == u"payment_failed")
        kind = tr("payment failed", "callback event");
    else if (eventKind == u"payment_pending")
        kind = tr("payment pending");
    else if (eventKind == u"refunded")
        kind = tr("refunded", "callback event");
    else if (eventKind == u"other")
        kind = tr("other event");
    else
        kind = eventKind;
    if (channelEventType.isEmpty() || channelEventType == kind)
        return kind;
    if (kind.isEmpty())
        return channelEventType;
    // The channel's own name of the event stays: it is what its dashboard and support say.
    return tr("%1 (%2)", "callback event, channel's event type").arg(kind, channelEventType);
}

QString requestOperation(const QString &code)
{
    if (code == u"pay")
        return tr("start payment");
    if (code == u"rollback")
        return tr("roll back", "request operation");
    return code;
}

QString requestOutcome(const QString &outcome)
{
    const QJsonDocument doc = QJsonDocument::fromJson(outcome.toUtf8());
    if (doc.isObject()) {
        const QJsonObject o = doc.object();
        if (o.value(u"state").isString() && o.value(u"version").isDouble())
            return tr("%1, v%2", "request outcome: state, version")
                .arg(orderState(o.value(u"state").toString()))
                .arg(o.value(u"version").toInteger());
    }
    return engineText(outcome);
}

QString fulfilmentStatus(const QString &code)
{
    if (code == u"created")
        return tr("created", "purchase or logistics order");
    return code;
}

QString auditFilter(const AuditFilter &f)
{
    QStringList parts;
    if (f.fromMs)
        parts << tr("from %1").arg(AuditFilter::formatTime(f.fromMs));
    if (f.toMs)
        parts << tr("to %1").arg(AuditFilter::formatTime(f.toMs));
    if (!f.actor.isEmpty())
        parts << tr("actor %1").arg(f.actor);
    if (!f.action.isEmpty())
        parts << tr("action %1").arg(f.action);
    if (!f.orderId.isEmpty())
        parts << tr("order %1").arg(f.orderId);
    if (!f.callbackId.isEmpty())
        parts << tr("callback %1").arg(f.callbackId);
    if (!f.entityKind.isEmpty())
        parts << tr("entity kind %1").arg(entityKind(f.entityKind));
    if (!f.entityId.isEmpty())
        parts << tr("entity %1").arg(f.entityId);
    if (f.maxSeq)
        parts << tr("up to seq %1").arg(f.maxSeq);
    return parts.isEmpty() ? tr("all rows") : parts.join(tr(", ", "list separator"));
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
    if (Currency::isKnown(currency))
        return Currency::format(minor, currency);
    // No decimal point is guessed (Currency::format): the count of minor units, said to be one.
    const QString count = Currency::formatAmount(minor, 0);
    if (currency.trimmed().isEmpty())
        return QCoreApplication::translate("OncePay::Labels", "%1 minor units (no currency)")
            .arg(count);
    return QCoreApplication::translate("OncePay::Labels", "%1 %2 minor units (unknown currency)")
        .arg(count, currency.left(8));
}

QString moneySortKey(qint64 minor, const QString &currency)
{
    // The sign bit flipped makes signed order unsigned order; 20 digits hold any quint64.
    const quint64 ordered = quint64(minor) ^ (quint64(1) << 63);
    return currency + QLatin1Char(' ') +
           QStringLiteral("%1").arg(ordered, 20, 10, QLatin1Char('0'));
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
