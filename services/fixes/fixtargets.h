#pragma once

// What each kind of fix touches: reads the target as it is now and describes the exact change
// (before → after) a reviewer approves, and applies a stored change inside the caller's open
// transaction. A change whose target moved since the proposal is refused (Stale), never
// "adapted": the proposal must be made again.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "fixtypes.h"

namespace OncePay {

struct PlannedFix {
    QString targetKind;
    // The target as one spelling names it (FixService stores it as target_id and open_target,
    // so "03", " 3" and "+3" are the one discrepancy 3): a message's callback id and an order's
    // id as stored, a discrepancy's number (QString::number), a period's periodTarget(from, to).
    QString targetId;
    QString orderId;
    QString callbackId;
    QJsonObject before; // the target's state the change is bound to
    QJsonObject after;  // the state the change produces
    QJsonObject detail; // parameters of the change that are not states (ledger entry, period)
    // Facts a reviewer reads beside the change, which the fix does not set (an order's captured
    // money against its amount, its state reason): recorded with the change, so the digest
    // approved covers them (fixchange.h).
    QJsonObject context;
    qint64 expectedVersion = 0;
    std::optional<qint64> amountMinor;
    QString currency;
    // What else is at stake beside the amount booked, each in its currency (a discrepancy's own
    // difference; a currency mismatch's expected and actual amounts): the approvals a fix needs
    // count from the largest (FixService::propose), so a small stated amount cannot lower them.
    QList<QPair<QString, qint64>> atStake;
    // The target's business time for the period rules: a message's receipt, an order's capture,
    // a discrepancy's money movement (discrepancyAtSql), 0 = none.
    qint64 effectiveAt = 0;
};

class FixTargets {
public:
    FixTargets(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Refuses (Invalid, NotFound, Conflict) a target that the kind does not fit now: its state
    // by fixFits (fixrules.h, the rule the console's offer asks too), then what needs reading.
    Result<PlannedFix> plan(const FixProposal &proposal) const;

    // Re-plans the stored proposal and refuses with Stale when the target moved; then makes
    // the change, booked to `approver` with the fix as its cause.
    Result<void> apply(const FixRequest &fix, const Actor &approver) const;

    // Refuses (Conflict, reason "period_closed") a fix whose business time lies in a closed
    // period.
    Result<void> ensurePeriodOpen(qint64 effectiveAt) const;

    // What a reviewer looks at before deciding, as plain lines: the message (status,
    // attempts, last error), the order's history (transitions, refusals) or the discrepancy
    // with its settlement line and payment. A target that does not exist says so.
    // Requires Action::ReadOrders.
    Result<QStringList> evidence(const FixRequest &fix, const Actor &actor) const;

    // "2026-01-01..2026-02-01" or "FROM_MS..TO_MS" → [from, to) in epoch ms, UTC.
    static Result<QPair<qint64, qint64>> parsePeriod(const QString &text);
    static QString periodTarget(qint64 fromMs, qint64 toMs);

    // The moment a discrepancy belongs to for the period rules (a fix in a closed period, the
    // open exceptions that keep a period from closing), as SQL over discrepancyJoinsSql()'s
    // aliases (d, l, pm, o): when the money it is about moved, the moment the desk ages it
    // from too (discrepancymoment.h).
    static QString discrepancyAtSql();
    // " FROM discrepancies d LEFT JOIN settlement_lines l … payments pm … orders o".
    static QString discrepancyJoinsSql();

private:
    // As plan(); `seenBefore`, when given, receives the target's `before` state as soon as it is
    // read, also when the rule then refuses the target (only messages fill it so far).
    Result<PlannedFix> plan(const FixProposal &proposal, QJsonObject *seenBefore) const;
    Result<PlannedFix> planMessage(const FixProposal &p, QJsonObject *seenBefore) const;
    Result<PlannedFix> planOrder(const FixProposal &p) const;
    Result<PlannedFix> planDiscrepancy(const FixProposal &p) const;
    Result<PlannedFix> planPeriod(const FixProposal &p) const;

    Result<void> applyMessage(const FixRequest &fix) const;
    Result<void> applyOrder(const FixRequest &fix, const Actor &approver) const;
    Result<void> applyDiscrepancy(const FixRequest &fix) const;
    Result<void> applyPeriod(const FixRequest &fix, const Actor &approver) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
