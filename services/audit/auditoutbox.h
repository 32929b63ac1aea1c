#pragma once

// Writes audit events into the orders database's `audit_outbox`, in the caller's open
// transaction, so a business change and its audit record commit or vanish together while
// the audit database itself stays out of the business transaction (DESIGN.md §1, §5).
// Thread contract: call on the thread that owns `db`.

#include "auditevent.h"
#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

#include <QSqlDatabase>

namespace OncePay {

// Audited events written to the outbox and not yet shipped into the audit database.
struct AuditBacklog {
    qint64 count = 0;
    qint64 oldestOccurredAt = 0; // epoch ms of the oldest waiting event; 0 when count == 0
};

class AuditOutbox {
public:
    // Fills eventId and occurredAt when empty, then inserts. Returns the event id.
    static Result<QString> record(const QSqlDatabase &db, AuditEvent event, const Clock &clock);
    // The same through the connection's kept INSERT (the worker's and state machine's path).
    static Result<QString> record(const Connection &c, AuditEvent event, const Clock &clock);

    // A refused request, audited in a transaction of its own (the request's own, if it had
    // one, ended with the refusal). `event` names the action ("<what>.refused"), the entity
    // and the request's own details in `after`; this adds who asked (`by`; "unknown" for an
    // empty id or role), the refusal's code and reason (after: code, reason) and its message
    // (reason, at most 500 characters), then records it. A row that cannot be written is
    // logged as an error ("<what> refusal could not be audited: …"), not returned: the
    // refusal stands either way. Which refusals to audit, and their warning line, are the
    // caller's (a database that is away has nowhere to take the row).
    static void recordRefusal(const Connection &c, const Clock &clock, const Actor &by,
                              AuditEvent event, const Error &why);

    // How many outbox rows wait for the shipper and when the oldest occurred. A plain read of
    // the orders database; rights are the caller's (AuditTrailQuery::unshipped checks them).
    static Result<AuditBacklog> backlog(const Connection &orders);

    static QString newEventId();
    static QString toJson(const QJsonObject &object); // compact, keys sorted
};

} // namespace OncePay
