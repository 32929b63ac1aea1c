#pragma once

// Manual fixes under maker-checker (DESIGN.md §6): what can be proposed, what a proposal
// records, and what a decision records.
// Thread contract: plain values, safe to hand from a worker thread to the GUI.

#include "core/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace OncePay {

namespace FixKind {
inline const QString RequeueMessage =
    QStringLiteral("requeue_message"); // dead/failed/stuck → pending
inline const QString ResolveMessage =
    QStringLiteral("resolve_message"); // → skipped, no business effect
inline const QString ConfirmPayment = QStringLiteral("confirm_payment"); // paid_unconfirmed → paid
inline const QString RollbackPayment = QStringLiteral("rollback_payment"); // → pending_payment
inline const QString AdjustFee = QStringLiteral("adjust_fee");     // fee_mismatch → ledger
inline const QString WriteOff = QStringLiteral("write_off");       // discrepancy → written off
inline const QString ClosePeriod = QStringLiteral("close_period"); // reconciled period closed
QStringList all();
// "message" (target = callback id), "order" (order id), "discrepancy" (discrepancy id) or
// "period" (FROM_MS..TO_MS); empty for an unknown kind.
QString targetKind(const QString &kind);
} // namespace FixKind

namespace FixStatus {
inline const QString Open = QStringLiteral("open");
inline const QString Rejected = QStringLiteral("rejected");
inline const QString Applied = QStringLiteral("applied");
inline const QString Failed = QStringLiteral("failed");
} // namespace FixStatus

// Why a fix is proposed, and why one is rejected: closed lists, so reports can group them.
QStringList fixReasonCodes();
QStringList rejectionReasonCodes();

struct FixProposal {
    QString kind;
    QString targetId;
    QString reasonCode;
    QString comment;
    QString origin; // where it was proposed from: "console@host", "cli@host"
    // adjust_fee and write_off: the amount to book; when absent, the discrepancy's own
    // difference (expected - actual). Given, it must be that difference: a fix that does not
    // clear it is refused (there are no partial fixes), and its approvals count from the larger
    // of the two. A currency mismatch has no difference across currencies: its fix needs the
    // amount and `currency`, one of the two currencies involved.
    std::optional<qint64> amountMinor = {};
    // The amount's currency (ISO code); empty = the discrepancy's own. Required for a currency
    // mismatch.
    QString currency = {};
};

// What a batch of proposals came to (FixService::proposeEach): each proposal is committed on
// its own, so the ones in `proposed` stand whatever happened after them.
// Every member has a default, so an outcome names only what it has (designated initializers).
struct ProposeOutcome {
    QList<qint64> proposed = {}; // the new fixes' ids, in the order sent
    QStringList refused = {};    // "target: why" (the service's sentence), in the order sent
    // The database went away (Unavailable): the proposal that met it and the rest were not sent.
    std::optional<Error> stoppedBy = {};
    bool cancelled = false; // the caller stopped the batch: the rest were not sent
    int notSent = 0;        // how many were not sent (stoppedBy or cancelled)
};

struct FixDecision {
    QString decidedBy;
    QString decision; // approve | reject
    QString reasonCode;
    QString comment;
    QString decidedFrom;
    qint64 decidedAt = 0;
    // An approval of an open fix whose account is no longer an enabled finance account (demoted
    // or disabled since): why it no longer counts ("fay is no longer a finance reviewer: its
    // approval no longer counts"); empty when it counts. Read with the staff rows as they are
    // now; a decided fix's decisions are history and never lapse.
    QString lapsed = {};
};

struct FixRequest {
    qint64 id = 0;
    QString kind;
    QString targetKind;
    QString targetId;
    QString orderId;    // the order the fix touches, when there is one
    QString callbackId; // the message the fix touches, when there is one
    QJsonObject change; // {"before": {...}, "after": {...}, ...}: exactly what will be applied
    QString changeSha256;
    qint64 expectedVersion = 0; // the order version the proposal was made against; 0 = none
    std::optional<qint64> amountMinor;
    QString currency;
    QString reasonCode;
    QString comment;
    QString proposedBy;
    QString proposerRole;
    QString proposedFrom;
    qint64 proposedAt = 0;
    qint64 effectiveAt = 0; // business time of the target (closed periods), 0 = none
    int approvalsNeeded = 1;
    QString status;
    QString failureReason;
    qint64 appliedAt = 0;
    QList<FixDecision> decisions;

    // The approvals that count: those of accounts that are still enabled finance reviewers
    // (FixDecision::lapsed empty).
    int approvals() const;
    // Why earlier approvals no longer count, one sentence each (FixDecision::lapsed).
    QStringList lapsedApprovals() const;
};

struct FixFilter {
    QStringList statuses; // empty = all
    QString kind;
    QString proposedBy;
    QString orderId;
    int limit = 500;
};

} // namespace OncePay
