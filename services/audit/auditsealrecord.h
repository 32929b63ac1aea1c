#pragma once

// What the orders database knows about the audit chain, so that rows cut off the end of the
// chain show even when the seals that covered them were cut off with them (DESIGN.md §5;
// review finding 1): the audit database alone can vouch only for what it still holds.
//
// - AuditSealRecord: every seal is also written to the orders database's `audit_outbox` as an
//   `audit.sealed` event (seq, head hash, key, signature, who sealed and when); the newest one
//   is the seal the chain must still reach. The outbox is append-only for the engine, and the
//   event itself reaches the chain with the next shipping.
// - AuditShippedEvents: every outbox event marked shipped must be in `audit_log` (by
//   event_id). Read in one pass over the outbox BEFORE the chain is walked — an event is marked
//   shipped only after its audit row committed, so whatever was marked by then is in the
//   chain the walk reads afterwards — then ticked off in one pass over the chain and compared
//   once, sorted. Memory: 8 bytes per shipped event and 8 per chain row (64-bit fingerprints
//   of the event ids; two different event ids sharing one is a 2^-64 chance per pair, and
//   event ids are UUIDs no one chooses).
//
// Thread contract: the thread that opened the connections; plain values.

#include "auditchain.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <optional>
#include <vector>

namespace OncePay {

namespace AuditSealRecord {

// The outbox action of a seal's record.
inline QString action()
{
    return QStringLiteral("audit.sealed");
}

// Records `cp` (its id, seq, head hash, key, signature, sealed_by, sealed_at) in the orders
// database's outbox, in a transaction of its own. Nothing is written when the newest record
// already names the same seq, head hash and key.
Result<void> write(const Connection &orders, const AuditCheckpoint &cp, const Clock &clock);

// The newest seal recorded in the orders database (none before the first seal made with
// this record). A record whose content cannot be read is an error (Corrupt).
Result<std::optional<AuditCheckpoint>> latest(const Connection &orders);

} // namespace AuditSealRecord

class AuditShippedEvents {
public:
    // One pass over the outbox events marked shipped (keyset pages on the primary key).
    static Result<AuditShippedEvents> read(const Connection &orders);

    // During the chain walk: `eventId` is in the chain.
    void seenInChain(const QString &eventId);

    struct Missing {
        qint64 count = 0; // shipped events not in the chain
        // The lowest outbox id among them, its event id and action (when count > 0).
        qint64 firstOutboxId = 0;
        QString firstEventId;
        QString firstAction;
    };
    // After the walk: the shipped events the chain did not hold. Reads the first one's event
    // id and action from `orders` (one row by primary key).
    Result<Missing> missing(const Connection &orders);

    qint64 shippedCount() const { return qint64(m_shipped.size()); }

private:
    struct Shipped {
        quint64 fingerprint;
        qint64 outboxId;
    };
    std::vector<Shipped> m_shipped; // sorted by fingerprint after read()
    std::vector<quint64> m_chain;   // as seen; sorted by missing()
};

} // namespace OncePay
