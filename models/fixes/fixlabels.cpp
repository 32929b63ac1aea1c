#include "fixlabels.h"

#include "reconciliation/reconciliationreport.h"

#include <QCoreApplication>
#include <QLocale>

namespace OncePay::Labels {

namespace {
// lupdate files plain tr() calls here under the namespace's name.
QString tr(const char *text)
{
    return QCoreApplication::translate("OncePay::Labels", text);
}
QString fromList(const char *text)
{
    return QCoreApplication::translate("OncePay::FixLabels", text);
}
} // namespace

QString fixKind(const QString &code)
{
    if (code == u"requeue_message")
        return tr("Requeue message");
    if (code == u"resolve_message")
        return tr("Resolve message (no effect)");
    if (code == u"confirm_payment")
        return tr("Confirm payment");
    if (code == u"rollback_payment")
        return tr("Roll payment back");
    if (code == u"adjust_fee")
        return tr("Adjust fee");
    if (code == u"write_off")
        return tr("Write off");
    if (code == u"close_period")
        return tr("Close period");
    return code;
}

QString fixStatus(const QString &code)
{
    if (code == u"open")
        return tr("Waiting for approval");
    if (code == u"applied")
        return tr("Applied");
    if (code == u"rejected")
        return tr("Rejected");
    if (code == u"failed")
        return tr("Failed (target moved)");
    return code;
}

QString fixReason(const QString &code)
{
    static const QList<QPair<const char *, const char *>> names = {
        {"channel_outage", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Channel outage")},
        {"poison_message", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Message cannot be processed")},
        {"duplicate_handled", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Duplicate already handled")},
        {"customer_dispute", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Customer dispute")},
        {"payment_verified",
         QT_TRANSLATE_NOOP("OncePay::FixLabels", "Payment verified with the channel")},
        {"payment_not_received", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Payment not received")},
        {"settlement_correction", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Settlement correction")},
        {"fee_schedule_change", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Fee schedule change")},
        {"immaterial_difference", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Immaterial difference")},
        {"period_end", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Period end")},
        {"other", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Other (see comment)")}};
    for (const auto &[c, name] : names)
        if (code == QLatin1String(c))
            return fromList(name);
    return code;
}

QString rejectionReason(const QString &code)
{
    static const QList<QPair<const char *, const char *>> names = {
        {"insufficient_evidence", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Insufficient evidence")},
        {"wrong_target", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Wrong target")},
        {"wrong_amount", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Wrong amount")},
        {"against_policy", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Against policy")},
        {"needs_investigation",
         QT_TRANSLATE_NOOP("OncePay::FixLabels", "Needs more investigation")},
        {"other", QT_TRANSLATE_NOOP("OncePay::FixLabels", "Other (see comment)")}};
    for (const auto &[c, name] : names)
        if (code == QLatin1String(c))
            return fromList(name);
    return code;
}

QString discrepancyKind(const QString &code)
{
    if (code == u"not_settled")
        return tr("Paid, not settled");
    if (code == u"refund_not_settled")
        return tr("Refunded, not settled");
    if (code == u"unknown_settlement")
        return tr("Settled, unknown to us");
    if (code == u"amount_mismatch")
        return tr("Amount mismatch");
    if (code == u"fee_mismatch")
        return tr("Fee mismatch");
    if (code == u"currency_mismatch")
        return tr("Currency mismatch");
    if (code == u"duplicate_settlement")
        return tr("Duplicate settlement");
    if (code == u"refund_due")
        return tr("Refund due");
    if (code == u"chargeback")
        return tr("Chargeback");
    if (code == u"settlement_adjustment")
        return tr("Settlement adjustment");
    if (code == u"settled_after_write_off")
        return tr("Settled after write-off");
    return code;
}

QString discrepancyStatus(const QString &code)
{
    if (code == u"open")
        return tr("Open");
    if (code == u"auto_fixed")
        return tr("Corrected automatically");
    if (code == u"resolved")
        return tr("Resolved");
    if (code == u"written_off")
        return tr("Written off");
    return code;
}

QString runStatus(const QString &code)
{
    if (code == u"running")
        return tr("Running");
    if (code == u"finished")
        return tr("Finished");
    if (code == u"failed")
        return tr("Failed");
    if (code == u"cancelled")
        return tr("Cancelled");
    return code;
}

QString coverage(qint64 ppm)
{
    // The reconciler's own rounding (half up, hundredths of a percent), as the CLI prints it.
    return ReconciliationReportFormat::coverage(ppm);
}

} // namespace OncePay::Labels
