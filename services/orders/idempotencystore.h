#pragma once

// Idempotency records (seed 000): the request id is written and committed as `pending`
// BEFORE any business work, so that a retry after a crash or a database failover finds it;
// it is then settled as succeeded or failed with the outcome the caller returned.
// Thread contract: the connection's thread.

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

enum class IdempotencyStatus { Pending = 0, Succeeded = 1, Failed = 2 };

struct IdempotencyRecord {
    QString requestId;
    QString orderId;
    qint64 expectedVersion = 0;
    QString operation;
    QString payloadDigest;
    IdempotencyStatus status = IdempotencyStatus::Pending;
    QString outcome; // JSON of the result, or the failure message
    qint64 createdAt = 0;
};

class IdempotencyStore {
public:
    IdempotencyStore(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Inserts and commits a pending record; `*fresh` says whether this call created it.
    // An existing record with another payload digest is a Conflict ("request id reused").
    Result<IdempotencyRecord> begin(const IdempotencyRecord &wanted, bool *fresh) const;

    // Settles the record; runs in the caller's transaction if one is open.
    Result<void> finish(const QString &requestId, IdempotencyStatus status,
                        const QString &outcome) const;

    Result<std::optional<IdempotencyRecord>> find(const QString &requestId) const;

    static QString digest(const QStringList &parts);

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
