#pragma once

// Writes audit events into the orders database's `audit_outbox`, in the caller's open
// transaction, so a business change and its audit record commit or vanish together while
// the audit database itself stays out of the business transaction (DESIGN.md §1, §5).
// Thread contract: call on the thread that owns `db`.

#include "auditevent.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QSqlDatabase>

namespace OncePay {

class AuditOutbox {
public:
    // Fills eventId and occurredAt when empty, then inserts. Returns the event id.
    static Result<QString> record(const QSqlDatabase &db, AuditEvent event, const Clock &clock);
    // The same through the connection's kept INSERT (the worker's and state machine's path).
    static Result<QString> record(const Connection &c, AuditEvent event, const Clock &clock);

    static QString newEventId();
    static QString toJson(const QJsonObject &object); // compact, keys sorted
};

} // namespace OncePay
