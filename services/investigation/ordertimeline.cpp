#include "orderpicture.h"

#include <QHash>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace OncePay {

QList<std::pair<QString, qint64>> refundsOwed(const OrderPicture &p)
{
    QList<std::pair<QString, qint64>> owed;
    for (const RefundObligationRow &r : p.refunds) {
        if (r.resolvedAt != 0)
            continue;
        auto it = std::find_if(owed.begin(), owed.end(),
                               [&](const auto &o) { return o.first == r.currency; });
        if (it == owed.end())
            owed.append({r.currency, r.amountMinor});
        else
            it->second += r.amountMinor;
    }
    return owed;
}

QList<OrderExceptionRow> openExceptions(const OrderPicture &p)
{
    QList<OrderExceptionRow> open;
    for (const OrderExceptionRow &d : p.discrepancies)
        if (d.isOpen())
            open << d;
    return open;
}

namespace {

// At one instant: a callback arrives before what it caused; then the transitions, refusals,
// fixes, failed attempts, outcomes, money, exceptions; the audit rows last, each after what it
// records.
int kindRank(TimelineKind kind)
{
    switch (kind) {
    case TimelineKind::CallbackReceived: return 0;
    case TimelineKind::Transition: return 1;
    case TimelineKind::Rejection: return 2;
    case TimelineKind::Fix: return 3;
    case TimelineKind::WorkerAttempt: return 4;
    case TimelineKind::MessageOutcome: return 5;
    case TimelineKind::Ledger: return 6;
    case TimelineKind::RefundDue: return 7;
    case TimelineKind::Exception: return 8;
    case TimelineKind::Audit: return 9;
    }
    return 10;
}

// Sorts by time, then kind, then row id (stable: a fix's proposal, decisions and application
// keep their order). A message's outcome at the instant of the transition its callback caused
// goes right after that transition (the last, when it caused several), before a later one its
// result led to: "completed" of the failure report before the checkout's rollback of it. The
// money the callback booked in that transaction follows its outcome.
QList<TimelineEntry> orderedTimeline(const QList<TimelineEntry> &entries)
{
    QHash<std::pair<QString, qint64>, qint64> caused; // (callback id, time) → last transition
    for (const TimelineEntry &e : entries)
        if (e.kind == TimelineKind::Transition && e.causeKind == u"callback") {
            auto it = caused.find({e.causeId, e.at});
            if (it == caused.end())
                caused.insert({e.causeId, e.at}, e.rowId);
            else
                *it = std::max(*it, e.rowId);
        }
    using Key = std::tuple<qint64, int, qint64, int, qint64>;
    std::vector<std::pair<Key, TimelineEntry>> keyed;
    keyed.reserve(size_t(entries.size()));
    for (const TimelineEntry &e : entries) {
        Key key{e.at, kindRank(e.kind), e.rowId, 0, e.rowId};
        // What the callback's transaction wrote goes with it: its outcome, then its money.
        const int with = e.kind == TimelineKind::MessageOutcome ? 1
                         : e.kind == TimelineKind::Ledger       ? 2
                         : e.kind == TimelineKind::RefundDue    ? 3
                                                                : 0;
        if (with != 0 && e.causeKind == u"callback") {
            const auto it = caused.constFind({e.causeId, e.at});
            if (it != caused.cend())
                key = Key{e.at, kindRank(TimelineKind::Transition), *it, with, e.rowId};
        }
        keyed.emplace_back(key, e);
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<TimelineEntry> out;
    out.reserve(entries.size());
    for (auto &[key, e] : keyed)
        out << std::move(e);
    return out;
}

} // namespace

QList<TimelineEntry> buildTimeline(const OrderPicture &p)
{
    QList<TimelineEntry> out;
    for (const OrderTransition &t : p.transitions) {
        TimelineEntry e;
        e.at = t.createdAt;
        e.kind = TimelineKind::Transition;
        e.version = t.newVersion;
        e.fromState = t.fromState;
        e.toState = t.toState;
        e.causeKind = t.causeKind;
        e.causeId = t.causeId;
        e.actor = t.actor;
        e.detail = t.reason;
        e.rowId = t.id;
        out << e;
    }
    for (const TransitionRejection &r : p.rejections) {
        TimelineEntry e;
        e.at = r.createdAt;
        e.kind = TimelineKind::Rejection;
        e.version = r.expectedVersion;
        e.fromState = r.actualState;
        e.toState = r.requestedTo;
        e.causeKind = r.causeKind;
        e.causeId = r.causeId;
        e.actor = r.actor;
        e.detail = r.reason;
        e.refused = true;
        e.rowId = r.id;
        out << e;
    }
    for (const FixRequest &f : p.fixes) {
        TimelineEntry e;
        e.kind = TimelineKind::Fix;
        e.causeKind = QStringLiteral("fix");
        e.causeId = QStringLiteral("fix:%1").arg(f.id);
        e.at = f.proposedAt;
        e.actor = f.proposedBy;
        e.detail = QStringLiteral("%1 proposed (%2: %3)").arg(f.kind, f.reasonCode, f.comment);
        e.hasAmount = f.amountMinor.has_value();
        e.amountMinor = f.amountMinor.value_or(0);
        e.currency = f.currency;
        e.rowId = f.id;
        out << e;
        for (const FixDecision &d : f.decisions) {
            TimelineEntry de = e;
            de.at = d.decidedAt;
            de.actor = d.decidedBy;
            de.detail = QStringLiteral("%1 %2%3").arg(
                f.kind,
                d.decision == u"approve" ? QStringLiteral("approved") : QStringLiteral("rejected"),
                d.comment.isEmpty() ? QString() : QStringLiteral(": ") + d.comment);
            de.refused = d.decision != u"approve";
            out << de;
        }
        if (f.status == FixStatus::Applied || f.status == FixStatus::Failed) {
            TimelineEntry done = e;
            done.at = f.appliedAt
                          ? f.appliedAt
                          : (f.decisions.isEmpty() ? f.proposedAt : f.decisions.last().decidedAt);
            done.actor = f.decisions.isEmpty() ? QString() : f.decisions.last().decidedBy;
            done.detail = f.status == FixStatus::Applied
                              ? QStringLiteral("%1 applied").arg(f.kind)
                              : QStringLiteral("%1 failed: %2").arg(f.kind, f.failureReason);
            done.refused = f.status == FixStatus::Failed;
            out << done;
        }
    }
    for (const CallbackMessageRow &m : p.messages) {
        TimelineEntry in;
        in.at = m.receivedAt;
        in.kind = TimelineKind::CallbackReceived;
        in.causeKind = QStringLiteral("callback");
        in.causeId = m.callbackId;
        in.actor = m.channel;
        in.detail = m.channelEventType.isEmpty() ? m.eventKind : m.channelEventType;
        in.toState = m.eventKind; // the normalised kind, which the console shows as words
        in.hasAmount = m.hasAmount;
        in.amountMinor = m.amountMinor;
        in.currency = m.currency;
        in.rowId = m.id;
        out << in;
        if (m.status == u"pending")
            continue;
        TimelineEntry done;
        done.at = m.deadLettered ? m.deadAt : (m.finishedAt ? m.finishedAt : m.updatedAt);
        done.kind = TimelineKind::MessageOutcome;
        done.causeKind = QStringLiteral("callback");
        done.causeId = m.callbackId;
        done.actor = m.leaseOwner;
        done.toState = m.status;
        const QString why = m.deadLettered
                                ? m.deadReason
                                : (m.resultReason.isEmpty() ? m.lastError : m.resultReason);
        done.detail = why;
        done.refused = m.status == u"skipped" || m.status == u"dead" || m.status == u"failed";
        done.rowId = m.id;
        out << done;
    }
    // Each attempt that did not complete, when it ended: a message that needed six attempts
    // shows the five failures before its outcome.
    for (const CallbackAttemptRow &a : p.attempts) {
        TimelineEntry e;
        e.at = a.endedAt;
        e.kind = TimelineKind::WorkerAttempt;
        e.causeKind = QStringLiteral("callback");
        e.causeId = a.callbackId;
        e.actor = a.workerId;
        e.toState = a.outcome; // the console names it
        e.detail = a.error;
        e.attempt = a.attempt;
        e.refused = true;
        e.rowId = a.id;
        out << e;
    }
    for (const LedgerRow &l : p.ledger) {
        TimelineEntry e;
        e.at = l.createdAt;
        e.kind = TimelineKind::Ledger;
        e.causeKind = QStringLiteral("callback");
        e.causeId = l.callbackId;
        e.detail = l.kind;
        e.hasAmount = true;
        e.amountMinor = l.amountMinor;
        e.currency = l.currency;
        e.rowId = l.id;
        out << e;
    }
    for (const RefundObligationRow &r : p.refunds) {
        TimelineEntry e;
        e.at = r.createdAt;
        e.kind = TimelineKind::RefundDue;
        e.causeKind = QStringLiteral("callback");
        e.causeId = r.callbackId;
        e.detail = r.reason;
        e.hasAmount = true;
        e.amountMinor = r.amountMinor;
        e.currency = r.currency;
        e.refused = true;
        e.rowId = r.id;
        out << e;
    }
    // Open reconciliation exceptions, when they were found: what is still to settle. Closed
    // ones are history of the reconciliation, not of the order.
    for (const OrderExceptionRow &d : p.discrepancies) {
        if (!d.isOpen())
            continue;
        TimelineEntry e;
        e.at = d.openedAt;
        e.kind = TimelineKind::Exception;
        e.toState = d.kind; // the console names it
        e.causeKind = QStringLiteral("discrepancy");
        e.causeId = QStringLiteral("#%1").arg(d.id);
        e.actor = d.channel;
        e.detail = d.detail;
        e.hasAmount = d.hasActual;
        e.amountMinor = d.actualMinor;
        e.hasExpected = d.hasExpected;
        e.expectedMinor = d.expectedMinor;
        e.expectedCurrency = d.expectedCurrency;
        e.currency = d.currency;
        e.refused = true;
        e.rowId = d.id;
        out << e;
    }
    // The audit rows last, so that at the same instant each follows what it records.
    for (const AuditRow &a : p.audit) {
        TimelineEntry e;
        e.at = a.occurredAt;
        e.kind = TimelineKind::Audit;
        e.toState = a.action; // the console names it (Labels::auditAction)
        e.causeKind = QStringLiteral("audit");
        e.causeId = a.eventId;
        e.actor = a.actor;
        e.detail = a.reason;
        e.rowId = a.id;
        out << e;
    }
    return orderedTimeline(out);
}

} // namespace OncePay
