#pragma once

// Seals the audit chain head (DESIGN.md §5): verifies the whole chain, then signs the
// (seq, hash) of the last verified row with the Ed25519 seal key and appends the checkpoint
// to `audit_checkpoints`. A broken chain is never sealed (Corrupt), so a seal always vouches
// for rows that verified. Sealing a head that is already sealed returns that checkpoint.
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

    Result<AuditSealResult> seal(const QString &sealedBy);

private:
    const Connection &m_audit;
    const SealKey &m_key;
    const Clock &m_clock;
};

} // namespace OncePay
