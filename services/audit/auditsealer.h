#pragma once

// Seals the audit chain head (DESIGN.md §5): verifies the whole chain, then signs the
// (seq, hash) of the last verified row with the Ed25519 seal key and appends the checkpoint
// to `audit_checkpoints`. A broken chain is never sealed (Corrupt), so a seal always vouches
// for rows that verified. Sealing a head that is already sealed returns that checkpoint.
// With the orders database (setOrders; `oncepay audit seal` gives it) the chain is verified
// against it too, and the seal is also recorded there (auditsealrecord.h), so cutting the
// chain and its checkpoints together still shows. The signature covers seq, head hash,
// sealed_by and sealed_at (seal format 2, AuditChain::sealMessageV2).
//
// Thread contract: the thread that opened `audit`; the object borrows its arguments.

#include "auditchain.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "sealkey.h"

namespace OncePay {

struct AuditSealResult {
    AuditCheckpoint checkpoint;
    bool alreadySealed = false; // the head was sealed before; no new row written
};

class AuditSealer {
public:
    AuditSealer(const Connection &audit, const SealKey &key, const Clock &clock);

    // It must outlive the sealer.
    void setOrders(const Connection &orders) { m_orders = &orders; }

    Result<AuditSealResult> seal(const QString &sealedBy);

private:
    const Connection &m_audit;
    const Connection *m_orders = nullptr;
    const SealKey &m_key;
    const Clock &m_clock;
};

} // namespace OncePay
