#pragma once

// Manual fixes under maker-checker (DESIGN.md §6).
//
// propose: an agent or finance reviewer names a target and a reason; the service reads the
//   target, refuses a kind its state does not take (fixFits, fixrules.h: the rule the console
//   asks before it offers a kind), records the exact change (before → after), its SHA-256,
//   the order version it is bound to, the amount and how many approvals it needs (two above
//   `fixes.second_approver_above_minor`, counted from the largest amount at stake: a
//   confirmation's from every captured total, each in its currency). One open proposal per
//   target (a unique key), the target as planning names it ("03" and " 3" are discrepancy 3).
// approve: a finance reviewer other than the proposer approves the digest they were shown.
//   When the last needed approval arrives, the change is applied in the same transaction as
//   that approval (only approvals of accounts that are still enabled finance reviewers count:
//   one demoted or disabled since has lapsed, FixDecision::lapsed, and the fix waits for
//   another), through the state machine with the expected version; if the target moved,
//   nothing is applied, the proposal is recorded as failed with the reason, and it must be
//   made again. A fix is therefore applied at most once and an approval is never lost.
//   A message's lease is judged (at propose and again at apply) with the clock-skew allowance
//   `fixes.lease_skew_ms` (fixsettings.h). A lease that ended no more than that ago
//   (Conflict, "lease_within_skew") and a value of the setting that is no valid number
//   (Invalid, "bad_setting") refuse the step: nothing but the refusal is recorded, and an
//   approval refused so leaves the proposal open.
// proposeEach: a batch (a selection in the console), one proposal at a time, each in its own
//   transaction: a refusal is collected and the rest go on; a database that becomes
//   unavailable stops the batch, the ones proposed before it standing; the caller's progress
//   callback may stop it between two proposals.
// reject: a finance reviewer other than the proposer, with a reason code and a comment.
//
// Every step — and every refusal — leaves an audit row with who, role, where from, what and
// why. The same rules are enforced by triggers (migration 0002) when the service is bypassed.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "fixtypes.h"

#include <functional>

namespace OncePay {

class FixService {
public:
    // The longest comment a proposal or a decision keeps; a longer one is refused ("a comment
    // is longer than 2000 characters"). The console's dialogs stop at it too.
    static constexpr int kMaxCommentLength = 2000;

    FixService(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    Result<FixRequest> propose(const FixProposal &proposal, const Actor &actor) const;

    // Called after each proposal of a batch, sent or refused, with how many are done of how
    // many; false stops the batch there (ProposeOutcome::cancelled). On the connection's thread.
    using BatchProgress = std::function<bool(int done, int total)>;
    // Proposes each in turn (propose, each committed on its own) and says what came of them.
    // Never fails as a whole: a database gone away is ProposeOutcome::stoppedBy.
    ProposeOutcome proposeEach(const QList<FixProposal> &proposals, const Actor &actor,
                               const BatchProgress &progress = {}) const;

    // `changeSha256` is the digest of the change the reviewer was shown; it must still be the
    // proposal's. Returns the fix as it stands afterwards (open with one approval of two, or
    // applied). A fix that could not be applied comes back as an error (Stale or Conflict)
    // whose message says why; it is then recorded as failed.
    Result<FixRequest> approve(qint64 fixId, const QString &changeSha256, const QString &comment,
                               const QString &origin, const Actor &actor) const;

    Result<FixRequest> reject(qint64 fixId, const QString &reasonCode, const QString &comment,
                              const QString &origin, const Actor &actor) const;

    Result<FixRequest> get(qint64 fixId) const;
    Result<QList<FixRequest>> list(const FixFilter &filter) const;
    // The same for a person: requires Action::ReadOrders (the console's approvals queue).
    Result<QList<FixRequest>> list(const FixFilter &filter, const Actor &actor) const;
    // How list() finds the fixes of FixFilter::orderId, as text: the fixes whose change names
    // the order (the change's order_id, a column of its own with an index: migration 0023). Its
    // `?` is the order id.
    static QString orderCondition();

    // SHA-256 (hex) of the canonical JSON of a change.
    static QString digest(const QJsonObject &change);

private:
    Result<FixRequest> load(qint64 fixId, bool lock) const;
    // Locked, open, and not the actor's own proposal.
    Result<FixRequest> loadForDecision(qint64 fixId, const Actor &actor) const;
    Result<QList<FixDecision>> decisions(qint64 fixId) const;
    // An open fix's approvals whose account is no longer an enabled finance reviewer are marked
    // lapsed (FixDecision::lapsed), the staff rows read on the caller's transaction.
    Result<void> markLapsed(FixRequest &fix) const;
    // The same for showing a fix; a login that may not read staff accounts (the engine's) shows
    // the approvals as recorded, with a warning logged.
    void markLapsedForReading(FixRequest &fix) const;
    Result<int> approvalsNeeded(const QString &currency, std::optional<qint64> amount) const;
    Result<void> recordDecision(const FixRequest &fix, const QString &decision,
                                const QString &reasonCode, const QString &comment,
                                const QString &origin, const Actor &actor) const;
    Result<void> audit(const QString &action, const FixRequest &fix, const Actor &actor,
                       const QString &origin, const QJsonObject &extra,
                       const QString &reason) const;
    // A refused request: logged and audited in its own transaction, then returned.
    Error refuse(const Error &why, const QString &step, qint64 fixId, const QString &target,
                 const Actor &actor, const QString &origin) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
