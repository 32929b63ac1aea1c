#include "fixrules.h"

#include "fixtypes.h"

#include <algorithm>

namespace OncePay {

namespace {

Error notApplicable(const QString &why)
{
    return makeError(ErrorCode::Conflict, why, QStringLiteral("not_applicable"));
}

Result<void> messageFits(const QString &kind, const FixTargetState &m, qint64 nowMs)
{
    const bool expired =
        m.status == u"processing" && m.leaseUntilMs.has_value() && *m.leaseUntilMs < nowMs;
    const bool requeue = kind == FixKind::RequeueMessage;
    if (m.status == u"dead" || m.status == u"failed" || expired ||
        (!requeue && m.status == u"pending"))
        return {};
    return notApplicable(
        QStringLiteral("message %1 is %2%3; %4 takes dead or failed messages%5")
            .arg(m.targetId, m.status,
                 m.status == u"processing" ? QStringLiteral(" under a live lease") : QString(),
                 kind,
                 requeue ? QStringLiteral(" and expired leases")
                         : QStringLiteral(", pending ones and expired leases")));
}

Result<void> orderFits(const QString &kind, const FixTargetState &o)
{
    const bool confirm = kind == FixKind::ConfirmPayment;
    const bool fits =
        o.status == u"paid_unconfirmed" || (!confirm && o.status == u"payment_failed");
    if (fits)
        return {};
    return notApplicable(
        QStringLiteral("order %1 is %2; %3 takes %4")
            .arg(o.targetId, o.status, kind,
                 confirm ? QStringLiteral("paid_unconfirmed orders")
                         : QStringLiteral("paid_unconfirmed or payment_failed orders")));
}

Result<void> discrepancyFits(const QString &kind, const FixTargetState &d)
{
    if (d.status != u"open")
        return notApplicable(
            QStringLiteral("discrepancy #%1 is %2, not open").arg(d.targetId, d.status));
    if (kind == FixKind::AdjustFee && d.discrepancyKind != u"fee_mismatch")
        return notApplicable(
            QStringLiteral("discrepancy #%1 is a %2; adjust_fee takes fee mismatches")
                .arg(d.targetId, d.discrepancyKind));
    return {};
}

} // namespace

Result<void> fixFits(const QString &fixKind, const FixTargetState &target, qint64 nowMs)
{
    const QString takes = FixKind::targetKind(fixKind);
    if (takes.isEmpty())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("unknown fix kind '%1' (one of: %2)")
                             .arg(fixKind, FixKind::all().join(QStringLiteral(", "))));
    if (takes != target.targetKind)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("%1 takes a %2, not a %3").arg(fixKind, takes, target.targetKind));
    if (takes == u"message")
        return messageFits(fixKind, target, nowMs);
    if (takes == u"order")
        return orderFits(fixKind, target);
    if (takes == u"discrepancy")
        return discrepancyFits(fixKind, target);
    return {}; // a period: what decides it (closed, reconciled) is read by FixTargets::plan
}

QStringList fixKindsOffered(const QList<FixTargetState> &targets, qint64 nowMs)
{
    QStringList kinds;
    if (targets.isEmpty())
        return kinds;
    for (const QString &kind : FixKind::all()) {
        const bool several = FixKind::targetKind(kind) == u"message";
        if (targets.size() > 1 && !several)
            continue;
        if (std::all_of(targets.cbegin(), targets.cend(),
                        [&](const FixTargetState &t) { return fixFits(kind, t, nowMs).ok(); }))
            kinds << kind;
    }
    return kinds;
}

} // namespace OncePay
