#pragma once

// Walks the audit chain (DESIGN.md §5) and names the first problem: a row altered, missing
// or reordered/relinked, a checkpoint with a bad signature, a sealed head that no longer
// matches, or rows cut off after a seal. Reads in seq order in batches (keyset paging), so
// memory stays flat for any chain length.
//
// Order of checks: every checkpoint's signature first (a forged seal makes the rest moot),
// then the rows from seq 1 upwards — for each row: seq gap-free, prev_hash = the previous
// row's hash, hash = SHA-256 of its canonical encoding, and any checkpoint at that seq
// matches — then checkpoints beyond the end of the chain (truncation).
//
// With the orders database (setOrders; the CLI, the console and the sealer give it), rows cut
// off the end show even when their checkpoints were cut off too (auditsealrecord.h): the
// newest seal recorded in the orders database is checked like a checkpoint (signature, the
// row at its seq, the chain reaching it), and every outbox event marked shipped must be in the
// chain (read in one pass before the walk; a missing one is reported as a truncation).
// Without it only the audit database's own checkpoints vouch for the end of the chain.
//
// Thread contract: the console runs verify() off the GUI thread: open the audit Connection
// in that thread, build the verifier there, and deliver the plain report back queued. The
// progress callback runs on the verifying thread; returning false cancels.

#include "auditchain.h"
#include "auditoutbox.h"
#include "core/result.h"
#include "db/connection.h"
#include "sealkey.h"

#include <functional>
#include <optional>

namespace OncePay {

struct AuditProblem {
    enum class Kind {
        Altered,      // the row's content no longer matches its hash
        Missing,      // a gap: seq `seq` expected, `foundSeq` found (0 = chain ended)
        Relinked,     // prev_hash is not the previous row's hash (reordered, relinked)
        Truncated,    // a checkpoint seals `seq` but the chain ends at `foundSeq`
        SealMismatch, // the row at a checkpoint's seq has a different hash than was sealed
        BadSignature, // a checkpoint's signature fails, or it was signed by an unknown key
        NoPublicKey,  // checkpoints exist but no public key was given to check them
    };
    Kind kind = Kind::Altered;
    qint64 seq = 0;          // the row (or sealed seq) named
    qint64 foundSeq = 0;     // Missing/Truncated: what was found instead
    qint64 checkpointId = 0; // checkpoint problems
    QString message;         // one readable line naming the row
};

QString auditProblemKindName(AuditProblem::Kind kind); // "altered", "missing", ...

struct AuditVerifyReport {
    qint64 rowsChecked = 0;
    qint64 totalRows = 0;
    qint64 headSeq = 0; // last row checked
    QString headHash;
    int checkpointsChecked = 0;
    // Seal coverage: the newest checkpoint that verified (0 when none); rows after it are
    // covered by the chain only, not yet by a signature.
    qint64 sealedSeq = 0;
    qint64 sealId = 0;
    bool cancelled = false;
    std::optional<AuditProblem> problem;
    // Events still in the orders database's outbox: not in the chain yet, so the chain being
    // valid says nothing about them. Filled by whoever can read the orders database
    // (AuditTrailQuery::verify, `oncepay audit verify`); summary() names them when count > 0.
    AuditBacklog unshipped;
    // Checked against the orders database (setOrders): the shipped outbox events found in the
    // chain, and the seq of the seal recorded there (0: none recorded).
    bool checkedAgainstOrders = false;
    qint64 shippedEventsChecked = 0;
    qint64 recordedSealSeq = 0;

    bool ok() const { return !cancelled && !problem; }
    qint64 rowsAfterSeal() const { return headSeq - sealedSeq; }
    QString summary() const; // one line
};

class AuditVerifier {
public:
    // done and total are row counts; return false to cancel.
    using Progress = std::function<bool(qint64 done, qint64 total)>;

    explicit AuditVerifier(const Connection &audit);

    void setPublicKey(const SealPublicKey &key) { m_publicKey = key; }
    void setBatchSize(int rows) { m_batchSize = qMax(1, rows); }
    // The orders database whose outbox and seal record the chain is checked against; it must
    // outlive the verifier.
    void setOrders(const Connection &orders) { m_orders = &orders; }

    // Database errors are errors; what the chain itself is found to be is in the report.
    Result<AuditVerifyReport> verify(const Progress &progress = {}) const;

    static Result<QList<AuditCheckpoint>> checkpoints(const QSqlDatabase &db);

private:
    std::optional<AuditProblem> checkSignatures(const QList<AuditCheckpoint> &checkpoints) const;
    // The seal recorded in the orders database: its key and signature.
    std::optional<AuditProblem> checkRecordedSeal(const AuditCheckpoint &seal) const;

    const Connection &m_audit;
    const Connection *m_orders = nullptr;
    std::optional<SealPublicKey> m_publicKey;
    int m_batchSize = 2000;
};

} // namespace OncePay
