#pragma once

// One auditable fact (DESIGN.md §5). Business code writes it to `audit_outbox` inside its own
// transaction; the shipper copies it into the audit database, where it is hash-chained.
// Personal data (names, e-mail addresses) never goes in here: only references.
// Thread contract: plain value.

#include <QJsonObject>
#include <QString>

namespace OncePay {

struct AuditEvent {
    QString eventId;       // UUID; unique in outbox and audit_log (idempotent shipping)
    qint64 occurredAt = 0; // epoch ms
    QString actor;         // staff username, "worker:<id>", "gateway", "system"
    QString actorRole;     // agent, finance, auditor, admin, system, channel
    QString action;        // e.g. "order.transition", "callback.ingested", "login.failed"
    QString entityKind;    // order, callback, fix, staff, setting, reconciliation, export
    QString entityId;
    QString orderId;
    QString callbackId;
    QJsonObject before;
    QJsonObject after;
    QString reason;
};

} // namespace OncePay
