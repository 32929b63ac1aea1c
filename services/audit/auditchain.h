#pragma once

// The hash chain of the audit log (DESIGN.md §5): one stored row, its canonical encoding and
// its hash. Everything that writes or checks `audit_log` goes through here, so the shipper,
// the verifier and any external auditor's tool agree byte for byte.
//
// Canonical encoding (version 1). Each field is framed as
//     tag (1 ASCII byte) || length (uint32, big-endian) || bytes
// with tag 'S' for text (UTF-8 bytes), 'I' for an integer (its decimal ASCII form, e.g. "-12")
// and 'N' for SQL NULL (length 0, no bytes) — so NULL differs from the empty string 'S' 0.
// The fields, in this order:
//     S "oncepay.audit.v1", I seq, S event_id, I occurred_at, I recorded_at, S actor,
//     S actor_role, S action, S entity_kind, S entity_id, S|N order_id, S|N callback_id,
//     S|N before_json, S|N after_json, S|N reason, S prev_hash
// hash = lowercase hex of SHA-256(encoding). The first row's prev_hash is 64 '0' characters.
// JSON columns are hashed as stored text, never re-serialised.
//
// A checkpoint signs sealMessageV2(seq, head_hash, sealed_by, sealed_at) with Ed25519 (see
// sealkey.h); checkpoints made before that sign sealMessage(seq, head_hash) (version 1, whose
// sealed_by and sealed_at are not covered) and still verify.
//
// Thread contract: plain values and pure functions, except readRow (query's thread).

#include "auditevent.h"

#include <QByteArray>
#include <QSqlQuery>
#include <QString>

#include <memory>
#include <optional>

namespace OncePay {

struct AuditLogRowBytes; // audittrailquery.h: a stored row as UTF-8 byte views

// Named AuditLogRow (not AuditRow): investigation/orderpicture.h has its own AuditRow for an
// order's audit section, and two types of one name in one program break the ODR.
struct AuditLogRow {
    qint64 seq = 0;
    QString eventId;
    qint64 occurredAt = 0;
    qint64 recordedAt = 0;
    QString actor;
    QString actorRole;
    QString action;
    QString entityKind;
    QString entityId;
    std::optional<QString> orderId;
    std::optional<QString> callbackId;
    std::optional<QString> beforeJson;
    std::optional<QString> afterJson;
    std::optional<QString> reason;
    QString prevHash;
    QString hash;
};

// One row of `audit_checkpoints`: a signed statement "the chain had head_hash at seq".
struct AuditCheckpoint {
    qint64 id = 0;
    qint64 seq = 0;
    QString headHash;
    QString keyId;
    QString signature; // base64 Ed25519 detached signature over AuditChain::sealMessageV2 (or,
                       // for a checkpoint of seal format 1, AuditChain::sealMessage)
    QString sealedBy;
    qint64 sealedAt = 0;
};

namespace AuditChain {

// 64 zeros: the prev_hash of seq 1.
QString genesisHash();

QByteArray canonicalEncoding(const AuditLogRow &row);
QString computeHash(const AuditLogRow &row); // uses row.prevHash, ignores row.hash
// The same encoding and hash from the byte views the exporter streams (no QString round trip):
// equal to computeHash(row.toRow()). Lowercase hex, like the stored hash.
QByteArray canonicalEncoding(const AuditLogRowBytes &row);
QByteArray computeHash(const AuditLogRowBytes &row);
// canonicalEncoding(row) into `out` (resized to it, its capacity kept): no allocation per row
// once `out` has grown to the largest row.
void encodeInto(QByteArray &out, const AuditLogRowBytes &row);

// Checks stored rows against their hashes, row after row (an export, a verification): one
// encoding buffer and one SHA-256 context reused, the algorithm fetched once — OpenSSL 3 looks
// EVP_sha256() up again on every one-shot EVP_Digest. Not thread-safe: one per thread.
class RowHasher {
public:
    RowHasher();
    ~RowHasher();
    RowHasher(const RowHasher &) = delete;
    RowHasher &operator=(const RowHasher &) = delete;
    // Whether OpenSSL gave the hasher its SHA-256; without it every row would fail to match,
    // so callers refuse to check anything (an error, not "altered").
    bool ready() const;
    // Whether row.hash is the lowercase hex SHA-256 of the row's canonical encoding.
    bool matches(const AuditLogRowBytes &row);
    // The same for a row read as text (AuditChain::readRow): each field encoded to UTF-8
    // straight into the reused buffer.
    bool matches(const AuditLogRow &row);

private:
    struct Digest;
    std::unique_ptr<Digest> m_digest;
    QByteArray m_buffer;
};

// Column list in the order readRow expects; use as "SELECT " + columns() + " FROM audit_log".
QString columns();
AuditLogRow readRow(const QSqlQuery &query);

// What a checkpoint signs: the same framing over
//     S "oncepay.audit.seal.v1", I seq, S head_hash
QByteArray sealMessage(qint64 seq, const QString &headHash);
// What a checkpoint signs since seal format 2, so who sealed and when cannot be edited either:
//     S "oncepay.audit.seal.v2", I seq, S head_hash, S sealed_by, I sealed_at
QByteArray sealMessageV2(qint64 seq, const QString &headHash, const QString &sealedBy,
                         qint64 sealedAt);

// The INSERT statement and its binds for one row (seq, prev_hash and hash already set).
QString insertSql();
QVariantList insertBinds(const AuditLogRow &row);

} // namespace AuditChain

} // namespace OncePay
