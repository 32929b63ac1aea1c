#pragma once

// Claiming and settling rows of the local message table (DESIGN.md §3, steps 3–4).
// Claims take a lease: PostgreSQL/MySQL lock candidate rows with FOR UPDATE SKIP LOCKED so
// concurrent workers never wait for each other; SQLite serialises claims with BEGIN
// IMMEDIATE. A lease that expires (its worker died) is claimed again.
// Thread contract: the connection's thread.

#include "callbackmessage.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

struct RetryPolicy {
    int maxAttempts = 12;
    qint64 leaseMs = 60 * 1000;
    qint64 backoffBaseMs = 5000;
    qint64 backoffMaxMs = 3600 * 1000;
};

// A worker's attempt at a message that did not complete (table callback_attempts, append-only).
struct CallbackAttempt {
    qint64 messageId = 0;
    int attempt = 0;  // the message's attempt count when it was claimed for this attempt
    QString workerId; // the lease owner that made the attempt
    QString outcome;  // failed (retry scheduled), dead_lettered, lease_expired
    QString error;    // as the worker recorded it (engine text)
    qint64 startedAt = 0;
    qint64 endedAt = 0;
};

class MessageStore {
public:
    MessageStore(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Claims up to `batch` due messages (pending/failed whose time has come, and processing
    // ones whose lease expired) for `owner`, incrementing their attempt count. Taking over an
    // expired lease records the dead worker's attempt as lease_expired, in the claim's
    // transaction.
    Result<QList<CallbackMessage>> claim(const QString &owner, int batch, qint64 leaseMs) const;

    // Inside the caller's transaction: true when the message is still leased by `owner`
    // (locks the row on PostgreSQL/MySQL).
    Result<bool> stillOwned(qint64 id, const QString &owner) const;

    // Inside the caller's transaction: completed or skipped, with the reason.
    // `code`: the outcome's code (Decision::code), kept in result_code beside the words.
    Result<void> finish(qint64 id, const QString &status, const QString &reason,
                        const QString &code) const;

    // In its own transaction: failed with back-off, or dead (dead_letters row + audit event)
    // once the attempts are used up, with the attempt's callback_attempts row (failed or
    // dead_lettered). Returns the status written. An infrastructure error
    // (database busy or gone) does not use up an attempt: `countsAsAttempt = false`. `deadNow`:
    // dead at once, whatever the attempts (a message held for a person; retrying cannot cure).
    Result<QString> fail(const CallbackMessage &message, const QString &owner, const QString &error,
                         const RetryPolicy &policy, bool countsAsAttempt = true,
                         bool deadNow = false) const;

    // Next retry delay for the n-th attempt: exponential, capped, ±20 % jitter.
    // The jitter is a function of the message and the attempt, not of a random generator:
    // messages that fail together still retry apart, and a simulated month run again with the
    // same seed retries at the same times (the same business digest).
    static qint64 backoffMs(qint64 messageId, int attempt, const RetryPolicy &policy);

    static Result<CallbackMessage> fromQuery(const class QSqlQuery &q);

    // One row of callback_attempts, inside the caller's transaction (the one that records the
    // failure, the takeover — or a fix that takes over a message whose worker died).
    Result<void> recordAttempt(const CallbackAttempt &attempt) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
