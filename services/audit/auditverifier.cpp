#include "auditverifier.h"

#include "auditfilter.h"
#include "auditsealrecord.h"

#include "db/sql.h"

#include <limits>

namespace OncePay {

namespace {

AuditProblem problem(AuditProblem::Kind kind, qint64 seq, QString message)
{
    AuditProblem p;
    p.kind = kind;
    p.seq = seq;
    p.message = std::move(message);
    return p;
}

// Seal format 2 signs who sealed and when too; a checkpoint of format 1 signed only the seq
// and head hash. A signature holds for one message only, so an edited sealed_by or sealed_at
// of a format-2 checkpoint fails both.
bool sealSignatureHolds(const SealPublicKey &key, const AuditCheckpoint &cp)
{
    return key.verify(AuditChain::sealMessageV2(cp.seq, cp.headHash, cp.sealedBy, cp.sealedAt),
                      cp.signature) ||
           key.verify(AuditChain::sealMessage(cp.seq, cp.headHash), cp.signature);
}

AuditProblem checkpointProblem(AuditProblem::Kind kind, const AuditCheckpoint &cp, QString message)
{
    AuditProblem p = problem(kind, cp.seq, std::move(message));
    p.checkpointId = cp.id;
    return p;
}

} // namespace

QString auditProblemKindName(AuditProblem::Kind kind)
{
    switch (kind) {
    case AuditProblem::Kind::Altered: return QStringLiteral("altered");
    case AuditProblem::Kind::Missing: return QStringLiteral("missing");
    case AuditProblem::Kind::Relinked: return QStringLiteral("reordered");
    case AuditProblem::Kind::Truncated: return QStringLiteral("truncated");
    case AuditProblem::Kind::SealMismatch: return QStringLiteral("seal_mismatch");
    case AuditProblem::Kind::BadSignature: return QStringLiteral("bad_signature");
    case AuditProblem::Kind::NoPublicKey: return QStringLiteral("no_public_key");
    }
    return QStringLiteral("unknown");
}

QString AuditVerifyReport::summary() const
{
    if (problem)
        return QStringLiteral("audit chain BROKEN: ") + problem->message;
    if (cancelled)
        return QStringLiteral("audit verification cancelled after %1 of %2 rows")
            .arg(rowsChecked)
            .arg(totalRows);
    // Events that have not reached the chain yet: a valid chain is not a complete trail.
    const QString waiting =
        unshipped.count > 0
            ? QStringLiteral("; %1 audited event(s) not yet shipped to the audit database"
                             " (oldest %2): run `oncepay audit ship`")
                  .arg(unshipped.count)
                  .arg(AuditFilter::formatTime(unshipped.oldestOccurredAt))
            : QString();
    if (headSeq == 0)
        return QStringLiteral("audit chain ok: empty, %1 checkpoints").arg(checkpointsChecked) +
               waiting;
    const QString coverage =
        sealedSeq ? QStringLiteral("sealed up to seq %1, %2 row(s) after the last seal")
                        .arg(sealedSeq)
                        .arg(rowsAfterSeal())
                  : QStringLiteral("no seal yet");
    return QStringLiteral("audit chain ok: %1 rows, head seq %2 hash %3, %4 checkpoint(s) verified,"
                          " %5")
               .arg(rowsChecked)
               .arg(headSeq)
               .arg(headHash.left(16))
               .arg(checkpointsChecked)
               .arg(coverage) +
           waiting;
}

AuditVerifier::AuditVerifier(const Connection &audit)
    : m_audit(audit)
{}

Result<QList<AuditCheckpoint>> AuditVerifier::checkpoints(const QSqlDatabase &db)
{
    auto q = Sql::exec(db, QStringLiteral("SELECT id, seq, head_hash, key_id, signature, sealed_by,"
                                          " sealed_at FROM audit_checkpoints ORDER BY seq, id"));
    if (!q)
        return q.error();
    QList<AuditCheckpoint> list;
    while (q->next()) {
        AuditCheckpoint c;
        c.id = q->value(0).toLongLong();
        c.seq = q->value(1).toLongLong();
        c.headHash = q->value(2).toString();
        c.keyId = q->value(3).toString();
        c.signature = q->value(4).toString();
        c.sealedBy = q->value(5).toString();
        c.sealedAt = q->value(6).toLongLong();
        list << c;
    }
    return list;
}

std::optional<AuditProblem> AuditVerifier::checkSignatures(const QList<AuditCheckpoint> &cps) const
{
    for (const AuditCheckpoint &cp : cps) {
        if (!m_publicKey)
            return checkpointProblem(
                AuditProblem::Kind::NoPublicKey, cp,
                QStringLiteral("checkpoint %1 (seq %2) cannot be checked: no seal public key")
                    .arg(cp.id)
                    .arg(cp.seq));
        if (cp.keyId != m_publicKey->keyId())
            return checkpointProblem(AuditProblem::Kind::BadSignature, cp,
                                     QStringLiteral("checkpoint %1 (seq %2) is signed by unknown"
                                                    " key %3 (expected %4)")
                                         .arg(cp.id)
                                         .arg(cp.seq)
                                         .arg(cp.keyId, m_publicKey->keyId()));
        if (!sealSignatureHolds(*m_publicKey, cp))
            return checkpointProblem(AuditProblem::Kind::BadSignature, cp,
                                     QStringLiteral("checkpoint %1 (seq %2) has a bad signature")
                                         .arg(cp.id)
                                         .arg(cp.seq));
    }
    return std::nullopt;
}

std::optional<AuditProblem> AuditVerifier::checkRecordedSeal(const AuditCheckpoint &seal) const
{
    if (!m_publicKey)
        return checkpointProblem(AuditProblem::Kind::NoPublicKey, seal,
                                 QStringLiteral("the seal recorded in the orders database (seq %1)"
                                                " cannot be checked: no seal public key")
                                     .arg(seal.seq));
    if (seal.keyId != m_publicKey->keyId())
        return checkpointProblem(AuditProblem::Kind::BadSignature, seal,
                                 QStringLiteral("the seal recorded in the orders database (seq %1)"
                                                " is signed by unknown key %2 (expected %3)")
                                     .arg(seal.seq)
                                     .arg(seal.keyId, m_publicKey->keyId()));
    if (!sealSignatureHolds(*m_publicKey, seal))
        return checkpointProblem(AuditProblem::Kind::BadSignature, seal,
                                 QStringLiteral("the seal recorded in the orders database (seq %1)"
                                                " has a bad signature")
                                     .arg(seal.seq));
    return std::nullopt;
}

Result<AuditVerifyReport> AuditVerifier::verify(const Progress &progress) const
{
    const QSqlDatabase db = m_audit.db();
    AuditVerifyReport report;
    auto total = Sql::scalar(db, QStringLiteral("SELECT COUNT(*) FROM audit_log"));
    if (!total)
        return total.error();
    report.totalRows = total->toLongLong();
    auto cps = checkpoints(db);
    if (!cps)
        return cps.error();
    if (auto p = checkSignatures(*cps)) {
        report.problem = p;
        return report;
    }
    // The orders database's side, read before the walk (auditsealrecord.h says why).
    std::optional<AuditCheckpoint> recorded;
    std::optional<AuditShippedEvents> shipped;
    if (m_orders) {
        auto seal = AuditSealRecord::latest(*m_orders);
        if (!seal)
            return seal.error();
        recorded = *seal;
        if (recorded) {
            report.recordedSealSeq = recorded->seq;
            if (auto p = checkRecordedSeal(*recorded)) {
                report.problem = p;
                return report;
            }
        }
        auto events = AuditShippedEvents::read(*m_orders);
        if (!events)
            return events.error();
        shipped = std::move(events).value();
    }

    const QString select = QStringLiteral("SELECT ") + AuditChain::columns() +
                           QStringLiteral(" FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?");
    qint64 expected = 1;
    qint64 last = std::numeric_limits<qint64>::min();
    QString prev = AuditChain::genesisHash();
    qsizetype cpIndex = 0;
    AuditChain::RowHasher hasher;
    if (!hasher.ready())
        return makeError(ErrorCode::Internal,
                         QStringLiteral("audit verify: OpenSSL gives no SHA-256; nothing was"
                                        " checked"),
                         QStringLiteral("crypto_unavailable"));
    for (;;) {
        auto q = Sql::exec(db, select, {last, m_batchSize});
        if (!q)
            return q.error();
        int inBatch = 0;
        while (q->next()) {
            ++inBatch;
            const AuditLogRow row = AuditChain::readRow(*q);
            last = row.seq;
            if (row.seq != expected) {
                AuditProblem p = problem(AuditProblem::Kind::Missing, expected,
                                         QStringLiteral("row seq %1 is missing (next row found"
                                                        " is seq %2)")
                                             .arg(expected)
                                             .arg(row.seq));
                p.foundSeq = row.seq;
                report.problem = p;
                return report;
            }
            if (row.prevHash != prev) {
                report.problem = problem(
                    AuditProblem::Kind::Relinked, row.seq,
                    QStringLiteral("row seq %1 is reordered or relinked (its prev_hash is not the"
                                   " hash of seq %2)")
                        .arg(row.seq)
                        .arg(row.seq - 1));
                return report;
            }
            if (!hasher.matches(row)) {
                report.problem = problem(AuditProblem::Kind::Altered, row.seq,
                                         QStringLiteral("row seq %1 was altered (its content does"
                                                        " not match its hash; event %2)")
                                             .arg(row.seq)
                                             .arg(row.eventId));
                return report;
            }
            for (; cpIndex < cps->size() && cps->at(cpIndex).seq <= row.seq; ++cpIndex) {
                const AuditCheckpoint &cp = cps->at(cpIndex);
                if (cp.seq != row.seq || cp.headHash != row.hash) {
                    report.problem = checkpointProblem(
                        AuditProblem::Kind::SealMismatch, cp,
                        QStringLiteral("row seq %1 differs from the head sealed by checkpoint %2")
                            .arg(cp.seq)
                            .arg(cp.id));
                    return report;
                }
                ++report.checkpointsChecked;
                report.sealedSeq = cp.seq;
                report.sealId = cp.id;
            }
            if (recorded && recorded->seq == row.seq && recorded->headHash != row.hash) {
                report.problem = checkpointProblem(
                    AuditProblem::Kind::SealMismatch, *recorded,
                    QStringLiteral("row seq %1 differs from the head sealed by the seal recorded"
                                   " in the orders database")
                        .arg(row.seq));
                return report;
            }
            if (shipped)
                shipped->seenInChain(row.eventId);
            prev = row.hash;
            ++expected;
            ++report.rowsChecked;
            report.headSeq = row.seq;
            report.headHash = row.hash;
        }
        if (progress && !progress(report.rowsChecked, report.totalRows)) {
            report.cancelled = true;
            return report;
        }
        if (inBatch < m_batchSize)
            break;
    }

    if (cpIndex < cps->size()) {
        const AuditCheckpoint &cp = cps->at(cpIndex);
        AuditProblem p = checkpointProblem(
            AuditProblem::Kind::Truncated, cp,
            QStringLiteral(
                "chain truncated: checkpoint %1 seals seq %2 but the chain ends at seq %3"
                " (rows %4..%2 are missing)")
                .arg(cp.id)
                .arg(cp.seq)
                .arg(report.headSeq)
                .arg(report.headSeq + 1));
        p.foundSeq = report.headSeq;
        report.problem = p;
        return report;
    }
    if (!m_orders)
        return report;
    if (recorded && recorded->seq > report.headSeq) {
        AuditProblem p = checkpointProblem(
            AuditProblem::Kind::Truncated, *recorded,
            QStringLiteral("chain truncated: the seal recorded in the orders database seals seq %1"
                           " but the chain ends at seq %2 (rows %3..%1 are missing)")
                .arg(recorded->seq)
                .arg(report.headSeq)
                .arg(report.headSeq + 1));
        p.foundSeq = report.headSeq;
        report.problem = p;
        return report;
    }
    auto missing = shipped->missing(*m_orders);
    if (!missing)
        return missing.error();
    report.checkedAgainstOrders = true;
    report.shippedEventsChecked = shipped->shippedCount() - missing->count;
    if (missing->count > 0) {
        AuditProblem p = problem(
            AuditProblem::Kind::Truncated, report.headSeq + 1,
            QStringLiteral("chain truncated: %1 event(s) shipped to the audit database are not in"
                           " the chain, which ends at seq %2 (the first: event %3, %4)")
                .arg(missing->count)
                .arg(report.headSeq)
                .arg(missing->firstEventId, missing->firstAction));
        p.foundSeq = report.headSeq;
        report.problem = p;
    }
    return report;
}

} // namespace OncePay
