#pragma once

// Writes one reconciliation run's outcome in one transaction: new discrepancies (open, or
// auto_fixed with their ledger fee_adjustment and audit row), last_run_id of those found
// again, not_settled and refund_not_settled ones now settled resolved, payments marked
// settled, the run row and its audit row. Re-running a period duplicates nothing:
// discrepancy_key and entry_key are unique.
// Thread contract: the connection's thread.

#include "reconciliationmatcher.h"

#include "core/actor.h"
#include "core/clock.h"
#include "db/connection.h"

namespace OncePay {

class ReconciliationWriter {
public:
    ReconciliationWriter(const Connection &c, const Clock &clock, Actor actor)
        : m_c(c)
        , m_clock(clock)
        , m_actor(std::move(actor))
    {}

    Result<qint64> startRun(qint64 fromMs, qint64 toMs) const;
    // Fills report.opened/autoFixed/stillOpen/resolved/markedSettled.
    Result<void> commit(const MatchOutcome &outcome, ReconcileReport &report) const;
    Result<void> markStopped(const ReconcileReport &report, const QString &status) const;

private:
    Result<void> applyFix(const Finding &f, qint64 discrepancyId) const;
    Result<void> finishRun(const ReconcileReport &report, const QString &status) const;

    const Connection &m_c;
    const Clock &m_clock;
    Actor m_actor;
};

} // namespace OncePay
