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

// Whether a fix of `fixKind` may be proposed for `target` at `nowMs`. A message takes:
// requeue when dead, failed, or processing under a lease that ran out (lease end < now);
// resolve in those cases and when pending. A processing message under a live lease (or
// without a lease) takes neither: its worker may still finish it. An order takes
// confirm_payment when paid_unconfirmed, rollback_payment when paid_unconfirmed or
// payment_failed; an open discrepancy takes write_off, and adjust_fee when it is a fee
// mismatch; a period takes close_period. Otherwise a Conflict with reason "not_applicable"
// (Invalid for a kind that does not take this kind of target), the error propose returns.
Result<void> fixFits(const QString &fixKind, const FixTargetState &target, qint64 nowMs);

// The kinds that may be offered for a selection, in FixKind::all() order: those that fit
// every target. Requeue and resolve take several messages at once; the other kinds one
// target at a time. Empty for an empty selection.
QStringList fixKindsOffered(const QList<FixTargetState> &targets, qint64 nowMs);

} // namespace OncePay
