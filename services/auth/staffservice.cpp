// StaffService's accounts (staffservice.h): what an administrator manages — add, disable,
// enable, a new password, a role — each in one transaction with its audit row, and the
// refusals audited. Sign-in, failed sign-ins and the lock are in staffservicesignin.cpp.

#include "staffservice.h"

#include "audit/auditoutbox.h"
#include "db/databasenow.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "passwordhasher.h"
#include "staffrights.h"
#include "staffrules.h"
#include "staffservicerows.h"

#include <QRegularExpression>
#include <QSqlQuery>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace OncePay {

using Internal::staffColumns;
using Internal::staffEvent;
using Internal::staffFromQuery;

namespace {

QJsonObject accountJson(const StaffAccount &a)
{
    // References only: the display name is personal data and stays out of the audit chain.
    return {{QStringLiteral("username"), a.username},
            {QStringLiteral("role"), staffRoleName(a.role)},
            {QStringLiteral("disabled"), a.disabled}};
}

// Whether `a` is an enabled administrator and no other one is among `enabledAdmins` (their
// ids, locked by lockEnabledAdmins).
bool lastEnabledAdmin(const StaffAccount &a, const QList<qint64> &enabledAdmins)
{
    return a.role == StaffRole::Admin && !a.disabled &&
           std::none_of(enabledAdmins.cbegin(), enabledAdmins.cend(),
                        [&](qint64 id) { return id != a.id; });
}

} // namespace

bool StaffService::validUsername(const QString &username)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9][a-z0-9._-]{1,63}$"));
    return re.match(username).hasMatch();
}

Result<void> StaffService::checkDisplayName(const QString &displayName)
{
    qsizetype length = 0;
    for (const char32_t c : QStringView(displayName).toUcs4()) {
        ++length;
        const QChar::Category category = QChar::category(c);
        if (category == QChar::Other_Control || category == QChar::Separator_Line ||
            category == QChar::Separator_Paragraph)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("a display name may not contain control characters"
                                            " (such as a line break or a tab)"),
                             QStringLiteral("display_name_control"));
    }
    if (length > kMaxDisplayNameLength)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("a display name is at most %1 characters (this one has %2)")
                             .arg(kMaxDisplayNameLength)
                             .arg(length),
                         QStringLiteral("display_name_too_long"));
    return {};
}

Result<StaffAccount> StaffService::find(const QString &username) const
{
    auto q = Sql::exec(
        m_c.db(), QStringLiteral("SELECT %1 FROM staff WHERE username = ?").arg(staffColumns()),
        {username});
    if (!q)
        return q.error();
    if (!q->next())
        return makeError(ErrorCode::NotFound, QStringLiteral("no staff account %1").arg(username),
                         QStringLiteral("unknown_staff"));
    StaffAccount a = staffFromQuery(*q);
    q->finish(); // the row is read: the server's time is the connection's next result
    if (a.lockedUntil > 0) {
        auto now = databaseNowMs(m_c, m_clock);
        if (!now)
            return now.error();
        a.locked = a.lockedUntil > *now;
    }
    return a;
}

Result<StaffAccount> StaffService::add(const NewStaff &staff, const QString &password,
                                       const Actor &by) const
{
    if (auto r = require(by, Action::ManageStaff); !r)
        return refuse(r.error(), QStringLiteral("add"), staff.username, by);
    if (!validUsername(staff.username))
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("a user name is 2–64 of a-z, 0-9, '.', '_', '-', starting with a"
                           " letter or digit"),
            QStringLiteral("bad_username"));
    const QString trimmed = staff.displayName.trimmed();
    if (auto r = checkDisplayName(trimmed); !r)
        return refuse(r.error(), QStringLiteral("add"), staff.username, by, Audited::EveryRefusal,
                      {{QStringLiteral("display_name_length"),
                        qint64(QStringView(trimmed).toUcs4().size())}});
    if (auto r = PasswordHasher::checkPolicy(password); !r)
        return r.error();
    auto hash = PasswordHasher::hash(password);
    if (!hash)
        return hash.error();
    const qint64 now = m_clock.nowMs();
    const QString display = trimmed.isEmpty() ? staff.username : trimmed;
    auto done =
        inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<StaffAccount> {
            if (auto r = requireCurrent(m_c, by, Action::ManageStaff); !r)
                return r.error();
            auto id = Sql::insert(
                m_c.db(), m_c.dialect(),
                QStringLiteral("INSERT INTO staff (username, display_name, role, password_hash,"
                               " disabled, failed_attempts, created_at, updated_at)"
                               " VALUES (?, ?, ?, ?, 0, 0, ?, ?)"),
                {staff.username, display, staffRoleName(staff.role), *hash, now, now});
            if (!id) {
                if (id.error().code == ErrorCode::Conflict)
                    return makeError(
                        ErrorCode::Conflict,
                        QStringLiteral("a staff account %1 already exists").arg(staff.username),
                        QStringLiteral("staff_exists"));
                return id.error();
            }
            StaffAccount a{.id = *id,
                           .username = staff.username,
                           .displayName = display,
                           .role = staff.role,
                           .createdAt = now,
                           .updatedAt = now};
            AuditEvent e = staffEvent(by, QStringLiteral("staff.added"), a);
            e.after = accountJson(a);
            if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
                return r.error();
            return a;
        });
    if (!done)
        return refuse(done.error(), QStringLiteral("add"), staff.username, by);
    if (done)
        spdlog::info("staff account {} added as {} by {}", staff.username.toStdString(),
                     staffRoleName(staff.role).toStdString(), by.id.toStdString());
    return done;
}

Result<StaffAccount> StaffService::disable(const QString &username, const Actor &by,
                                           const QString &reason) const
{
    return setEnabled(username, false, by, reason);
}

Result<StaffAccount> StaffService::enable(const QString &username, const Actor &by,
                                          const QString &reason) const
{
    return setEnabled(username, true, by, reason);
}

Result<StaffAccount> StaffService::setEnabled(const QString &username, bool enable, const Actor &by,
                                              const QString &reason) const
{
    const QString step = enable ? QStringLiteral("enable") : QStringLiteral("disable");
    auto refused = [&](const Error &why) {
        return refuse(why, step, username, by, Audited::EveryRefusal);
    };
    if (auto r = require(by, Action::ManageStaff); !r)
        return refused(r.error());
    if (auto r = staffReasonGiven(reason); !r)
        return refused(r.error());
    // An enable takes the same locks in the same order as a disable or a role change
    // (changeAccount), although it never takes an administrator away: an enable meeting a
    // disable of the same account then waits for it, instead of the two locking the rows in
    // opposite orders.
    auto done = changeAccount(
        username, by, reason,
        enable ? QStringLiteral("staff.enabled") : QStringLiteral("staff.disabled"),
        [&](const StaffAccount &before, const QList<qint64> &admins) -> Result<StaffAccount> {
            const StaffChange change{.by = by.id,
                                     .username = before.username,
                                     .role = before.role,
                                     .disabled = before.disabled,
                                     .reason = reason};
            if (auto r = enable ? enableFits(change) : disableFits(change); !r)
                return r.error();
            if (!enable && lastEnabledAdmin(before, admins))
                return makeError(
                    ErrorCode::Conflict,
                    QStringLiteral("%1 is the last enabled administrator and stays enabled")
                        .arg(before.username),
                    QStringLiteral("last_admin"));
            StaffAccount after = before;
            after.disabled = !enable;
            if (enable) { // failed sign-ins (and a lock) gathered while disabled do not count
                after.failedAttempts = 0;
                after.lockedUntil = 0;
            }
            return after;
        });
    if (!done)
        return refused(done.error());
    spdlog::info("staff account {} {} by {}", username.toStdString(),
                 enable ? "enabled" : "disabled", by.id.toStdString());
    return done->after;
}

Result<StaffAccount> StaffService::resetPassword(const QString &username, const QString &password,
                                                 const Actor &by) const
{
    if (auto r = require(by, Action::ManageStaff); !r)
        return refuse(r.error(), QStringLiteral("reset_password"), username, by);
    if (auto r = PasswordHasher::checkPolicy(password); !r)
        return r.error();
    auto hash = PasswordHasher::hash(password);
    if (!hash)
        return hash.error();
    auto done =
        inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<StaffAccount> {
            if (auto r = requireCurrent(m_c, by, Action::ManageStaff); !r)
                return r.error();
            auto a = find(username);
            if (!a)
                return a.error();
            const qint64 now = m_clock.nowMs();
            auto n = Sql::update(
                m_c.db(),
                QStringLiteral("UPDATE staff SET password_hash = ?, failed_attempts = 0,"
                               " locked_until = NULL, updated_at = ? WHERE id = ?"),
                {*hash, now, a->id});
            if (!n)
                return n.error();
            AuditEvent e = staffEvent(by, QStringLiteral("staff.password_reset"), *a);
            e.after = accountJson(*a);
            if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
                return r.error();
            a->failedAttempts = 0;
            a->lockedUntil = 0;
            a->updatedAt = now;
            return *a;
        });
    if (!done)
        return refuse(done.error(), QStringLiteral("reset_password"), username, by);
    return done;
}

Result<StaffAccount> StaffService::setRole(const QString &username, const QString &role,
                                           const Actor &by, const QString &reason) const
{
    const QString step = QStringLiteral("set_role");
    const auto newRole = parseStaffRole(role);
    // The role asked for goes into the refusal's audit row; not the text when it is no role.
    const QJsonObject asked{
        {QStringLiteral("role"), newRole ? staffRoleName(*newRole) : QStringLiteral("(invalid)")}};
    auto refused = [&](const Error &why) {
        return refuse(why, step, username, by, Audited::EveryRefusal, asked);
    };
    if (auto r = require(by, Action::ManageStaff); !r)
        return refused(r.error());
    if (!newRole)
        return refused(
            makeError(ErrorCode::Invalid,
                      QStringLiteral("unknown role: a role is agent, finance, auditor or admin"),
                      QStringLiteral("unknown_role")));
    if (auto r = staffReasonGiven(reason); !r)
        return refused(r.error());
    auto done = changeAccount(
        username, by, reason, QStringLiteral("staff.role_changed"),
        [&](const StaffAccount &before, const QList<qint64> &admins) -> Result<StaffAccount> {
            if (auto r = roleChangeFits({.by = by.id,
                                         .username = before.username,
                                         .role = before.role,
                                         .newRole = *newRole,
                                         .reason = reason});
                !r)
                return r.error();
            if (lastEnabledAdmin(before, admins))
                return makeError(
                    ErrorCode::Conflict,
                    QStringLiteral("%1 is the last enabled administrator and keeps the role")
                        .arg(before.username),
                    QStringLiteral("last_admin"));
            StaffAccount after = before;
            after.role = *newRole;
            return after;
        });
    if (!done)
        return refused(done.error());
    spdlog::info("staff account {} role changed from {} to {} by {}", username.toStdString(),
                 staffRoleName(done->before.role).toStdString(),
                 staffRoleName(*newRole).toStdString(), by.id.toStdString());
    return done->after;
}

Result<StaffService::AccountChange> StaffService::changeAccount(
    const QString &username, const Actor &by, const QString &reason, const QString &action,
    const std::function<Result<StaffAccount>(const StaffAccount &before,
                                             const QList<qint64> &admins)> &decide) const
{
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<AccountChange> {
        auto admins = lockEnabledAdmins();
        if (!admins)
            return admins.error();
        if (auto r = requireCurrent(m_c, by, Action::ManageStaff); !r)
            return r.error();
        auto before = lockAccount(username);
        if (!before)
            return before.error();
        auto wanted = decide(*before, *admins);
        if (!wanted)
            return wanted.error();
        const bool attemptsChanged = wanted->failedAttempts != before->failedAttempts ||
                                     wanted->lockedUntil != before->lockedUntil;
        if (wanted->role == before->role && wanted->disabled == before->disabled &&
            !attemptsChanged)
            return AccountChange{*before, *before, false};
        const qint64 now = m_clock.nowMs();
        // The row is locked: the failed sign-ins and the lock written back are the ones read.
        auto n = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE staff SET role = ?, disabled = ?, failed_attempts = ?,"
                           " locked_until = ?, updated_at = ? WHERE id = ?"),
            {staffRoleName(wanted->role), wanted->disabled ? 1 : 0, wanted->failedAttempts,
             wanted->lockedUntil ? QVariant(wanted->lockedUntil) : QVariant(), now, before->id});
        if (!n)
            return n.error();
        if (*n != 1)
            return makeError(ErrorCode::Internal,
                             QStringLiteral("the staff account %1 was not changed").arg(username));
        StaffAccount after = *before;
        after.role = wanted->role;
        after.disabled = wanted->disabled;
        after.failedAttempts = wanted->failedAttempts;
        after.lockedUntil = wanted->lockedUntil;
        after.updatedAt = now;
        AuditEvent e = staffEvent(by, action, after);
        e.before = accountJson(*before);
        e.after = accountJson(after);
        if (attemptsChanged)
            for (auto [json, a] : {std::pair{&e.before, &*before}, std::pair{&e.after, &after}}) {
                json->insert(QStringLiteral("failed_attempts"), a->failedAttempts);
                json->insert(QStringLiteral("locked_until"),
                             a->lockedUntil ? QJsonValue(a->lockedUntil) : QJsonValue());
            }
        e.reason = reason;
        if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
            return r.error();
        return AccountChange{*before, after, true};
    });
}

QString StaffService::forUpdate() const
{
    return m_c.dialect() == Dialect::Sqlite ? QString() : QStringLiteral(" FOR UPDATE");
}

Result<QList<qint64>> StaffService::lockEnabledAdmins() const
{
    const QString sql =
        QStringLiteral("SELECT id FROM staff WHERE role = ? AND disabled = 0 ORDER BY id") +
        forUpdate();
    const QVariantList binds{staffRoleName(StaffRole::Admin)};
    // The first read takes the locks (waiting for a change that holds one); the second reads
    // the rows as they are now that none of them can change, and locks any that became an
    // enabled administrator while the first waited (PostgreSQL's first read does not see a
    // promotion committed meanwhile; it would only ever refuse too much).
    if (auto locked = Sql::exec(m_c.db(), sql, binds); !locked)
        return locked.error();
    auto q = Sql::exec(m_c.db(), sql, binds);
    if (!q)
        return q.error();
    QList<qint64> ids;
    while (q->next())
        ids << q->value(0).toLongLong();
    return ids;
}

Result<StaffAccount> StaffService::lockAccount(const QString &username) const
{
    auto q = lockStaffRow(m_c, username, staffColumns());
    if (!q)
        return q.error();
    if (!*q)
        return makeError(ErrorCode::NotFound,
                         validUsername(username)
                             ? QStringLiteral("there is no staff account %1").arg(username)
                             : QStringLiteral("there is no staff account by that name"),
                         QStringLiteral("unknown_staff"));
    return staffFromQuery(**q);
}

Result<QList<StaffAccount>> StaffService::list(const Actor &by) const
{
    // Personal data: the account's rights as they are now, not as they were at sign-in.
    if (auto r = requireCurrent(m_c, by, Action::ManageStaff); !r)
        return r.error();
    auto now = databaseNowMs(m_c, m_clock); // before the rows: one result set at a time
    if (!now)
        return now.error();
    auto q = Sql::exec(
        m_c.db(), QStringLiteral("SELECT %1 FROM staff ORDER BY username").arg(staffColumns()));
    if (!q)
        return q.error();
    QList<StaffAccount> all;
    while (q->next()) {
        all << staffFromQuery(*q);
        all.last().locked = all.last().lockedUntil > *now;
    }
    return all;
}

Error StaffService::refuse(const Error &why, const QString &step, const QString &target,
                           const Actor &by, Audited audited, const QJsonObject &details) const
{
    // Most steps audit only a refusal of rights; a bad user name, a short password or a clash
    // is the caller's mistake and changes nothing worth an audit row. A role change audits
    // every refusal. A database that failed refused nothing.
    switch (why.code) {
    case ErrorCode::Forbidden: break;
    case ErrorCode::Invalid:
    case ErrorCode::NotFound:
    case ErrorCode::Conflict:
    case ErrorCode::Stale:
        if (audited == Audited::EveryRefusal)
            break;
        return why;
    default:
        // Nothing to audit (the database is what failed), but the change ended: say so.
        spdlog::error("staff {} of {} for {} ({}) failed: {}", step.toStdString(),
                      (validUsername(target) ? target : QStringLiteral("(invalid)")).toStdString(),
                      by.id.toStdString(), by.role.toStdString(), why.message.toStdString());
        return why;
    }
    spdlog::warn("staff {} of {} refused for {} ({}): {}", step.toStdString(),
                 (validUsername(target) ? target : QStringLiteral("(invalid)")).toStdString(),
                 by.id.toStdString(), by.role.toStdString(), why.message.toStdString());
    AuditEvent e;
    e.action = QStringLiteral("staff.refused");
    e.entityKind = QStringLiteral("staff");
    // The name asked for; not the text when it is no valid user name (it may be anything, a
    // password typed into the wrong field among them).
    e.entityId = validUsername(target) ? target : QStringLiteral("(invalid)");
    e.after = details;
    e.after.insert(QStringLiteral("step"), step);
    AuditOutbox::recordRefusal(m_c, m_clock, by, e, why);
    return why;
}

} // namespace OncePay