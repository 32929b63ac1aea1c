#include "ordermodels.h"

#include "common/enginetext.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "fixes/fixlabels.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace OncePay {

namespace {

template <typename Fn> auto display(Fn fn)
{
    return [fn](const auto &row, int role) -> QVariant {
        return role == Qt::DisplayRole ? QVariant(fn(row)) : QVariant();
    };
}

// Sorts by the epoch value, shows local time.
template <typename Fn> auto timeCell(Fn fn)
{
    return [fn](const auto &row, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::time(fn(row));
        if (role == SortRole)
            return fn(row);
        return {};
    };
}

template <typename Fn, typename Cur> auto moneyCell(Fn amount, Cur currency)
{
    return [amount, currency](const auto &row, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::money(amount(row), currency(row));
        if (role == SortRole)
            return Labels::moneySortKey(amount(row), currency(row));
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    };
}

// A sentence the engine stored: shown in the interface language (common/enginetext.h), the
// stored text as the tooltip.
template <typename Fn> auto engineTextCell(Fn fn)
{
    return [fn](const auto &row, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::engineText(fn(row));
        if (role == Qt::ToolTipRole)
            return fn(row);
        return {};
    };
}

// A code the engine stored: shown as its word, the code as the tooltip.
template <typename Fn, typename Label> auto codeCell(Fn fn, Label label)
{
    return [fn, label](const auto &row, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return label(fn(row));
        if (role == Qt::ToolTipRole)
            return fn(row);
        return {};
    };
}

} // namespace

OrderHitModel::OrderHitModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Order"), [](const OrderHit &h, int role) -> QVariant {
        if (role == Qt::DisplayRole || role == OrderIdRole)
            return h.order.orderId;
        return {};
    });
    addColumn(tr("Found by"), display([](const OrderHit &h) {
                  // A transaction id is unique only within its channel: the hit says whose.
                  const QString value =
                      h.matchedBy == MatchKind::ChannelTxn && !h.matchedChannel.isEmpty()
                          ? tr("%1 on %2", "transaction id on channel")
                                .arg(h.matchedValue, h.matchedChannel)
                          : h.matchedValue;
                  return tr("%1: %2").arg(Labels::matchKind(h.matchedBy), value);
              }));
    addColumn(tr("State"), display([](const OrderHit &h) {
                  return Labels::orderState(orderStateName(h.order.state));
              }));
    addColumn(tr("Version"), display([](const OrderHit &h) { return h.order.version; }));
    addColumn(tr("Amount"), moneyCell([](const OrderHit &h) { return h.order.amountMinor; },
                                      [](const OrderHit &h) { return h.order.currency; }));
    addColumn(tr("Customer"), display([](const OrderHit &h) { return h.order.customerRef; }));
    addColumn(tr("Updated"), timeCell([](const OrderHit &h) { return h.order.updatedAt; }));
}

QString TimelineModel::describe(const TimelineEntry &e)
{
    const QString amount = e.hasAmount ? Labels::money(e.amountMinor, e.currency) : QString();
    switch (e.kind) {
    case TimelineKind::Transition:
        return tr("%1 → %2").arg(Labels::orderState(e.fromState), Labels::orderState(e.toState));
    case TimelineKind::Rejection:
        return tr("Refused: %1 → %2")
            .arg(Labels::orderState(e.fromState), Labels::orderState(e.toState));
    case TimelineKind::CallbackReceived:
        return amount.isEmpty() ? tr("Callback received") : tr("Callback received, %1").arg(amount);
    case TimelineKind::MessageOutcome:
        return tr("Worker: %1").arg(Labels::messageStatus(e.toState));
    case TimelineKind::WorkerAttempt:
        if (e.toState == u"dead_lettered")
            return tr("Worker attempt %1 failed; dead-lettered").arg(e.attempt);
        if (e.toState == u"lease_expired")
            return tr("Worker attempt %1 lost: its worker stopped, the lease expired")
                .arg(e.attempt);
        return tr("Worker attempt %1 failed; retry scheduled").arg(e.attempt);
    case TimelineKind::Ledger: return tr("Ledger: %1 %2").arg(Labels::ledgerKind(e.detail), amount);
    case TimelineKind::RefundDue: return tr("Refund due: %1").arg(amount);
    case TimelineKind::Fix: return tr("Manual fix %1").arg(e.causeId);
    case TimelineKind::Audit: return tr("Audit: %1").arg(Labels::auditAction(e.toState));
    case TimelineKind::Exception: {
        const QString kind = Labels::discrepancyKind(e.toState);
        const QString expected =
            e.hasExpected
                ? Labels::money(e.expectedMinor,
                                e.expectedCurrency.isEmpty() ? e.currency : e.expectedCurrency)
                : QString();
        if (!expected.isEmpty() && !amount.isEmpty())
            return tr("Open reconciliation exception: %1, expected %2, statement %3")
                .arg(kind, expected, amount);
        return tr("Open reconciliation exception: %1").arg(kind);
    }
    }
    return {};
}

QString TimelineModel::detailText(const TimelineEntry &e, const QString &auditRole)
{
    switch (e.kind) {
    case TimelineKind::Ledger: return {};
    // Its kind as words, with the channel's own event name as the channel says it.
    case TimelineKind::CallbackReceived: return Labels::callbackEvent(e.toState, e.detail);
    // A transition's reason is the engine's, or the words of whoever asked for it: the shop's
    // platform through a request (a rollback's or a cancellation's reason), staff through a fix.
    case TimelineKind::Transition:
        return Labels::givenReason(e.detail, Labels::transitionAuthor(e.causeKind));
    case TimelineKind::Audit: return Labels::auditReason(e.toState, auditRole, e.detail);
    default: return Labels::engineText(e.detail);
    }
}

TimelineModel::TimelineModel(QObject *parent)
    : RowTableModel(parent)
{
    const auto decorate = [](const TimelineEntry &e, int role) -> QVariant {
        if (role == RefusedRole)
            return e.refused;
        if (role == Qt::BackgroundRole) {
            if (e.refused)
                return QBrush(QColor(Labels::refusedColour()));
            if (e.kind == TimelineKind::Transition && e.toState == u"pending_payment" &&
                e.version > 1)
                return QBrush(QColor(Labels::rollbackColour()));
        }
        return {};
    };
    addColumn(tr("Time"), [decorate](const TimelineEntry &e, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::time(e.at);
        return decorate(e, role);
    });
    addColumn(tr("Version"), [decorate](const TimelineEntry &e, int role) -> QVariant {
        if (role == Qt::DisplayRole) {
            if (e.kind == TimelineKind::Transition)
                return tr("v%1").arg(e.version);
            if (e.kind == TimelineKind::Rejection && e.version >= 0)
                return tr("expected v%1").arg(e.version);
            return QString();
        }
        return decorate(e, role);
    });
    addColumn(tr("Event"), [decorate](const TimelineEntry &e, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return describe(e);
        if (role == Qt::FontRole && (e.kind == TimelineKind::Transition || e.refused)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return decorate(e, role);
    });
    addColumn(tr("Detail"), [this, decorate](const TimelineEntry &e, int role) -> QVariant {
        const auto shownText = [this, &e] {
            return detailText(e, e.kind == TimelineKind::Audit ? m_auditRoles.value(e.causeId)
                                                               : QString());
        };
        if (role == Qt::DisplayRole)
            return shownText();
        // The whole detail, wrapped (the column may cut it), and the text as stored.
        if (role == Qt::ToolTipRole && e.kind != TimelineKind::Ledger && !e.detail.isEmpty()) {
            const QString shown = shownText();
            QString tip = QStringLiteral("<p>%1</p>").arg(shown.toHtmlEscaped());
            if (shown != e.detail)
                tip += QStringLiteral("<p><i>%1</i></p>").arg(e.detail.toHtmlEscaped());
            return tip;
        }
        return decorate(e, role);
    });
    addColumn(tr("Cause"), [decorate](const TimelineEntry &e, int role) -> QVariant {
        if (role == Qt::DisplayRole) {
            if (e.kind == TimelineKind::Exception)
                return tr("reconciliation exception %1").arg(e.causeId);
            return e.causeId.isEmpty() ? Labels::causeKind(e.causeKind)
                                       : tr("%1 %2").arg(Labels::causeKind(e.causeKind), e.causeId);
        }
        return decorate(e, role);
    });
    addColumn(tr("Actor"), [decorate](const TimelineEntry &e, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return e.actor;
        return decorate(e, role);
    });
}

void TimelineModel::setAuditRows(const QList<AuditRow> &audit)
{
    m_auditRoles.clear();
    for (const AuditRow &a : audit)
        m_auditRoles.insert(a.eventId, a.actorRole);
}

MessageModel::MessageModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Received"), timeCell([](const CallbackMessageRow &m) { return m.receivedAt; }));
    addColumn(tr("Callback"), display([](const CallbackMessageRow &m) { return m.callbackId; }));
    addColumn(tr("Event"), display([](const CallbackMessageRow &m) {
                  return Labels::callbackEvent(m.eventKind, m.channelEventType);
              }));
    addColumn(tr("Attempt"), display([](const CallbackMessageRow &m) { return m.attemptRef; }));
    addColumn(tr("Amount"), [](const CallbackMessageRow &m, int role) -> QVariant {
        if (!m.hasAmount)
            return {};
        if (role == Qt::DisplayRole)
            return Labels::money(m.amountMinor, m.currency);
        if (role == SortRole)
            return Labels::moneySortKey(m.amountMinor, m.currency);
        return {};
    });
    addColumn(tr("Status"), [](const CallbackMessageRow &m, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::messageStatus(m.status);
        if (role == RefusedRole)
            return m.status == u"skipped" || m.status == u"dead" || m.status == u"failed";
        if (role == Qt::BackgroundRole && (m.status == u"dead" || m.status == u"skipped"))
            return QBrush(QColor(Labels::refusedColour()));
        return {};
    });
    addColumn(tr("Tries"), display([](const CallbackMessageRow &m) { return m.attempts; }));
    addColumn(tr("Reason / last error"), engineTextCell([](const CallbackMessageRow &m) {
                  return m.deadLettered             ? m.deadReason
                         : m.resultReason.isEmpty() ? m.lastError
                                                    : m.resultReason;
              }));
}

PaymentModel::PaymentModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Captured"), timeCell([](const PaymentRow &p) { return p.capturedAt; }));
    addColumn(tr("Channel"), display([](const PaymentRow &p) { return p.channel; }));
    addColumn(tr("Transaction"), display([](const PaymentRow &p) { return p.channelTxnId; }));
    addColumn(tr("Amount"), moneyCell([](const PaymentRow &p) { return p.amountMinor; },
                                      [](const PaymentRow &p) { return p.currency; }));
    addColumn(tr("Status"),
              display([](const PaymentRow &p) { return Labels::paymentStatus(p.status); }));
    addColumn(tr("Settlement"), display([](const PaymentRow &p) {
                  return Labels::settlementStatus(p.settlementStatus);
              }));
    addColumn(tr("Attempt"), display([](const PaymentRow &p) { return p.requestId; }));
    addColumn(tr("Callback"), display([](const PaymentRow &p) { return p.callbackId; }));
}

LedgerModel::LedgerModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Booked"), timeCell([](const LedgerRow &l) { return l.createdAt; }));
    addColumn(tr("Kind"), display([](const LedgerRow &l) { return Labels::ledgerKind(l.kind); }));
    addColumn(tr("Amount"), moneyCell([](const LedgerRow &l) { return l.amountMinor; },
                                      [](const LedgerRow &l) { return l.currency; }));
    addColumn(tr("Transaction"), display([](const LedgerRow &l) { return l.channelTxnId; }));
    addColumn(tr("Callback"), display([](const LedgerRow &l) { return l.callbackId; }));
    addColumn(tr("Key"), display([](const LedgerRow &l) { return l.entryKey; }));
}

IdempotencyModel::IdempotencyModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Created"), timeCell([](const IdempotencyRow &i) { return i.createdAt; }));
    addColumn(tr("Request"), display([](const IdempotencyRow &i) { return i.requestId; }));
    addColumn(tr("Operation"), codeCell([](const IdempotencyRow &i) { return i.operation; },
                                        Labels::requestOperation));
    addColumn(tr("Expected version"),
              display([](const IdempotencyRow &i) { return i.expectedVersion; }));
    addColumn(tr("Status"), [](const IdempotencyRow &i, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::idempotencyStatus(i.status);
        if (role == Qt::BackgroundRole && i.status == 0)
            return QBrush(QColor(Labels::rollbackColour()));
        return {};
    });
    addColumn(tr("Outcome"),
              codeCell([](const IdempotencyRow &i) { return i.outcome; }, Labels::requestOutcome));
}

RefundModel::RefundModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Flagged"), timeCell([](const RefundObligationRow &r) { return r.createdAt; }));
    addColumn(tr("Channel"), display([](const RefundObligationRow &r) { return r.channel; }));
    addColumn(tr("Transaction"),
              display([](const RefundObligationRow &r) { return r.channelTxnId; }));
    addColumn(tr("Amount"), moneyCell([](const RefundObligationRow &r) { return r.amountMinor; },
                                      [](const RefundObligationRow &r) { return r.currency; }));
    addColumn(tr("Reason"), engineTextCell([](const RefundObligationRow &r) { return r.reason; }));
    // The callback whose money is owed back, or the rollback that left it captured
    // ("rollback:<order>:v<N>").
    addColumn(tr("Source"), display([](const RefundObligationRow &r) { return r.callbackId; }));
    addColumn(tr("Resolved"), [](const RefundObligationRow &r, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return r.resolvedAt ? Labels::time(r.resolvedAt) : tr("open");
        if (role == Qt::BackgroundRole && !r.resolvedAt)
            return QBrush(QColor(Labels::rollbackColour()));
        return {};
    });
}

FulfilmentModel::FulfilmentModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Created"), timeCell([](const FulfilmentRow &f) { return f.createdAt; }));
    addColumn(tr("Kind"), display([](const FulfilmentRow &f) {
                  return f.kind == u"purchase" ? tr("purchase order") : tr("logistics order");
              }));
    addColumn(tr("Status"),
              codeCell([](const FulfilmentRow &f) { return f.status; }, Labels::fulfilmentStatus));
    addColumn(tr("Callback"), display([](const FulfilmentRow &f) { return f.callbackId; }));
}

AuditRowModel::AuditRowModel(QObject *parent)
    : RowTableModel(parent)
{
    addColumn(tr("Time"), timeCell([](const AuditRow &a) { return a.occurredAt; }));
    addColumn(tr("Action"),
              codeCell([](const AuditRow &a) { return a.action; }, Labels::auditAction));
    addColumn(tr("Actor"), display([](const AuditRow &a) {
                  return tr("%1 (%2)").arg(a.actor, Labels::actorRole(a.actorRole));
              }));
    addColumn(tr("Entity"), display([](const AuditRow &a) {
                  return tr("%1 %2").arg(Labels::entityKind(a.entityKind), a.entityId);
              }));
    addColumn(tr("Before"), display([](const AuditRow &a) { return a.beforeJson; }));
    addColumn(tr("After"), display([](const AuditRow &a) { return a.afterJson; }));
    addColumn(tr("Reason"), [](const AuditRow &a, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return Labels::auditReason(a.action, a.actorRole, a.reason);
        if (role == Qt::ToolTipRole)
            return a.reason; // as stored, codes and all
        return {};
    });
    addColumn(tr("Shipped"), [](const AuditRow &a, int role) -> QVariant {
        if (role == Qt::DisplayRole)
            return a.shippedAt ? Labels::time(a.shippedAt) : tr("not yet");
        return {};
    });
}

} // namespace OncePay
