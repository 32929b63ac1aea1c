#pragma once

// What tst_fix_locks_race judges a decision by (fixlocksrace.h runs the race): the decision as
// asked and answered, fay's account as the decision must have seen it, and the verdicts on its
// answer and on what it left in the database.
// Thread contract: plain values; the verdicts on the test's thread, after the race.

#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "fixlockstestsupport.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace OncePay::Test::FixLocks {

enum class FayIs { Finance, Demoted, Disabled };

// One committed change of fay's account, timed on the test's monotonic clock: it began at
// `start` and had committed by `end`.
struct FayChange {
    qint64 start = 0;
    qint64 end = 0;
    FayIs after = FayIs::Finance;
};

// Approve; Moved: approve a fix whose target moved after it was proposed (the approval is then
// recorded in a second transaction that locks no staff row first, and the fix marked failed);
// Reject; Bypass: a rejection written straight into the database.
enum class Path { Approve, Moved, Reject, Bypass };

// One decision as it was asked and answered.
struct Attempt {
    qint64 fixId = 0;
    QString sha;
    bool own = false; // proposed by the one deciding
    Path path = Path::Approve;
    qint64 start = 0;
    qint64 end = 0;
    bool ok = false;
    ErrorCode code = ErrorCode::Internal;
    QString reason;
    QString message;
};

// fay's account as a decision made between `start` and `end` must have seen it: the state after
// the last change that had committed before the decision began, if no change ran meanwhile;
// nothing when one did (either state may then be seen).
inline std::optional<FayIs> settled(const QList<FayChange> &changes, qint64 start, qint64 end)
{
    FayIs state = FayIs::Finance;
    for (const FayChange &c : changes) { // in the order they were made, by one thread
        if (c.end < start)
            state = c.after;
        else if (c.start < end)
            return std::nullopt;
    }
    return state;
}

inline QString describe(const Attempt &d)
{
    const char *path = d.path == Path::Approve  ? "approve"
                       : d.path == Path::Moved  ? "approve (target moved)"
                       : d.path == Path::Reject ? "reject"
                                                : "bypass";
    return QStringLiteral("fix #%1 %2%3: %4")
        .arg(d.fixId)
        .arg(QString::fromLatin1(path), d.own ? QStringLiteral(" (own)") : QString(),
             d.ok ? QStringLiteral("ok")
                  : QStringLiteral("%1 %2 (%3)")
                        .arg(errorCodeName(d.code), d.reason, d.message.left(300)));
}

// How the decisions ended, as answerWrong counted them.
struct Tally {
    int ok = 0;
    int refused = 0;
    int recordedFailed = 0; // a moved target's approval recorded, the fix failed
    int raced = 0;          // made while fay's account was changing
};

// What the decision answered, against fay's account as it must have seen it (from `fayChanges`),
// counted into `*tally`; empty when right, else what is wrong.
inline QString answerWrong(const Attempt &d, const Actor &actor, const QList<FayChange> &fayChanges,
                           Tally *tally)
{
    const bool serviceSide = d.path != Path::Bypass;
    std::optional<FayIs> state = FayIs::Finance;
    if (actor.id == fay.id)
        state = settled(fayChanges, d.start, d.end);
    tally->raced += !state;
    if (d.ok) {
        ++tally->ok;
        if (d.path == Path::Moved)
            return QStringLiteral("applied a change whose target had moved");
        if (d.own)
            return QStringLiteral("decided its own proposal");
        if (state && *state != FayIs::Finance)
            return QStringLiteral("decided while demoted or disabled");
        return {};
    }
    if (d.path == Path::Moved && d.code == ErrorCode::Stale) {
        ++tally->recordedFailed; // the approval recorded, the fix failed
        if (d.reason != u"target_moved")
            return QStringLiteral("failed for another cause");
        if (state && *state != FayIs::Finance)
            return QStringLiteral("approval recorded while demoted or disabled");
        return {};
    }
    ++tally->refused;
    if (d.code != ErrorCode::Forbidden)
        return QStringLiteral("neither done nor refused");
    if (!serviceSide) // the trigger: one answer for every rule
        return d.reason == u"database_rule" && (d.own || !state || *state != FayIs::Finance)
                   ? QString()
                   : QStringLiteral("refused by the database without a cause");
    const QString expected = !state                      ? QString()
                             : *state == FayIs::Demoted  ? QStringLiteral("role_changed")
                             : *state == FayIs::Disabled ? QStringLiteral("staff_disabled")
                             : d.own                     ? QStringLiteral("own_proposal")
                                                         : QStringLiteral("(none)");
    if (!expected.isEmpty() && d.reason != expected)
        return QStringLiteral("refused for the wrong cause (expected %1)").arg(expected);
    // Raced: refused by the service's check, or (a moved target's approval, recorded in its
    // second transaction) by the trigger.
    QStringList causes{"role_changed", "staff_disabled", "own_proposal"};
    if (d.path == Path::Moved)
        causes << QStringLiteral("database_rule");
    if (expected.isEmpty() && !causes.contains(d.reason))
        return QStringLiteral("refused for an unknown cause");
    return {};
}

// The database afterwards: a decision that held is there once with its effect; a refused one
// left the proposal open with no decision. Empty when right, else what is wrong.
inline QString storedWrong(const Attempt &d, const Actor &actor, const EngineFixture &f,
                           const FixService &fixes)
{
    const QString id = QString::number(d.fixId);
    auto fix = fixes.get(d.fixId);
    if (!fix)
        return fix.error().message;
    const qint64 rows = f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ?", {d.fixId});
    const qint64 mine =
        f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ? AND decided_by = ?"
                " AND decision = ?",
                {d.fixId, actor.id,
                 d.path == Path::Approve || d.path == Path::Moved ? QStringLiteral("approve")
                                                                  : QStringLiteral("reject")});
    auto audited = [&](const char *action) {
        return f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = ? AND"
                       " entity_kind = 'fix' AND entity_id = ?",
                       {QString::fromLatin1(action), id});
    };
    const QString message = f.count("SELECT COUNT(*) FROM callback_messages WHERE"
                                    " callback_id = ? AND status = 'skipped'",
                                    {fix->targetId}) == 1
                                ? QStringLiteral("skipped")
                                : QStringLiteral("not skipped");
    if (d.path == Path::Moved && d.code == ErrorCode::Stale) {
        if (fix->status != FixStatus::Failed || rows != 1 || mine != 1 || message != u"not skipped")
            return QStringLiteral("failed, yet %1 with %2 decisions (%3 as asked), "
                                  "message %4")
                .arg(fix->status)
                .arg(rows)
                .arg(mine)
                .arg(message);
        if (audited("fix.approved") != 1 || audited("fix.failed") != 1)
            return QStringLiteral("failed without one fix.approved and one fix.failed row");
        return {};
    }
    if (!d.ok) {
        if (fix->status != FixStatus::Open || rows != 0 || message != u"not skipped")
            return QStringLiteral("refused, yet %1 with %2 decisions, message %3")
                .arg(fix->status)
                .arg(rows)
                .arg(message);
        if (d.path != Path::Bypass && audited("fix.refused") != 1)
            return QStringLiteral("refused without one fix.refused row");
        return {};
    }
    const QString want = d.path == Path::Approve ? FixStatus::Applied : FixStatus::Rejected;
    if (fix->status != want || rows != 1 || mine != 1 ||
        message != (d.path == Path::Approve ? u"skipped" : u"not skipped"))
        return QStringLiteral("done, yet %1 with %2 decisions (%3 as asked), message %4")
            .arg(fix->status)
            .arg(rows)
            .arg(mine)
            .arg(message);
    if (d.path == Path::Approve && (audited("fix.approved") != 1 || audited("fix.applied") != 1))
        return QStringLiteral("applied without one fix.approved and one fix.applied row");
    if (d.path == Path::Reject && audited("fix.rejected") != 1)
        return QStringLiteral("rejected without one fix.rejected row");
    return {};
}

} // namespace OncePay::Test::FixLocks
