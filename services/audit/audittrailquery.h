#pragma once

// Reads the audit trail (DESIGN.md §5, §6) for the console and exports: rows matching an
// AuditFilter in seq order, one page at a time (keyset on seq, never OFFSET, so page N costs
// the same as page 1 and memory stays flat), the chain head and the latest seal covering it.
//
// Rights: only finance and auditor read the audit trail. Every method takes the actor and
// checks Action::ReadAudit here, in the service, against the staff account as it is now
// (requireCurrent: a disabled or demoted account is refused at its next read, export or
// verification, whatever role it signed in with); a refusal returns ErrorCode::Forbidden and
// leaves an `audit.access_refused` row in the orders database's audit outbox (it reaches the
// chain with the next shipping), so refused attempts are visible to auditors too.
//
// Thread contract: the thread that opened both connections; results are plain values.

#include "auditchain.h"
#include "auditfilter.h"
#include "auditoutbox.h"
#include "auditverifier.h"
#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QByteArrayView>
#include <QList>

#include <functional>
#include <optional>

namespace OncePay {

struct AuditPage {
    QList<AuditLogRow> rows;
    qint64 lastSeq = 0; // pass as afterSeq for the next page
    bool atEnd = false; // fewer rows than asked: nothing follows (yet)
};

// One audit_log row as UTF-8 bytes borrowed from the reader: valid only while the sink that
// receives it runs. Bulk exports read rows this way (on SQLite straight from SQLite's buffers,
// no QString or QVariant per value); std::nullopt is SQL NULL, distinct from empty.
struct AuditLogRowBytes {
    qint64 seq = 0;
    QByteArrayView eventId;
    qint64 occurredAt = 0;
    qint64 recordedAt = 0;
    QByteArrayView actor;
    QByteArrayView actorRole;
    QByteArrayView action;
    QByteArrayView entityKind;
    QByteArrayView entityId;
    std::optional<QByteArrayView> orderId;
    std::optional<QByteArrayView> callbackId;
    std::optional<QByteArrayView> beforeJson;
    std::optional<QByteArrayView> afterJson;
    std::optional<QByteArrayView> reason;
    QByteArrayView prevHash;
    QByteArrayView hash;

    AuditLogRow toRow() const; // the same row as AuditChain::readRow gives
};

// A row read as text (QtSql) held as UTF-8, with its byte views (bytes()) pointing into it:
// how rows that did not come from SQLite's own buffers reach a byte sink. Not copyable (the
// views would point into the copied-from row).
class AuditLogRowUtf8 {
public:
    explicit AuditLogRowUtf8(const AuditLogRow &row);
    AuditLogRowUtf8(const AuditLogRowUtf8 &) = delete;
    AuditLogRowUtf8 &operator=(const AuditLogRowUtf8 &) = delete;
    const AuditLogRowBytes &bytes() const & { return m_bytes; }
    const AuditLogRowBytes &bytes() const && = delete; // would point into a temporary

private:
    QByteArray m_eventId, m_actor, m_actorRole, m_action, m_entityKind, m_entityId, m_prevHash,
        m_hash;
    std::optional<QByteArray> m_orderId, m_callbackId, m_beforeJson, m_afterJson, m_reason;
    AuditLogRowBytes m_bytes;
};

// The newest row of the chain and the newest checkpoint at or below it.
struct AuditHead {
    qint64 seq = 0; // 0: empty chain
    QString hash;
    std::optional<AuditCheckpoint> seal;

    qint64 rowsAfterSeal() const { return seal ? seq - seal->seq : seq; }
    bool sealCoversHead() const { return seal && seal->seq == seq; }
};

// Action::ReadAudit for `actor` as the account is now (requireCurrent, the staff row read
// without a lock): a disabled or demoted reader is refused at the next read, and the refusal is
// audited (audit.access_refused, `what` the attempt) on `orders`. Used by the audit trail and by
// every other place that shows audit rows (the order page and its dossier).
Result<void> authorizeAuditRead(const Connection &orders, const Clock &clock, const Actor &actor,
                                const QString &what);

class AuditTrailQuery {
public:
    // `orders` receives the audit row of a refusal; `audit` is read.
    AuditTrailQuery(const Connection &audit, const Connection &orders, const Clock &clock);

    // Action::ReadAudit for `actor`; a refusal is audited (see above). `what` names the
    // attempt in that row ("read", "export", "verify", "verify-export").
    Result<void> authorize(const Actor &actor, const QString &what) const;

    // Rows with seq > afterSeq matching the filter, at most `limit`, in seq order.
    Result<AuditPage> page(const AuditFilter &filter, qint64 afterSeq, int limit,
                           const Actor &actor) const;
    Result<qint64> count(const AuditFilter &filter, const Actor &actor) const;

    // Streams every matching row in seq order, `pageSize` rows per query; `sink` returning
    // false stops early. Returns the number of rows handed to the sink.
    using RowSink = std::function<bool(const AuditLogRow &row)>;
    Result<qint64> forEach(const AuditFilter &filter, int pageSize, const RowSink &sink,
                           const Actor &actor) const;

    // The same rows as forEach, handed over as UTF-8 bytes. On SQLite they come through
    // SQLite's C API on the connection's own handle (db/sqlitenative.h); other drivers read
    // through QtSql and encode each row once.
    using BytesSink = std::function<bool(const AuditLogRowBytes &row)>;
    Result<qint64> forEachBytes(const AuditFilter &filter, int pageSize, const BytesSink &sink,
                                const Actor &actor) const;

    Result<AuditHead> head(const Actor &actor) const;

    // Audited events still in the orders database's outbox, not yet in the audit database
    // (the workers or `oncepay audit ship` move them): the trail does not show them yet.
    Result<AuditBacklog> unshipped(const Actor &actor) const;

    // Walks the whole chain and its seals (auditverifier.h) for `actor`; `publicKey` null:
    // seals cannot be checked and are reported as such. The report also counts the events
    // still waiting in the outbox (not part of the chain yet).
    Result<AuditVerifyReport> verify(const SealPublicKey *publicKey,
                                     const AuditVerifier::Progress &progress, const Actor &actor,
                                     int batchSize = 5000) const;
    // Without a rights check, for code that already checked (exporter, verifier).
    static Result<AuditHead> readHead(const Connection &audit);

    // The statement a page of matching rows is read with (page(), forEach(), forEachBytes()):
    // rows with seq > afterSeq in seq order, at most `limit`; its values appended to `binds`.
    // An actor, an entity and an exact action each have an index ending with seq (audit
    // migration 0002), so such a page is one range of it, read in order.
    static QString pageStatement(const AuditFilter &filter, qint64 afterSeq, int limit,
                                 QVariantList *binds);

private:
    Result<qint64> stream(const AuditFilter &filter, qint64 afterSeq, int limit,
                          const RowSink &sink) const;
    Result<qint64> forEachNative(const AuditFilter &filter, int pageSize,
                                 const BytesSink &sink) const;

    const Connection &m_audit;
    const Connection &m_orders;
    const Clock &m_clock;
};

} // namespace OncePay
