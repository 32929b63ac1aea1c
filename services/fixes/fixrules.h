#pragma once

// Which manual fixes fit a target as it stands: the one rule both the offer (the kinds a
// person is shown for the rows they selected) and the enforcement (FixService::propose, and
// the re-check before a fix is applied, through FixTargets::plan) ask, so the two cannot
// drift. Pure: no database and no clock; the caller says what it read and when.
//
// Checks that need more than the target's own state stay in FixTargets::plan, which reads
// what they need: a captured payment to confirm, the order a fee adjustment is booked on, the
// amount of a discrepancy, a closed period, a finished reconciliation of a period to close,
// one open proposal per target. A view cannot know those without a query, so a kind offered
// here can still be refused there; a kind not offered here is always refused there.
// Thread contract: plain functions over plain values, any thread.

#include "core/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace OncePay {

// A fix target as whoever shows it read it.
struct FixTargetState {
    // Every member has a default, so a target names only what it has (designated initializers).
    QString targetKind = {}; // "message", "order", "discrepancy", "period" (FixKind::targetKind)
    QString targetId = {};   // callback id, order id, discrepancy number, FROM..TO
    QString status = {};     // message status, order state, discrepancy status
    QString discrepancyKind = {};            // discrepancies: fee_mismatch, …
    std::optional<qint64> leaseUntilMs = {}; // messages: the lease's end (epoch ms), if any
};

// When a target is judged, and with what allowance.
struct FixClock {
    qint64 nowMs = 0; // the judge's clock (the console's, or the applying service's)
    // How far past its end a lease must be before it counts as expired for a fix
    // (fixes.lease_skew_ms, fixsettings.h): the worker wrote the lease end with its own clock.
    // Absent when the setting could not be read as a valid value: then no lease counts as
    // expired (the service refuses with the setting's own error before it asks).
    std::optional<qint64> leaseSkewMs = {};
};

// Whether a processing message's lease counts as expired for a fix at `at`: it has a lease
// end, an allowance is known, and now is past the end by more than the allowance.
bool leaseExpiredForFix(const FixTargetState &target, const FixClock &at);

// Whether a fix of `fixKind` may be proposed for `target` at `at`. A message takes:
// requeue when dead, failed, or processing under a lease expired for a fix
// (leaseExpiredForFix); resolve in those cases and when pending. A processing message under
// a live lease, under one that ended within the clock-skew allowance, or without a lease takes
// neither: its worker may still finish it. An order takes confirm_payment when
// paid_unconfirmed, rollback_payment when paid_unconfirmed or payment_failed; an open
// discrepancy takes write_off, and adjust_fee when it is a fee mismatch; a period takes
// close_period. Otherwise a Conflict with reason "not_applicable" ("lease_within_skew" for a
// lease that ended no more than the allowance ago; Invalid for a kind that does not take this
// kind of target, Invalid "bad_setting" for a lease judged without a known allowance), the
// error propose returns.
Result<void> fixFits(const QString &fixKind, const FixTargetState &target, const FixClock &at);

// A kind offered for part of a selection: the targets it fits, as indexes into the list asked
// about, in that list's order.
struct FixOffer {
    QString kind;
    QList<int> targets;
};

// How the kinds offered for a selection cover it: each kind for every target (a selection in
// a list, taken as a whole: the stuck page), or each kind for those targets it fits, a
// proposal then covering only those (an order's messages: the order page).
enum class FixCover { EveryTarget, EachTarget };

// The kinds offered for `targets`, in FixKind::all() order, each with the targets it covers:
// with EveryTarget the kinds that fit every target, with EachTarget every kind that fits at
// least one. Requeue and resolve take several messages at once; the other kinds one target at
// a time, so they are offered only for a selection of one. Empty for an empty selection.
QList<FixOffer> fixOffers(const QList<FixTargetState> &targets, const FixClock &at, FixCover cover);

// The kinds that fit every target (fixOffers with EveryTarget, its kinds).
QStringList fixKindsOffered(const QList<FixTargetState> &targets, const FixClock &at);

// The next moment after `at.nowMs` at which the offer for `targets` changes by the clock
// alone: the earliest at which a processing message's lease becomes expired for a fix. None
// when no lease is waiting for that (or no allowance is known). A page that shows the offer
// asks again then.
std::optional<qint64> fixOfferChangesAt(const QList<FixTargetState> &targets, const FixClock &at);

} // namespace OncePay
