#include "fixrules.h"

#include "fixtypes.h"

#include <algorithm>

namespace OncePay {

namespace {

Error notApplicable(const QString &why)
{
    return makeError(ErrorCode::Conflict, why, QStringLiteral("not_applicable"));
}

Result<void> messageFits(const QString &kind, const FixTargetState &m, const FixClock &at)
{
    const bool requeue = kind == FixKind::RequeueMessage;
    if (m.status == u"dead" || m.status == u"failed" || leaseExpiredForFix(m, at) ||
        (!requeue && m.status == u"pending"))
        return {};
    const bool ended =
        m.status == u"processing" && m.leaseUntilMs.has_value() && *m.leaseUntilMs < at.nowMs;
    if (ended && !at.leaseSkewMs)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("message %1 is processing under a lease that ended; "
                                        "without a valid clock-skew allowance "
                                        "(fixes.lease_skew_ms) it is not judged expired")
                             .arg(m.targetId),
                         QStringLiteral("bad_setting"));
    if (ended) // past its end by no more than the allowance: the worker's clock may be behind
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("message %1 is processing under a lease that ended %2 ms ago, within "
                           "the clock-skew allowance of %3 ms (fixes.lease_skew_ms); %4 takes "
                           "it once its lease is past its end by more than that")
                .arg(m.targetId)
                .arg(at.nowMs - *m.leaseUntilMs)
                .arg(*at.leaseSkewMs)
                .arg(kind),
            QStringLiteral("lease_within_skew"));
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

bool leaseExpiredForFix(const FixTargetState &target, const FixClock &at)
{
    return target.status == u"processing" && target.leaseUntilMs.has_value() &&
           at.leaseSkewMs.has_value() && *target.leaseUntilMs + *at.leaseSkewMs < at.nowMs;
}

Result<void> fixFits(const QString &fixKind, const FixTargetState &target, const FixClock &at)
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
        return messageFits(fixKind, target, at);
    if (takes == u"order")
        return orderFits(fixKind, target);
    if (takes == u"discrepancy")
        return discrepancyFits(fixKind, target);
    return {}; // a period: what decides it (closed, reconciled) is read by FixTargets::plan
}

QList<FixOffer> fixOffers(const QList<FixTargetState> &targets, const FixClock &at, FixCover cover)
{
    QList<FixOffer> offers;
    for (const QString &kind : FixKind::all()) {
        const bool several = FixKind::targetKind(kind) == u"message";
        if (targets.size() > 1 && !several)
            continue;
        FixOffer offer{kind, {}};
        for (int i = 0; i < targets.size(); ++i)
            if (fixFits(kind, targets.at(i), at).ok())
                offer.targets << i;
        const bool covered = cover == FixCover::EveryTarget ? offer.targets.size() == targets.size()
                                                            : !offer.targets.isEmpty();
        if (covered && !offer.targets.isEmpty())
            offers << offer;
    }
    return offers;
}

QStringList fixKindsOffered(const QList<FixTargetState> &targets, const FixClock &at)
{
    QStringList kinds;
    for (const FixOffer &o : fixOffers(targets, at, FixCover::EveryTarget))
        kinds << o.kind;
    return kinds;
}

std::optional<qint64> fixOfferChangesAt(const QList<FixTargetState> &targets, const FixClock &at)
{
    std::optional<qint64> next;
    if (!at.leaseSkewMs)
        return next;
    for (const FixTargetState &t : targets) {
        if (t.status != u"processing" || !t.leaseUntilMs || leaseExpiredForFix(t, at))
            continue;
        // The first millisecond at which the lease is past its end by more than the allowance.
        const qint64 expires = *t.leaseUntilMs + *at.leaseSkewMs + 1;
        next = std::min(next.value_or(expires), expires);
    }
    return next;
}

} // namespace OncePay
