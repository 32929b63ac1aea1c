#include "staffsession.h"

#include "audit/auditoutbox.h"
#include "db/transaction.h"
#include "staffrights.h"

#include <QSqlQuery>

#include <spdlog/spdlog.h>

namespace OncePay {

QString staffSessionEndReason(StaffSessionEnd end)
{
    switch (end) {
    case StaffSessionEnd::Disabled: return QStringLiteral("account_disabled");
    case StaffSessionEnd::Removed: return QStringLiteral("account_removed");
    case StaffSessionEnd::RoleChanged: return QStringLiteral("role_changed");
    case StaffSessionEnd::None: break;
    }
    return {};
}

Result<StaffSessionEnd> checkStaffSession(const Connection &connection, const StaffAccount &account)
{
    auto q = lockStaffRow(connection, account.username, QStringLiteral("role, disabled"),
                          StaffRowRead::Plain);
    if (!q)
        return q.error();
    if (!*q)
        return StaffSessionEnd::Removed;
    if ((*q)->value(1).toInt() != 0)
        return StaffSessionEnd::Disabled;
    if ((*q)->value(0).toString() != staffRoleName(account.role))
        return StaffSessionEnd::RoleChanged;
    return StaffSessionEnd::None;
}

Result<void> requireStaffSession(const Connection &connection, const Actor &actor, Action action)
{
    if (auto r = require(actor, action); !r)
        return r.error();
    if (!parseStaffRole(actor.role))
        return {}; // system or platform: no staff row, no session
    // One read: requireCurrent's refusals, and a role change that still allows `action` too.
    auto q =
        lockStaffRow(connection, actor.id, QStringLiteral("role, disabled"), StaffRowRead::Plain);
    if (!q)
        return q.error();
    QString why, reason;
    if (!*q) {
        why = QStringLiteral("there is no such staff account");
        reason = QStringLiteral("unknown_staff");
    } else if ((*q)->value(1).toInt() != 0) {
        why = QStringLiteral("the staff account has been disabled");
        reason = QStringLiteral("staff_disabled");
    } else if (const QString now = (*q)->value(0).toString(); now != actor.role) {
        why = QStringLiteral("the staff account's role is now %1")
                  .arg(now.isEmpty() ? QStringLiteral("none") : now);
        reason = QStringLiteral("role_changed");
    } else {
        return {};
    }
    spdlog::warn("{} ({}) may not {}: {}", actor.id.toStdString(), actor.role.toStdString(),
                 actionName(action).toStdString(), why.toStdString());
    return makeError(
        ErrorCode::Forbidden,
        QStringLiteral("%1 (%2) may not %3: %4").arg(actor.id, actor.role, actionName(action), why),
        reason);
}

Result<void> recordStaffSignOut(const Connection &connection, const Clock &clock,
                                const StaffAccount &account, const QString &where,
                                const QString &reason)
{
    // The row StaffService::signOut writes, with the reason when there is one.
    const Actor actor = account.actor();
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = QStringLiteral("logout");
    e.entityKind = QStringLiteral("staff");
    e.entityId = account.username;
    e.after = {{QStringLiteral("where"), where}};
    if (!reason.isEmpty()) {
        e.after.insert(QStringLiteral("reason"), reason);
        e.reason = reason;
    }
    auto r = inTransaction(connection.db(), Transaction::Mode::Deferred,
                           [&] { return AuditOutbox::record(connection.db(), e, clock); });
    if (!r)
        return r.error();
    if (reason.isEmpty())
        spdlog::info("{} signed out", account.username.toStdString());
    else
        spdlog::info("{} signed out ({})", account.username.toStdString(), reason.toStdString());
    return {};
}

} // namespace OncePay
