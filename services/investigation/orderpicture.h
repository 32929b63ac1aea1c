#pragma once

// Everything the database knows about one order, for the investigation page: the order,
// its transitions and refused attempts, its callbacks as stored in the message table (with
// dead letters and the worker's attempts that did not complete), payments, ledger entries, refund
// obligations, reconciliation exceptions (discrepancies), idempotency records, purchase and
// logistics orders, the audit_outbox rows, and a timeline that interleaves them. Thread contract:
// plain values. The rows a page shows compare equal field by field, so a page can tell what changed
// when it reads an order again.

#include "fixes/fixtypes.h"
#include "orders/order.h"

#include <QList>
#include <QString>

#include <utility>

namespace OncePay {

struct CallbackMessageRow {
    qint64 id = 0;
    QString callbackId;
    QString channel;
    QString eventKind;
    QString channelEventType;
    QString attemptRef;
    QString channelTxnId;
    bool hasAmount = false;
    qint64 amountMinor = 0;
    QString currency;
    QString status;
    int attempts = 0;
    QString lastError;
    QString resultReason;
    QString leaseOwner;
    qint64 leaseUntil = 0;
    qint64 receivedAt = 0;
    qint64 updatedAt = 0;
    qint64 finishedAt = 0;
    QString rawBody;
    QString headers;
    bool deadLettered = false;
    QString deadReason;
    qint64 deadAt = 0;

    bool operator==(const CallbackMessageRow &) const = default;
};

// A worker's attempt at one of the order's messages that did not complete (callback_attempts):
// failed (a retry was scheduled), dead_lettered or lease_expired (its worker died holding it).
struct CallbackAttemptRow {
    qint64 id = 0;
    qint64 messageId = 0;
    QString callbackId;
    int attempt = 0;
    QString workerId;
    QString outcome;
    QString error; // engine text, as the worker recorded it
    qint64 startedAt = 0;
    qint64 endedAt = 0;

    bool operator==(const CallbackAttemptRow &) const = default;
};

struct PaymentRow {
    qint64 id = 0;
    QString channel;
    QString channelTxnId;
    QString requestId;
    QString callbackId;
    qint64 amountMinor = 0;
    QString currency;
    QString status;
    QString settlementStatus;
    qint64 capturedAt = 0;
    qint64 refundedAt = 0;

    bool operator==(const PaymentRow &) const = default;
};

struct LedgerRow {
    qint64 id = 0;
    QString entryKey;
    QString kind;
    qint64 amountMinor = 0;
    QString currency;
    QString channel;
    QString channelTxnId;
    QString callbackId;
    QString memo;
    qint64 createdAt = 0;

    bool operator==(const LedgerRow &) const = default;
};

struct RefundObligationRow {
    qint64 id = 0;
    QString callbackId;
    QString channel;
    QString channelTxnId;
    qint64 amountMinor = 0;
    QString currency;
    QString reason;
    qint64 createdAt = 0;
    qint64 resolvedAt = 0;

    bool operator==(const RefundObligationRow &) const = default;
};

// A reconciliation finding about the order (by its order id or one of its transactions):
// what was expected, what the statement said, and whether it is still open.
struct OrderExceptionRow {
    qint64 id = 0;
    QString kind;   // not_settled, amount_mismatch, fee_mismatch, ... (discrepancies.kind)
    QString status; // open, auto_fixed, resolved, written_off
    QString channel;
    QString channelTxnId;
    bool hasExpected = false;
    qint64 expectedMinor = 0;
    bool hasActual = false;
    qint64 actualMinor = 0;
    QString currency; // the settlement's, as reconciliation recorded it
    // Of expectedMinor: COALESCE(expected_currency, currency) (migration 0012); differs from
    // currency for a currency mismatch (the order's) and a chargeback in another currency.
    QString expectedCurrency;
    QString detail;
    qint64 openedAt = 0;
    qint64 closedAt = 0;

    bool isOpen() const { return status == u"open"; }
    bool operator==(const OrderExceptionRow &) const = default;
};

struct IdempotencyRow {
    qint64 id = 0;
    QString requestId;
    qint64 expectedVersion = 0;
    QString operation;
    int status = 0; // 0 pending, 1 succeeded, 2 failed
    QString outcome;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;

    bool operator==(const IdempotencyRow &) const = default;
};

struct FulfilmentRow {
    QString kind; // "purchase" or "logistics"
    QString status;
    QString callbackId;
    qint64 createdAt = 0;

    bool operator==(const FulfilmentRow &) const = default;
};

struct AuditRow {
    qint64 id = 0;
    QString eventId;
    qint64 occurredAt = 0;
    QString actor;
    QString actorRole;
    QString action;
    QString entityKind;
    QString entityId;
    QString callbackId;
    QString beforeJson;
    QString afterJson;
    QString reason;
    qint64 shippedAt = 0;

    bool operator==(const AuditRow &) const = default;
};

enum class TimelineKind {
    Transition,       // a state change, with its new version and cause
    Rejection,        // a transition asked for and refused (stale, not allowed, superseded)
    CallbackReceived, // a callback stored in the message table
    MessageOutcome,   // what the worker did with it: completed, skipped, failed, dead
    WorkerAttempt,    // one attempt that did not complete: failed, dead_lettered, lease_expired
    Ledger,           // money booked
    RefundDue,        // captured money flagged for refund
    Fix,              // a manual fix: proposed, approved, rejected, applied or failed
    Audit,            // an audit row about the order (readers with audit rights only)
    Exception,        // an open reconciliation exception (discrepancy) about the order
};

struct TimelineEntry {
    qint64 at = 0;
    TimelineKind kind = TimelineKind::Transition;
    qint64 version = -1; // new version for transitions, expected version for rejections
    QString fromState;
    QString toState;
    QString causeKind;
    QString causeId;
    QString actor;
    QString detail; // status, reason, event type — data, shown as is
    qint64 amountMinor = 0;
    QString currency;
    bool hasAmount = false;
    bool hasExpected = false; // exceptions: what reconciliation expected (amountMinor: what
    qint64 expectedMinor = 0; // the statement said, when it said an amount)
    QString expectedCurrency; // exceptions: expectedMinor's (OrderExceptionRow)
    bool refused = false;     // rejections, skipped and dead messages, failed attempts
    int attempt = 0;          // worker attempts: the attempt's number
    qint64 rowId = 0;         // the row's id in its table: the order among equals at one instant

    bool operator==(const TimelineEntry &) const = default;
};

struct OrderPicture {
    Order order;
    QList<OrderTransition> transitions;
    QList<TransitionRejection> rejections;
    QList<CallbackMessageRow> messages;
    QList<CallbackAttemptRow> attempts; // of those messages, oldest first
    QList<PaymentRow> payments;
    QList<LedgerRow> ledger;
    QList<RefundObligationRow> refunds;
    QList<OrderExceptionRow> discrepancies; // open and closed, oldest first
    QList<IdempotencyRow> idempotency;
    QList<FulfilmentRow> fulfilment;
    QList<AuditRow> audit;
    QList<FixRequest> fixes;   // proposals touching this order, newest first
    bool auditVisible = false; // the reader may read the audit trail; `audit` is empty otherwise
    QList<TimelineEntry> timeline; // oldest first
};

// Money still owed back to the customer: the refund obligations not resolved yet, summed by
// currency (normally the order's own). Empty when nothing is owed. Pure.
QList<std::pair<QString, qint64>> refundsOwed(const OrderPicture &picture);

// The reconciliation exceptions about the order that are still open, oldest first. Pure.
QList<OrderExceptionRow> openExceptions(const OrderPicture &picture);

// Interleaves transitions, refusals, callbacks, the worker's failed attempts and outcomes,
// ledger entries, refund obligations, open reconciliation exceptions, fixes and — when the
// reader may see them — the order's audit rows by time. At the same instant a callback comes
// first, a message's outcome right after the transition its callback caused, a fix's decision
// right before the transition it caused and its "applied" after the money that transaction
// booked, a rollback's refund obligation right after the rollback, an audit row after what it
// records, and entries of one kind in the order of their rows (ordertimeline.cpp). Pure.
QList<TimelineEntry> buildTimeline(const OrderPicture &picture);

} // namespace OncePay
