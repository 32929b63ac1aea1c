#pragma once

// `oncepay reconcile`: matches payment records (and the orders they paid) against the
// imported settlement lines by channel transaction id, classifies every difference, applies
// the minimal-intervention rule, and records the run (DESIGN.md §4, seed 002 pitfall 2).
// It streams both sides once (payments into a hash table, lines probed against it) and
// writes in one transaction, so a cancelled or failed run leaves nothing half-done but its
// run row marked cancelled/failed.
// Thread contract: run() on the thread that owns `connection`; the console runs it on a
// worker thread with that thread's own connection. Progress is called on that thread.

#include "reconciliationtypes.h"

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

struct OpenNotSettled; // reconciliationmatcher.h

class Reconciler {
public:
    Reconciler(const Connection &connection, const Clock &clock, Actor actor);

    // Refused, with no run row, when the period ends before it starts (reason "bad_period")
    // or an ops setting it reads is not a non-negative number ("bad_setting"): see refuse().
    Result<ReconcileReport> run(const ReconcileOptions &options) const;

    // A refusal to start a run — the two above, or the console's right to start one
    // (ReconciliationDesk::reconcile) — writes a log line and one `reconciliation.refused`
    // audit row (actor, step, code, reason, the period asked for, the message) in a
    // transaction of its own, and nothing else; returns `why`. A database that cannot be
    // reached (ErrorCode::Unavailable) has nowhere to take the row: logged only. `step` is
    // "period", "settings" or "rights".
    Error refuse(const Error &why, const QString &step, const ReconcileOptions &options) const;

    // How far past the period's end a settlement may arrive and still belong to it.
    static constexpr qint64 kSettlementLookaheadMs = 45LL * 24 * 3600 * 1000;

private:
    Result<QList<OpenNotSettled>> openNotSettled() const;

    const Connection &m_c;
    const Clock &m_clock;
    Actor m_actor;
};

} // namespace OncePay
