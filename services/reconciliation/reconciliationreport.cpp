#include "reconciliationreport.h"

#include "core/money.h"

#include <QDateTime>
#include <QJsonArray>

namespace OncePay::ReconciliationReportFormat {

namespace {

QString day(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

} // namespace

QString coverage(qint64 ppm)
{
    // Hundredths of a percent, half up, in integers: 943469 ppm is 94.35 %, 943449 is 94.34 %.
    const qint64 hundredths = (qMax<qint64>(0, ppm) + 50) / 100;
    return QStringLiteral("%1.%2 %")
        .arg(hundredths / 100)
        .arg(hundredths % 100, 2, 10, QLatin1Char('0'));
}

QString text(const ReconcileReport &r, int maxFindings)
{
    QString out;
    out += QStringLiteral("Reconciliation run %1 (%2): %3 to %4 UTC\n")
               .arg(r.runId)
               .arg(r.status, day(r.fromMs), day(r.toMs));
    out += QStringLiteral(
               "  payments %1, settlement lines %2, eligible %3, matched %4, not yet due %5\n")
               .arg(r.payments)
               .arg(r.lines)
               .arg(r.eligible)
               .arg(r.matched)
               .arg(r.notYetDue);
    out += QStringLiteral("  coverage %1 (matched / eligible)\n").arg(coverage(r.coveragePpm));
    if (r.adjusted > 0)
        out += QStringLiteral("  payments whose charge took adjustment lines (added to it) %1\n")
                   .arg(r.adjusted);
    out +=
        QStringLiteral(
            "  auto-fixed %1, opened %2, still open %3, resolved %4, payments marked settled %5\n")
            .arg(r.autoFixed)
            .arg(r.opened)
            .arg(r.stillOpen)
            .arg(r.resolved)
            .arg(r.markedSettled);
    out += QStringLiteral("  findings by kind:\n");
    for (auto it = r.counts.cbegin(); it != r.counts.cend(); ++it)
        out += QStringLiteral("    %1 %2\n").arg(it.key(), -22).arg(it.value());
    int shown = 0;
    for (const Finding &f : r.findings) {
        if (shown++ >= maxFindings) {
            out += QStringLiteral("  … %1 more (use --json for all)\n")
                       .arg(r.findings.size() - maxFindings);
            break;
        }
        // Each amount in its own currency: a currency mismatch's expected amount is the
        // order's, its actual the line's.
        const QString amounts =
            f.hasAmounts ? QStringLiteral(" expected %1, actual %2")
                               .arg(Currency::format(f.expectedMinor, f.expectedCurrency.isEmpty()
                                                                          ? f.currency
                                                                          : f.expectedCurrency),
                                    Currency::format(f.actualMinor, f.currency))
                         : QString();
        out += QStringLiteral("  %1 %2 %3%4%5 — %6\n")
                   .arg(f.autoFix ? QStringLiteral("[auto-fixed]") : QStringLiteral("[open]      "),
                        f.kind, f.channel,
                        f.channelTxnId.isEmpty() ? QString() : u' ' + f.channelTxnId, amounts,
                        f.detail);
    }
    out += QStringLiteral("  took %1 ms\n").arg(r.elapsedMs);
    return out;
}

QJsonObject json(const ReconcileReport &r)
{
    QJsonArray findings;
    for (const Finding &f : r.findings) {
        QJsonObject o{{QStringLiteral("key"), f.key},
                      {QStringLiteral("kind"), f.kind},
                      {QStringLiteral("channel"), f.channel},
                      {QStringLiteral("channel_txn_id"), f.channelTxnId},
                      {QStringLiteral("order_id"), f.orderId},
                      {QStringLiteral("status"),
                       f.autoFix ? QStringLiteral("auto_fixed") : QStringLiteral("open")},
                      {QStringLiteral("detail"), f.detail}};
        if (f.hasAmounts) {
            o.insert(QStringLiteral("currency"), f.currency);
            o.insert(QStringLiteral("expected_currency"),
                     f.expectedCurrency.isEmpty() ? f.currency : f.expectedCurrency);
            o.insert(QStringLiteral("expected_minor"), QString::number(f.expectedMinor));
            o.insert(QStringLiteral("actual_minor"), QString::number(f.actualMinor));
        }
        if (f.autoFix) {
            o.insert(QStringLiteral("fee_schedule_id"), QString::number(f.feeScheduleId));
            o.insert(QStringLiteral("adjustment_minor"), QString::number(f.adjustmentMinor));
        }
        findings << o;
    }
    QJsonObject counts;
    for (auto it = r.counts.cbegin(); it != r.counts.cend(); ++it)
        counts.insert(it.key(), it.value());
    return {{QStringLiteral("run_id"), r.runId},
            {QStringLiteral("status"), r.status},
            {QStringLiteral("period_from"), QString::number(r.fromMs)},
            {QStringLiteral("period_to"), QString::number(r.toMs)},
            {QStringLiteral("payments"), r.payments},
            {QStringLiteral("settlement_lines"), r.lines},
            {QStringLiteral("eligible"), r.eligible},
            {QStringLiteral("matched"), r.matched},
            {QStringLiteral("not_yet_due"), r.notYetDue},
            {QStringLiteral("adjusted"), r.adjusted},
            {QStringLiteral("coverage_ppm"), r.coveragePpm},
            {QStringLiteral("coverage"), coverage(r.coveragePpm)},
            {QStringLiteral("auto_fixed"), r.autoFixed},
            {QStringLiteral("opened"), r.opened},
            {QStringLiteral("still_open"), r.stillOpen},
            {QStringLiteral("resolved"), r.resolved},
            {QStringLiteral("marked_settled"), r.markedSettled},
            {QStringLiteral("counts"), counts},
            {QStringLiteral("findings"), findings},
            {QStringLiteral("elapsed_ms"), r.elapsedMs}};
}

} // namespace OncePay::ReconciliationReportFormat
