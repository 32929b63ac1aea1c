#include "staffservice.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "passwordhasher.h"
#include "settings/opssettings.h"
#include "staffrights.h"
#include "staffrules.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QSqlQuery>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

const QString kColumns = QStringLiteral(
    "id, username, display_name, role, disabled, failed_attempts, locked_until, created_at,"
    " updated_at, password_hash");

StaffAccount fromQuery(const QSqlQuery &q, QString *hash = nullptr)
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

// A hash to verify against when the user name is unknown, so an unknown name takes as long
// as a wrong password and the answer cannot be used to list accounts.
const QString &dummyHash()
{
    static const QString h = PasswordHasher::hash(QStringLiteral("no-such-account-0000")).value();
    return h;
}

AuditEvent staffEvent(const Actor &by, const QString &action, const StaffAccount &a)
{
    AuditEvent e;
    e.actor = by.id;
    e.actorRole = by.role;
    e.action = action;
    e.entityKind = QStringLiteral("staff");
    e.entityId = a.username;
    return e;
}

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

Result<StaffAccount> StaffService::find(const QString &username) const
{
    auto q =
        Sql::exec(m_c.db(), QStringLiteral("SELECT %1 FROM staff WHERE username = ?").arg(kColumns),
                  {username});
    if (!q)
        return q.error();
    if (!q->next())
        return makeError(ErrorCode::NotFound, QStringLiteral("no staff account %1").arg(username),
                         QStringLiteral("unknown_staff"));
    return fromQuery(*q);
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
    if (auto r = PasswordHasher::checkPolicy(password); !r)
        return r.error();
    auto hash = PasswordHasher::hash(password);
    if (!hash)
        return hash.error();
    const qint64 now = m_clock.nowMs();
    const QString display =
        staff.displayName.trimmed().isEmpty() ? staff.username : staff.displayName.trimmed();
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
            StaffAccount a{*id, staff.username, display, staff.role, false, 0, 0, now, now};
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
    auto q = lockStaffRow(m_c, username, kColumns);
    if (!q)
        return q.error();
    if (!*q)
        return makeError(ErrorCode::NotFound,
                         validUsername(username)
                             ? QStringLiteral("there is no staff account %1").arg(username)
                             : QStringLiteral("there is no staff account by that name"),
                         QStringLiteral("unknown_staff"));
    return fromQuery(**q);
}

Result<QList<StaffAccount>> StaffService::list(const Actor &by) const
{
    // Personal data: the account's rights as they are now, not as they were at sign-in.
    if (auto r = requireCurrent(m_c, by, Action::ManageStaff); !r)
        return r.error();
    auto q =
        Sql::exec(m_c.db(), QStringLiteral("SELECT %1 FROM staff ORDER BY username").arg(kColumns));
    if (!q)
        return q.error();
    QList<StaffAccount> all;
    while (q->next())
        all << fromQuery(*q);
    return all;
}

Result<SignInResult> StaffService::authenticate(const QString &username, const QString &password,
                                                const QString &where) const
{
    // What the person at the dialog learns must not depend on whether the user name exists
    // (issue #8). Every path below reads the account and the lockout policy, verifies one
    // Argon2id hash (the account's, or the dummy for an unknown name; also for a locked or
    // disabled account) and writes one audit row, and the answer is BadCredentials for an
    // unknown name, a wrong password and a locked account alike. Only the audit row (read by
    // staff with audit rights) keeps the true cause: login.failed with unknown_user or
    // wrong_password, login.locked, login.refused with locked or disabled.
    const QString &dummy = dummyHash(); // made once, before any answer depends on it
    const QString name = username.trimmed().toLower();
    QString hash;
    std::optional<StaffAccount> account;
    if (validUsername(name)) {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT %1 FROM staff WHERE username = ?").arg(kColumns),
                           {name});
        if (!q)
            return q.error();
        if (q->next())
            account = fromQuery(*q, &hash);
    }
    auto settings = OpsSettings::load(m_c);
    if (!settings)
        return settings.error();
    const int maxFailures = int(std::clamp<qint64>(
        settings->integer(QStringLiteral("auth.max_failed_logins"), 5), 1, 1000));
    const int lockSeconds = int(std::clamp<qint64>(
        settings->integer(QStringLiteral("auth.lockout_seconds"), 900), 1, 864000));
    const qint64 now = m_clock.nowMs();
    SignInResult result;
    result.maxFailedLogins = maxFailures;
    result.lockoutSeconds = lockSeconds;

    // Verified on every path, whatever follows, so no path answers sooner than another.
    const bool passwordOk = PasswordHasher::verify(account ? hash : dummy, password);

    // A refusal: its audit row (with the true cause) and a log line, then the answer.
    auto refuse = [&](SignInRefusal refusal, AuditEvent e, const QString &reason,
                      const QString &logged) -> Result<SignInResult> {
        result.refusal = refusal;
        e.reason = reason;
        if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
            return r.error();
        spdlog::warn("sign-in refused {}", logged.toStdString());
        return result;
    };

    if (!account) {
        AuditEvent e;
        e.actor = QStringLiteral("anonymous");
        e.actorRole = QStringLiteral("anonymous");
        e.action = QStringLiteral("login.failed");
        e.entityKind = QStringLiteral("staff");
        e.entityId = QStringLiteral("(unknown)");
        // A digest, not the text: people type passwords into the user name field.
        e.after = {
            {QStringLiteral("username_sha256"),
             QString::fromLatin1(QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha256)
                                     .toHex()
                                     .left(16))},
            {QStringLiteral("where"), where}};
        return refuse(SignInRefusal::BadCredentials, e, QStringLiteral("unknown_user"),
                      QStringLiteral("for an unknown user name from %1").arg(where));
    }

    if (account->lockedUntil > now) {
        // The same answer as a wrong password, even for the right one: a lock that answered
        // differently to the right password would let guessing go on through it.
        AuditEvent e = staffEvent(account->actor(), QStringLiteral("login.refused"), *account);
        e.after = {{QStringLiteral("locked_until"), account->lockedUntil},
                   {QStringLiteral("where"), where}};
        return refuse(SignInRefusal::BadCredentials, e, QStringLiteral("locked"),
                      QStringLiteral("for %1: account locked").arg(name));
    }

    if (!passwordOk) {
        if (auto r = recordFailure(*account, where, maxFailures, qint64(lockSeconds) * 1000); !r)
            return r.error();
        result.refusal = SignInRefusal::BadCredentials;
        return result;
    }

    if (account->disabled) {
        AuditEvent e = staffEvent(account->actor(), QStringLiteral("login.refused"), *account);
        e.after = {{QStringLiteral("where"), where}};
        return refuse(SignInRefusal::Disabled, e, QStringLiteral("disabled"),
                      QStringLiteral("for %1: account disabled").arg(name));
    }

    auto ok = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<bool> {
        auto n =
            Sql::update(m_c.db(),
                        QStringLiteral("UPDATE staff SET failed_attempts = 0, locked_until = NULL,"
                                       " updated_at = ? WHERE id = ?"),
                        {now, account->id});
        if (!n)
            return n.error();
        AuditEvent e = staffEvent(account->actor(), QStringLiteral("login.succeeded"), *account);
        e.after = {{QStringLiteral("where"), where}};
        if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
            return r.error();
        return true;
    });
    if (!ok)
        return ok.error();
    account->failedAttempts = 0;
    account->lockedUntil = 0;
    result.account = *account;
    spdlog::info("{} signed in as {} from {}", name.toStdString(),
                 staffRoleName(account->role).toStdString(), where.toStdString());
    return result;
}

Result<void> StaffService::recordFailure(const StaffAccount &account, const QString &where,
                                         qint64 maxFailures, qint64 lockMs) const
{
    const qint64 now = m_clock.nowMs();
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<bool> {
        // A lock that has run out starts a fresh count.
        auto n = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE staff SET failed_attempts = CASE WHEN locked_until IS NOT NULL"
                           " AND locked_until <= ? THEN 1 ELSE failed_attempts + 1 END,"
                           " locked_until = CASE WHEN locked_until IS NOT NULL AND"
                           " locked_until <= ? THEN NULL ELSE locked_until END,"
                           " updated_at = ? WHERE id = ?"),
            {now, now, now, account.id});
        if (!n)
            return n.error();
        auto failures =
            Sql::scalar(m_c.db(), QStringLiteral("SELECT failed_attempts FROM staff WHERE id = ?"),
                        {account.id});
        if (!failures)
            return failures.error();
        const qint64 count = failures->toLongLong();
        AuditEvent e = staffEvent(account.actor(), QStringLiteral("login.failed"), account);
        e.after = {{QStringLiteral("failed_attempts"), count}, {QStringLiteral("where"), where}};
        e.reason = QStringLiteral("wrong_password");
        if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
            return r.error();
        if (count < maxFailures)
            return false;
        const qint64 until = now + lockMs;
        auto l = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE staff SET locked_until = ?, failed_attempts = 0 WHERE id = ?"),
            {until, account.id});
        if (!l)
            return l.error();
        AuditEvent lock = staffEvent(Actor::system(QStringLiteral("auth")),
                                     QStringLiteral("login.locked"), account);
        lock.after = {{QStringLiteral("locked_until"), until},
                      {QStringLiteral("failed_attempts"), count}};
        lock.reason = QStringLiteral("too_many_failures");
        if (auto r = AuditOutbox::record(m_c.db(), lock, m_clock); !r)
            return r.error();
        return true;
    });
    if (!done)
        return done.error();
    if (*done)
        spdlog::warn("staff account {} locked after {} failed sign-ins",
                     account.username.toStdString(), maxFailures);
    else
        spdlog::warn("sign-in refused for {}: wrong password", account.username.toStdString());
    return {};
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

Result<void> StaffService::signOut(const StaffAccount &account, const QString &where) const
{
    AuditEvent e = staffEvent(account.actor(), QStringLiteral("logout"), account);
    e.after = {{QStringLiteral("where"), where}};
    auto r = AuditOutbox::record(m_c.db(), e, m_clock);
    if (!r)
        return r.error();
    spdlog::info("{} signed out", account.username.toStdString());
    return {};
}

} // namespace OncePay
