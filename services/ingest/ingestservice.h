#pragma once

// The door of the pipeline (DESIGN.md §3, steps 1–2): verify the channel's signature, parse
// into a NormalizedCallback and insert it into the local message table, whose unique
// callback_id makes a channel's retry a harmless "already received".
// A rejected request writes nothing but an ingest_rejections row and its audit event. A
// duplicate of a payment result is counted in callback_door_counts (the dashboard's duplicates
// absorbed), after the message's own statement or transaction and outside it: a count that
// cannot be written is logged and never changes the duplicate's answer.
// Thread contract: one IngestService per thread, over that thread's connection; it must not
// outlive that connection (it keeps a prepared statement on it).

#include "channels/channelregistry.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QSqlQuery>
#include <QVariant>

#include <array>
#include <memory>
#include <optional>

namespace OncePay {

enum class IngestStatus {
    Stored,    // new message, pending for the worker
    Skipped,   // new message of a kind OncePay does not act on, stored as skipped
    Duplicate, // already received: nothing written
};

struct IngestOutcome {
    IngestStatus status = IngestStatus::Stored;
    QString callbackId;
};

// The callback_messages row of a verified callback, every value ready to bind. Built where
// the callback was verified (the gateway's request threads), so that the one thread that
// commits — the gateway's bottleneck — only binds and executes.
struct MessageRow {
    static constexpr int kColumns = 18;
    QString callbackId;
    QString channel;
    bool skipped = false;
    // A payment's success, failure or refund: its duplicates are counted at the door; an event
    // OncePay does not act on (or a "still pending" notice) is not a duplicate absorbed.
    bool paymentResult = false;
    qint64 receivedAtMs = 0;
    std::array<QVariant, kColumns> values;
};

// Duplicates of one channel absorbed at the door in one bucket (callback_door_counts).
struct IngestDoorCount {
    QString channel;
    qint64 bucketStartMs = 0;
    qint64 duplicates = 0;
};

struct IngestLimits {
    qint64 maxBodyBytes = 256 * 1024;
};

class IngestService {
public:
    IngestService(const Connection &connection, const ChannelRegistry &channels, const Clock &clock,
                  IngestLimits limits = {});

    // callback_door_counts buckets: five minutes, the dashboard's finest, starting at UTC epoch
    // multiples (every coarser dashboard bucket holds a whole number of them).
    static constexpr qint64 kDoorBucketMs = 5 * 60 * 1000;
    static qint64 doorBucketOf(qint64 ms)
    {
        return ms - ((ms % kDoorBucketMs) + kDoorBucketMs) % kDoorBucketMs;
    }

    // Verify + parse + store, each request its own transaction. Not to be called inside a
    // transaction of the caller's (the door count runs after the store, on its own).
    Result<IngestOutcome> ingest(const QString &channel, const InboundRequest &request) const;

    // Verify + parse without touching the database (the gateway does this before batching).
    // On failure the rejection is NOT yet recorded; call recordRejection(). A callback with a
    // value its message table column cannot hold (checkStorable) is refused here, on every
    // dialect: the row could not be stored on all of them.
    Result<NormalizedCallback> verifyAndParse(const QString &channel,
                                              const InboundRequest &request) const;

    // Whether every value of the callback fits its callback_messages column in all three
    // dialects: kStoredVarcharChars characters (MySQL VARCHAR(191)) for the ids and the event
    // type, 3 for the currency, kStoredTextBytes for a skip reason (MySQL TEXT); else
    // field_too_long. A NUL character in any of them or in the body (PostgreSQL's text
    // refuses it) → field_not_storable.
    static Result<void> checkStorable(const NormalizedCallback &callback, const QByteArray &body);
    static constexpr qsizetype kStoredVarcharChars = 191;
    static constexpr qsizetype kStoredTextBytes = 65535;

    // The row a verified callback is stored as, received now (this service's clock). Touches
    // no database; safe on any thread that owns this service.
    MessageRow messageRow(const NormalizedCallback &callback, const InboundRequest &request) const;

    // Stores rows of already verified callbacks in ONE transaction (group commit). The
    // results are in input order; if the transaction fails every result carries that error.
    // Once it has committed, its duplicates are counted at the door in a short transaction of
    // their own, whose failure is only logged.
    QList<Result<IngestOutcome>> storeBatch(const QList<MessageRow> &rows) const;

    // Writes the ingest_rejections row and audit event for a refused request. `unreadBytes`:
    // a body refused before it was read (the gateway's 413): its declared size is the row's
    // body_size and no body hash is written (there is no body to hash).
    Result<void> recordRejection(const QString &channel, const InboundRequest &request,
                                 const Error &error,
                                 std::optional<qint64> unreadBytes = std::nullopt) const;

    // The request's headers as stored in callback_messages.headers: a JSON array of
    // [name, value] string pairs, in arrival order (values decoded as UTF-8), each
    // credential's value replaced by "[redacted, N bytes]" (HeaderRedaction; readers mask
    // rows stored before with HeaderRedaction::read).
    static QString headersJson(const InboundRequest &request);

    // Adds duplicates to callback_door_counts: one upsert per bucket and channel, in key order
    // (concurrent committers lock the rows alike), in one transaction. Never fails: what could
    // not be counted is logged, with how many duplicates went uncounted. Returns whether they
    // were counted.
    bool countAtDoor(const QList<IngestDoorCount> &counts) const;

private:
    Result<IngestOutcome> storeRow(const QSqlDatabase &db, const MessageRow &row) const;

    const Connection &m_c;
    // The message INSERT, prepared once and re-bound per callback (a fresh prepare per row
    // cost more than the row itself in batched ingest). Dropped after an error and re-prepared
    // when the connection was reopened under another name.
    mutable std::unique_ptr<QSqlQuery> m_insert;
    mutable QString m_insertConnection;
    const ChannelRegistry &m_channels;
    const Clock &m_clock;
    IngestLimits m_limits;
};

} // namespace OncePay
