#pragma once

// Audit shipping from a standing worker's thread (WorkerPoolOptions::afterRound): the events
// written into the orders database's audit_outbox — by the worker, the console, `order create`,
// fixes — are copied into the audit database by AuditShipper (DESIGN.md §1, §5), in bounded
// steps so that callbacks keep being processed between them. The pool calls it after every
// round that claimed callbacks and on idle rounds every few seconds, and again after the next
// round while it says events still wait, so a backlog drains whether or not callbacks arrive.
//
// An audit database that is away never holds up business work: the events stay in the outbox,
// the failure is logged once (warn) until shipping works again, and the connection is opened
// afresh with a back-off. The connection is dropped on an Unavailable error (a lost link, a
// read-only server after a failover) and after a few failures in a row whatever their kind.
//
// Thread contract: one per pool thread (a thread_local in the hook), used on that thread only;
// it owns that thread's audit connection.

#include "config/connectionprofile.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <chrono>
#include <functional>
#include <optional>

namespace OncePay {

class WorkerAuditShipping {
public:
    struct Options {
        int batchSize = 500;
        int maxBatchesPerCall = 4;  // at most this many batches per call: bounded per round
        int resetAfterFailures = 3; // failed calls in a row before the connection is reopened
        // After a failed open or a dropped connection the next open waits this long, doubling up
        // to the maximum until shipping works again.
        qint64 firstReopenDelayMs = 1000;
        qint64 maxReopenDelayMs = 30000;
    };

    WorkerAuditShipping(ConnectionProfile audit, const Clock &clock);
    WorkerAuditShipping(ConnectionProfile audit, const Clock &clock, Options options);

    // Ships up to maxBatchesPerCall batches from `orders` (the worker's connection). True when
    // events may still wait (a full step was shipped): call again soon. False when the outbox
    // is empty — checked first on the orders database alone, the audit one is not touched —
    // or shipping failed (retried on a later call).
    bool ship(const Connection &orders);

    // Whether this thread's audit connection is open (tests).
    bool connected() const { return m_audit.has_value(); }

private:
    // Closes the connection (if open); the next open is tried after the current delay, which
    // doubles up to maxReopenDelayMs until a call ships again.
    void backOff(std::chrono::steady_clock::time_point now);

    ConnectionProfile m_profile;
    const Clock &m_clock;
    Options m_options;
    std::optional<Connection> m_audit;
    int m_failures = 0;         // failed calls in a row
    bool m_saidFailing = false; // the warning for this outage was logged
    qint64 m_reopenDelayMs = 0;
    std::chrono::steady_clock::time_point m_reopenAt{};
};

// The afterRound hook of a standing worker (`oncepay work`, `oncepay gateway --with-worker`):
// one WorkerAuditShipping per pool thread, shipping to `audit`.
std::function<bool(const Connection &)> workerAuditShippingHook(const ConnectionProfile &audit);

} // namespace OncePay
