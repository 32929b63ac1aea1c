#include "auditsealer.h"

#include "auditsealrecord.h"
#include "auditverifier.h"
#include "db/sql.h"

#include <spdlog/spdlog.h>

namespace OncePay {

AuditSealer::AuditSealer(const Connection &audit, const SealKey &key, const Clock &clock)
    : m_audit(audit)
    , m_key(key)
    , m_clock(clock)
{}

Result<AuditSealResult> AuditSealer::seal(const QString &sealedBy)
{
    AuditVerifier verifier(m_audit);
    verifier.setPublicKey(m_key.publicKey());
    if (m_orders)
        verifier.setOrders(*m_orders);
    auto report = verifier.verify();
    if (!report)
        return report.error();
    if (report->problem)
        return makeError(ErrorCode::Corrupt,
                         QStringLiteral("refusing to seal a broken chain: ") +
                             report->problem->message,
                         auditProblemKindName(report->problem->kind));
    if (report->headSeq == 0)
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("the audit log is empty; nothing to seal"));

    auto existing = AuditVerifier::checkpoints(m_audit.db());
    if (!existing)
        return existing.error();
    for (const AuditCheckpoint &cp : std::as_const(*existing)) {
        if (cp.seq == report->headSeq && cp.headHash == report->headHash &&
            cp.keyId == m_key.keyId()) {
            // Recorded in the orders database too, should an earlier seal have missed it.
            if (m_orders)
                if (auto r = AuditSealRecord::write(*m_orders, cp, m_clock); !r)
                    return r.error();
            return AuditSealResult{cp, true};
        }
    }

    AuditCheckpoint cp;
    cp.seq = report->headSeq;
    cp.headHash = report->headHash;
    cp.keyId = m_key.keyId();
    cp.sealedBy = sealedBy;
    cp.sealedAt = m_clock.nowMs();
    cp.signature =
        m_key.sign(AuditChain::sealMessageV2(cp.seq, cp.headHash, cp.sealedBy, cp.sealedAt));
    auto id =
        Sql::insert(m_audit.db(), m_audit.dialect(),
                    QStringLiteral("INSERT INTO audit_checkpoints (seq, head_hash, key_id,"
                                   " signature, sealed_by, sealed_at) VALUES (?, ?, ?, ?, ?, ?)"),
                    {cp.seq, cp.headHash, cp.keyId, cp.signature, cp.sealedBy, cp.sealedAt});
    if (!id)
        return id.error();
    cp.id = *id;
    if (m_orders) {
        if (auto r = AuditSealRecord::write(*m_orders, cp, m_clock); !r) {
            spdlog::error("audit seal at seq {} could not be recorded in the orders database: {}",
                          cp.seq, r.error().message.toStdString());
            return r.error();
        }
    }
    spdlog::info("audit chain sealed at seq {} by {} (key {})", cp.seq, sealedBy.toStdString(),
                 cp.keyId.toStdString());
    return AuditSealResult{cp, false};
}

} // namespace OncePay
