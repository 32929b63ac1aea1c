#include "orderpicture.h"

#include <algorithm>

namespace OncePay {

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
        out << e;
    }
    for (const MessageRow &m : p.messages) {
        TimelineEntry in;
        in.at = m.receivedAt;
        in.kind = TimelineKind::CallbackReceived;
        in.causeKind = QStringLiteral("callback");
        in.causeId = m.callbackId;
        in.actor = m.channel;
        in.detail = m.channelEventType.isEmpty() ? m.eventKind : m.channelEventType;
        in.hasAmount = m.hasAmount;
        in.amountMinor = m.amountMinor;
        in.currency = m.currency;
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
        out << done;
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
        out << e;
    }
    std::stable_sort(out.begin(), out.end(), [](const TimelineEntry &a, const TimelineEntry &b) {
        if (a.at != b.at)
            return a.at < b.at;
        // At the same instant a callback arrives before what it caused.
        return int(a.kind == TimelineKind::CallbackReceived) >
               int(b.kind == TimelineKind::CallbackReceived);
    });
    return out;
}

} // namespace OncePay
