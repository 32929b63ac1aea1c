#include "orderpicture.h"

#include <QHash>

#include <algorithm>
#include <optional>
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

// Which step of a fix an entry is, and what else it knows of its row: what the ordering needs
// beside the entry itself.
enum class FixStep { None, Proposed, Decided, Done };

struct PlacedEntry {
    TimelineEntry entry;
    FixStep step = FixStep::None;
    qint64 fixId = 0;           // fix entries, and money a fix booked (entry key fix:N)
    qint64 rollbackOf = -1;     // a refund owed because of a rollback: the rollback's version
    bool paymentCredit = false; // money booked when the order became paid
};

// Where an entry goes among the others of its instant, in this order: the instant, the kind's
// rank, then what it is anchored to (a transition's row id, or a fix's id), its place beside
// that anchor, its row id.
using PlaceKey = std::tuple<qint64, int, qint64, int, qint64>;

// Sorts by time, then kind, then row id (stable: a fix's proposal, decisions and application
// keep their order). What one transaction wrote at the instant of a transition goes with that
// transition:
//  - a message's outcome right after the transition its callback caused (the last, when it
//    caused several), before a later one its result led to: "completed" of the failure report
//    before the checkout's rollback of it; the money the callback booked follows its outcome;
//  - a fix's decision right before the transition the fix caused (cause fix:N), as a callback
//    comes before what it caused; then the money that transaction booked (the credit of an
//    order made paid, the refund owed by a rollback, money keyed fix:N), then the fix's
//    "applied";
//  - a refund owed because of a rollback right after the rollback.
// A fix that changes no order (a discrepancy's) keeps its steps together: decided, the money it
// booked, applied.
QList<TimelineEntry> orderedTimeline(QList<PlacedEntry> placed)
{
    using Instant = std::pair<QString, qint64>;
    QHash<Instant, qint64> byCallback; // (callback id, time) → its last transition's row
    QHash<Instant, qint64> byFix;      // (fix:N, time) → the transition the fix caused
    QHash<qint64, std::pair<qint64, qint64>> byVersion; // version → (time, row)
    QHash<qint64, qint64> paidAt;                       // time → the transition to paid
    for (const PlacedEntry &p : placed) {
        const TimelineEntry &e = p.entry;
        if (e.kind != TimelineKind::Transition)
            continue;
        byVersion.insert(e.version, {e.at, e.rowId});
        if (e.toState == u"paid")
            paidAt.insert(e.at, e.rowId);
        if (e.causeKind == u"callback") {
            auto it = byCallback.find({e.causeId, e.at});
            if (it == byCallback.end())
                byCallback.insert({e.causeId, e.at}, e.rowId);
            else
                *it = std::max(*it, e.rowId);
        } else if (e.causeKind == u"fix") {
            byFix.insert({e.causeId, e.at}, e.rowId);
        }
    }
    // The transition a fix caused at this instant, if any.
    const auto fixTransition = [&](qint64 fixId, qint64 at) -> std::optional<qint64> {
        const auto it = byFix.constFind({QStringLiteral("fix:%1").arg(fixId), at});
        return it == byFix.cend() ? std::nullopt : std::optional<qint64>(*it);
    };
    const int transition = kindRank(TimelineKind::Transition);
    std::vector<std::pair<PlaceKey, TimelineEntry>> keyed;
    keyed.reserve(size_t(placed.size()));
    for (PlacedEntry &p : placed) {
        const TimelineEntry &e = p.entry;
        PlaceKey key{e.at, kindRank(e.kind), e.rowId, 0, e.rowId};
        // What the callback's transaction wrote goes with it: its outcome, then its money.
        const int with = e.kind == TimelineKind::MessageOutcome ? 1
                         : e.kind == TimelineKind::Ledger       ? 2
                         : e.kind == TimelineKind::RefundDue    ? 3
                                                                : 0;
        const auto callbackAnchor = with != 0 && e.causeKind == u"callback"
                                        ? byCallback.constFind({e.causeId, e.at})
                                        : byCallback.cend();
        if (callbackAnchor != byCallback.cend()) {
            key = PlaceKey{e.at, transition, *callbackAnchor, with, e.rowId};
        } else if (p.step == FixStep::Decided || p.step == FixStep::Done) {
            const bool decided = p.step == FixStep::Decided;
            if (const auto t = fixTransition(p.fixId, e.at))
                key = PlaceKey{e.at, transition, *t, decided ? -1 : 5, 0};
            else
                key = PlaceKey{e.at, kindRank(TimelineKind::Fix), p.fixId, decided ? 1 : 4, 0};
        } else if (p.step == FixStep::Proposed) {
            key = PlaceKey{e.at, kindRank(TimelineKind::Fix), p.fixId, 0, 0};
        } else if (p.rollbackOf >= 0) {
            const auto v = byVersion.constFind(p.rollbackOf);
            if (v != byVersion.cend() && v->first == e.at)
                key = PlaceKey{e.at, transition, v->second, with, e.rowId};
        } else if (p.fixId != 0) { // money keyed fix:N
            if (const auto t = fixTransition(p.fixId, e.at))
                key = PlaceKey{e.at, transition, *t, with, e.rowId};
            else
                key = PlaceKey{e.at, kindRank(TimelineKind::Fix), p.fixId, 2, e.rowId};
        } else if (p.paymentCredit && paidAt.contains(e.at)) {
            key = PlaceKey{e.at, transition, paidAt.value(e.at), with, e.rowId};
        }
        keyed.emplace_back(key, std::move(p.entry));
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<TimelineEntry> out;
    out.reserve(qsizetype(keyed.size()));
    for (auto &[key, e] : keyed)
        out << std::move(e);
    return out;
}

// The fix N of a source key "fix:N" (money or refunds a fix booked), 0 otherwise.
qint64 fixOfKey(const QString &key)
{
    if (!key.startsWith(u"fix:"))
        return 0;
    bool ok = false;
    const qint64 id = QStringView(key).mid(4).toLongLong(&ok);
    return ok && id > 0 ? id : 0;
}

// The version V of a refund owed because of a rollback ("rollback:<order>:vV"), -1 otherwise.
qint64 rollbackVersionOfKey(const QString &key)
{
    if (!key.startsWith(u"rollback:"))
        return -1;
    const qsizetype at = key.lastIndexOf(u":v");
    bool ok = false;
    const qint64 v = at < 0 ? -1 : QStringView(key).mid(at + 2).toLongLong(&ok);
    return ok && v >= 0 ? v : -1;
}

} // namespace

QList<TimelineEntry> buildTimeline(const OrderPicture &p)
{
    QList<PlacedEntry> out;
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
        out << PlacedEntry{e};
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
        out << PlacedEntry{e};
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
        out << PlacedEntry{e, FixStep::Proposed, f.id};
        for (const FixDecision &d : f.decisions) {
            TimelineEntry de = e;
            de.at = d.decidedAt;
            de.actor = d.decidedBy;
            de.detail = QStringLiteral("%1 %2%3").arg(
                f.kind,
                d.decision == u"approve" ? QStringLiteral("approved") : QStringLiteral("rejected"),
                d.comment.isEmpty() ? QString() : QStringLiteral(": ") + d.comment);
            de.refused = d.decision != u"approve";
            out << PlacedEntry{de, FixStep::Decided, f.id};
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
            out << PlacedEntry{done, FixStep::Done, f.id};
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
        out << PlacedEntry{in};
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
        out << PlacedEntry{done};
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
        out << PlacedEntry{e};
    }
    for (const LedgerRow &l : p.ledger) {
        TimelineEntry e;
        e.at = l.createdAt;
        e.kind = TimelineKind::Ledger;
        // Booked for a callback (its id), by a fix (keyed fix:N), or by reconciliation (a fee
        // adjustment: no cause of the order's to name).
        PlacedEntry placed{e};
        placed.paymentCredit = l.kind == u"payment_credit";
        if (!l.callbackId.isEmpty()) {
            e.causeKind = QStringLiteral("callback");
            e.causeId = l.callbackId;
        } else if (const qint64 fix = fixOfKey(l.entryKey); fix != 0) {
            e.causeKind = QStringLiteral("fix");
            e.causeId = l.entryKey;
            placed.fixId = fix;
        }
        e.detail = l.kind;
        e.hasAmount = true;
        e.amountMinor = l.amountMinor;
        e.currency = l.currency;
        e.rowId = l.id;
        placed.entry = e;
        out << placed;
    }
    for (const RefundObligationRow &r : p.refunds) {
        TimelineEntry e;
        e.at = r.createdAt;
        e.kind = TimelineKind::RefundDue;
        // Owed because of a callback (its id) or of a rollback after the capture
        // ("rollback:<order>:vV", no callback): then the rollback's own cause, the request or
        // fix that rolled the order back to version V, as its row shows it.
        PlacedEntry placed{e};
        placed.rollbackOf = rollbackVersionOfKey(r.callbackId);
        const auto rollback = placed.rollbackOf < 0
                                  ? p.transitions.cend()
                                  : std::find_if(p.transitions.cbegin(), p.transitions.cend(),
                                                 [&](const OrderTransition &t) {
                                                     return t.newVersion == placed.rollbackOf;
                                                 });
        if (placed.rollbackOf < 0) {
            e.causeKind = QStringLiteral("callback");
            e.causeId = r.callbackId;
        } else if (rollback != p.transitions.cend()) {
            e.causeKind = rollback->causeKind;
            e.causeId = rollback->causeId;
        } else { // the rollback is not in the picture (never read apart): its key as stored
            e.causeId = r.callbackId;
        }
        e.detail = r.reason;
        e.hasAmount = true;
        e.amountMinor = r.amountMinor;
        e.currency = r.currency;
        e.refused = true;
        e.rowId = r.id;
        placed.entry = e;
        out << placed;
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
        out << PlacedEntry{e};
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
        out << PlacedEntry{e};
    }
    return orderedTimeline(out);
}

} // namespace OncePay
