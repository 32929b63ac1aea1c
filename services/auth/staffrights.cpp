#include "staffrights.h"

#include "db/sql.h"

#include <QSqlQuery>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

Error refused(const Actor &actor, Action action, const QString &why, const QString &reason)
{
    spdlog::warn("{} ({}) may not {}: {}", actor.id.toStdString(), actor.role.toStdString(),
                 actionName(action).toStdString(), why.toStdString());
    return makeError(
        ErrorCode::Forbidden,
        QStringLiteral("%1 (%2) may not %3: %4").arg(actor.id, actor.role, actionName(action), why),
        reason);
}

} // namespace

Result<std::optional<QSqlQuery>> lockStaffRow(const Connection &connection, const QString &username,
                                              const QString &columns, StaffRowRead read)
{
    auto id = Sql::scalar(connection.db(),
                          QStringLiteral("SELECT id FROM staff WHERE username = ?"), {username});
    if (!id)
        return id.error();
    if (id->isNull())
        return std::optional<QSqlQuery>();
    QString sql = QStringLiteral("SELECT %1 FROM staff WHERE id = ?").arg(columns);
    if (read == StaffRowRead::Locked && connection.dialect() != Dialect::Sqlite)
        sql += QStringLiteral(" FOR UPDATE");
    auto q = Sql::exec(connection.db(), sql, {*id});
    if (!q)
        return q.error();
    if (!q->next()) // cannot happen: rows are never deleted
        return std::optional<QSqlQuery>();
    return std::optional<QSqlQuery>(std::move(*q));
}

Result<void> requireCurrent(const Connection &connection, const Actor &actor, Action action,
                            StaffRowRead read)
{
    if (auto r = require(actor, action); !r)
        return r.error();
    if (!parseStaffRole(actor.role))
        return {}; // system or platform: no staff row to read
    auto q = lockStaffRow(connection, actor.id, QStringLiteral("role, disabled"), read);
    if (!q)
        return q.error();
    if (!*q)
        return refused(actor, action, QStringLiteral("there is no such staff account"),
                       QStringLiteral("unknown_staff"));
    if ((*q)->value(1).toInt() != 0)
        return refused(actor, action, QStringLiteral("the staff account has been disabled"),
                       QStringLiteral("staff_disabled"));
    const QString nowRole = (*q)->value(0).toString();
    const auto role = parseStaffRole(nowRole);
    if (!role || !can(*role, action))
        return refused(actor, action,
                       QStringLiteral("the staff account's role is now %1")
                           .arg(nowRole.isEmpty() ? QStringLiteral("none") : nowRole),
                       QStringLiteral("role_changed"));
    return {};
}

} // namespace OncePay
