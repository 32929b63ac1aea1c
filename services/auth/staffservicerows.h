#pragma once

// What StaffService's two files share (staffservice.cpp: the accounts an administrator
// manages; staffservicesignin.cpp: sign-in, failed sign-ins and the lock, sign-out): the
// staff row as read, and the audit event of a change to it. Internal to services/auth.
// Thread contract: plain values and pure functions.

#include "audit/auditoutbox.h"
#include "staffaccount.h"

#include <QSqlQuery>
#include <QString>

namespace OncePay::Internal {

// The columns staffFromQuery reads, in its order.
inline const QString &staffColumns()
{
    static const QString columns = QStringLiteral(
        "id, username, display_name, role, disabled, failed_attempts, locked_until, created_at,"
        " updated_at, password_hash");
    return columns;
}

// The account on `q`'s current row (selected with staffColumns()); its password hash into
// `*hash` when asked for.
inline StaffAccount staffFromQuery(const QSqlQuery &q, QString *hash = nullptr)
{
    StaffAccount a;
    a.id = q.value(0).toLongLong();
    a.username = q.value(1).toString();
    a.displayName = q.value(2).toString();
    a.role = parseStaffRole(q.value(3).toString()).value_or(StaffRole::Agent);
    a.disabled = q.value(4).toInt() != 0;
    a.failedAttempts = q.value(5).toInt();
    a.lockedUntil = q.value(6).isNull() ? 0 : q.value(6).toLongLong();
    a.createdAt = q.value(7).toLongLong();
    a.updatedAt = q.value(8).toLongLong();
    if (hash)
        *hash = q.value(9).toString();
    return a;
}

// The audit event of `action` on the account `a`, by `by`.
inline AuditEvent staffEvent(const Actor &by, const QString &action, const StaffAccount &a)
{
    AuditEvent e;
    e.actor = by.id;
    e.actorRole = by.role;
    e.action = action;
    e.entityKind = QStringLiteral("staff");
    e.entityId = a.username;
    return e;
}

} // namespace OncePay::Internal
