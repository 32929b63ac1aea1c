#pragma once

// Copies `audit_outbox` rows (orders database) into the hash-chained `audit_log` (audit
// database) exactly once (DESIGN.md §1, §5).
//
// Each batch: read the oldest unshipped outbox rows; in ONE audit-database transaction take
// the chain lock (PostgreSQL pg_advisory_xact_lock, MySQL GET_LOCK, SQLite BEGIN IMMEDIATE),
// read the head, skip event_ids already present, append the rest with seq = head + 1 … and
// their hashes, commit; only then mark the outbox rows shipped. A crash between the two
// commits leaves rows that the next run finds present and merely marks, so nothing is
// audited twice; concurrent shippers serialise on the lock, so the chain never forks.
// An unreachable audit database is an Unavailable error and leaves the outbox untouched.
//
// Thread contract: use on the thread that opened both connections; the object only borrows
// them (they must outlive it).

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

struct AuditShipReport {
    qint64 shipped = 0;        // rows appended to audit_log
    qint64 alreadyPresent = 0; // outbox rows whose event_id was already in audit_log
    qint64 headSeq = 0;        // chain head after the last batch (0 = empty chain)
    int batches = 0;
};

class AuditShipper {
public:
    struct Options {
        int batchSize = 500;
        int maxBatches = 0; // shipAll(): 0 = until the outbox is drained
    };

    AuditShipper(const Connection &orders, const Connection &audit, const Clock &clock);
    AuditShipper(const Connection &orders, const Connection &audit, const Clock &clock,
                 Options options);

    // One batch; a report with shipped == alreadyPresent == 0 means the outbox was empty.
    Result<AuditShipReport> shipBatch();
    // Batches until drained (or maxBatches). On an error after some batches the error is
    // returned; what was shipped stays shipped.
    Result<AuditShipReport> shipAll();

    // Outbox rows still waiting for the audit database.
    Result<qint64> pendingCount() const;

    // Opens both databases (the audit one migrated on first use) and drains the outbox.
    // An unreachable audit database is Unavailable; the outbox is not touched.
    static Result<AuditShipReport> ship(const ConnectionProfile &orders,
                                        const ConnectionProfile &audit, const Clock &clock,
                                        Options options);

private:
    const Connection &m_orders;
    const Connection &m_audit;
    const Clock &m_clock;
    Options m_options;
};

} // namespace OncePay
