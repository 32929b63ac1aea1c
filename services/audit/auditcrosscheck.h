#pragma once

// The cross-check control of seed 002 (DESIGN.md §5): every completed message
// (callback_messages.status = 'completed') has at least one audit row with its callback_id,
// and every audit row that names a callback_id has its message. Mismatches become alerts.
// A completed message whose audit rows still wait in the outbox is counted as awaiting
// shipment, not as an alert. Each run — passing, failing or unable to read — is itself
// recorded as an "audit.crosscheck" event through the outbox, so auditors see the control ran.
//
// Both sides are read in callback_id byte order in keyset batches and merged, so the check
// never holds either table in memory.
//
// Then the chain's end (review finding 1): every outbox event marked shipped must be in
// audit_log by event_id (one pass over each, compared as 64-bit fingerprints: 8 bytes per
// event), and the seal recorded in the orders database must name a row the chain still has,
// with that hash. A shortfall is one ChainCutShort alert each.
//
// Thread contract: the thread that opened the connections; the object borrows them.
// `messages` and `orders` may be the same Connection (DESIGN.md §1).

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QList>

namespace OncePay {

struct CrossCheckAlert {
    enum class Kind {
        CompletedWithoutAudit, // a completed message has no audit row
        AuditWithoutMessage,   // audit rows name a callback that has no message
        // Rows cut off the chain: outbox events marked shipped that audit_log does not hold,
        // or a chain that no longer reaches the seal recorded in the orders database
        // (auditsealrecord.h). callbackId is empty.
        ChainCutShort,
    };
    Kind kind = Kind::CompletedWithoutAudit;
    QString callbackId;
    QString message; // one readable line
};

struct CrossCheckReport {
    qint64 completedMessages = 0;
    qint64 auditedCallbacks = 0; // distinct callback_ids in audit_log
    qint64 awaitingShipment = 0; // completed, audit rows still in the outbox
    qint64 alertCount = 0;       // may exceed alerts.size() (the list is capped)
    QList<CrossCheckAlert> alerts;
    QString eventId; // the audit.crosscheck event recorded for this run

    bool passed() const { return alertCount == 0; }
    QString summary() const;
};

class AuditCrossCheck {
public:
    AuditCrossCheck(const Connection &orders, const Connection &messages, const Connection &audit,
                    const Clock &clock);

    void setMaxListedAlerts(int n) { m_maxListed = n; }
    void setBatchSize(int n) { m_batchSize = qMax(1, n); }

    // Runs the check and records it as "audit.crosscheck" by `actor` (role `actorRole`).
    // If the check cannot complete, the failed run is recorded and the error returned.
    Result<CrossCheckReport> run(const QString &actor, const QString &actorRole);

private:
    Result<CrossCheckReport> compare();
    // The chain's end against the orders database; alerts added to `report`.
    Result<void> compareChainEnd(CrossCheckReport &report);
    Result<QString> record(const QString &actor, const QString &actorRole,
                           const CrossCheckReport *report, const Error *error);

    const Connection &m_orders;
    const Connection &m_messages;
    const Connection &m_audit;
    const Clock &m_clock;
    int m_maxListed = 1000;
    int m_batchSize = 5000;
};

} // namespace OncePay
