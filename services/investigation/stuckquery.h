#pragma once

// Records that should have moved on and did not (DESIGN.md §6): messages pending or
// processing past `stuck.pending_seconds`, expired leases, dead letters whose message is
// still dead (neither requeued nor resolved), idempotency records pending past
// `stuck.idempotency_pending_seconds` while their order still sits at the request's version,
// unresolved refund obligations (money captured for a superseded attempt), and orders
// sitting in paying or paid_unconfirmed past `stuck.pending_seconds`. Every kind tests the
// record's current state, so a record that left its stuck condition (through a fix or the
// engine) leaves the list and the counts. Thresholds come from ops_settings; a stored
// threshold that is no whole number within the settings service's range refuses the load
// ("bad_setting"), never replaced by a default. The list is read a page at a time, oldest
// first across the kinds, each kind continuing after the last row shown (keyset: its since
// and reference), so every record can be reached however many there are.
// Thread contract: the connection's thread; results are plain values.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QList>
#include <QMap>

#include <optional>

namespace OncePay {

enum class StuckKind {
    PendingMessage,     // pending (since received or requeued) or failed (waiting for a
                        // retry, since its last requeue, else since received) past the threshold
    ProcessingMessage,  // processing, lease still valid, but not finished past the threshold
    ExpiredLease,       // processing with a lease that ran out: its worker died
    DeadLetter,         // attempts used up, message still dead; waits for a person
    PendingIdempotency, // a request that never finished, its order still at its version
    RefundObligation,   // captured money to give back
    OrderInFlight,      // paying or paid_unconfirmed past the threshold
};

QString stuckKindName(StuckKind kind); // "pending_message", …
QList<StuckKind> allStuckKinds();

struct StuckRecord {
    StuckKind kind = StuckKind::PendingMessage;
    QString reference; // message id, dead letter id, request id, obligation id, order id
    QString orderId;
    QString callbackId;
    QString channel;
    QString status; // message status, order state, …
    qint64 sinceMs = 0;
    qint64 ageMs = 0;
    int attempts = 0;
    QString lastError;
    bool hasAmount = false;
    qint64 amountMinor = 0;
    QString currency;
    // A message's lease end (epoch ms), when it has one: what decides whether a processing
    // message may take a manual fix (services/fixes/fixrules.h) without asking again.
    std::optional<qint64> leaseUntilMs;
};

// Where a kind's list continues: after its row with this since and reference (the last one
// shown), in the order the kind is listed (since, then reference).
struct StuckCursor {
    qint64 sinceMs = 0;
    QString reference;
    bool operator==(const StuckCursor &) const = default;
};

struct StuckFilter {
    QList<StuckKind> kinds; // empty: all
    qint64 minAgeMs = 0;    // on top of the thresholds
    int pageSize = 2000;    // rows per load, across the kinds
    // The next page: each kind continues after its cursor (a kind without one starts at its
    // oldest). A kind already read to its end is left out of `kinds`.
    QMap<StuckKind, StuckCursor> after;
    qint64 atMs = 0;        // the moment the list is read as of (a page after the first
                            // passes the first's `now`, so the cut-offs stay put); 0: now
    bool withCounts = true; // a page after the first needs no counts
};

struct StuckReport {
    qint64 pendingThresholdMs = 0;
    qint64 idempotencyThresholdMs = 0;
    qint64 now = 0;
    // The oldest `pageSize` records after the cursors, oldest first across the kinds (ties in
    // the order of allStuckKinds(), then by reference within a kind).
    QList<StuckRecord> records;
    QMap<StuckKind, qint64> counts; // every matching record (withCounts only)
    QList<StuckKind> ended;         // kinds whose last record is in `records` (or none left)
    // Where each kind with records here continues: after its last one (StuckFilter::after).
    QMap<StuckKind, StuckCursor> cursors;
};

class StuckQuery {
public:
    StuckQuery(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Requires Action::ReadOrders.
    Result<StuckReport> load(const StuckFilter &filter, const Actor &actor) const;
    Result<QMap<StuckKind, qint64>> counts() const;

    // The statement load() runs for a page of `kind`: binds its cut-offs (and `now` where the
    // kind needs it), then, when `continued`, the cursor's since three times and its reference
    // — all of that `bindRounds` times (on MariaDB a kind spanning several statuses is read
    // part by part, each part binding them). The tests read its plan: a page must not sort
    // what is left of its kind.
    struct PageStatement {
        QString sql;
        int bindRounds = 1;
    };
    static PageStatement pageStatement(StuckKind kind, Dialect dialect, bool continued, int limit);

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
