// StaffService's sign-in half (staffservice.h): a sign-in that answers the same for an unknown
// name, a wrong password and a locked account, the count of failed sign-ins and the lock it
// leads to, and sign-out. The accounts an administrator manages are in staffservice.cpp.

#include "staffservice.h"

#include "audit/auditoutbox.h"
#include "db/databasenow.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "passwordhasher.h"
#include "settings/opssettings.h"
#include "staffrights.h"
#include "staffservicerows.h"

#include <QSqlQuery>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace OncePay {

using Internal::staffColumns;
using Internal::staffEvent;
using Internal::staffFromQuery;

namespace {

// A hash to verify against when the user name is unknown, so an unknown name takes as long
// as a wrong password and the answer cannot be used to list accounts.
const QString &dummyHash()
{
    static const QString h = PasswordHasher::hash(QStringLiteral("no-such-account-0000")).value();
    return h;
}

} // namespace

namespace {

// The staff table read refused by the database itself: the login in use is not one staff sign
// in through (the engine's, oncepay_engine, may not read staff accounts: Sql::classify says
// Forbidden for PostgreSQL's 42501 and MySQL's 1142). Said as such, not as the raw SQL.
Error signInReadRefused(const Error &e)
{
    if (e.code != ErrorCode::Forbidden)
        return e;
    spdlog::error("staff sign-in: this database login may not read staff accounts: {}",
                  e.message.toStdString());
    return makeError(ErrorCode::Forbidden,
                     QStringLiteral("this database login may not read staff accounts: staff "
                                    "sign in through the console's login (oncepay_console), not "
                                    "the engine's"),
                     QStringLiteral("login_cannot_sign_in"));
}

} // namespace

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
        auto q = Sql::exec(
            m_c.db(), QStringLiteral("SELECT %1 FROM staff WHERE username = ?").arg(staffColumns()),
            {name});
        if (!q)
            return signInReadRefused(q.error());
        if (q->next())
            account = staffFromQuery(*q, &hash);
    }
    auto settings = OpsSettings::load(m_c);
    if (!settings)
        return settings.error();
    const int maxFailures = int(std::clamp<qint64>(
        settings->integer(QStringLiteral("auth.max_failed_logins"), 5), 1, 1000));
    const int lockSeconds = int(std::clamp<qint64>(
        settings->integer(QStringLiteral("auth.lockout_seconds"), 900), 1, 864000));
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
        // Nothing of what was typed, nor its length: people type passwords into the user name
        // field, and this row is kept for good. Not a digest either (an unsalted one gives a
        // typed password back to a short guess list; a keyed one needs a key that the
        // workstations, where the console runs, could not be kept from).
        e.after = {{QStringLiteral("where"), where}};
        return refuse(SignInRefusal::BadCredentials, e, QStringLiteral("unknown_user"),
                      QStringLiteral("for an unknown user name from %1").arg(where));
    }

    // The decision is taken on the row as it is now, locked (FOR UPDATE on PostgreSQL and
    // MariaDB; SQLite's immediate transaction holds the write lock): sign-ins that arrive
    // together take turns here, so none of them decides on a count or a lock another one has
    // already changed (the hash above was verified outside, so a slow hash holds no lock).
    auto decided = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<bool> {
        QString currentHash;
        auto row = lockStaffRow(m_c, name, staffColumns());
        if (!row)
            return row.error();
        if (!*row) // cannot happen: staff rows are never deleted
            return makeError(ErrorCode::NotFound, QStringLiteral("there is no such staff account"),
                             QStringLiteral("unknown_staff"));
        StaffAccount current = staffFromQuery(**row, &currentHash);
        // The lock is decided by the database server's clock (SQLite: this machine's), read
        // now that the row is ours: a workstation's clock set ahead would lift a lock, and one
        // set behind would write a lock that has already ended.
        auto nowRead = databaseNowMs(m_c, m_clock);
        if (!nowRead)
            return nowRead.error();
        const qint64 now = *nowRead;
        // A password reset in the meantime: the password typed must match the new hash.
        const bool passwordMatches =
            currentHash == hash ? passwordOk : PasswordHasher::verify(currentHash, password);
        *account = current;

        if (current.lockedUntil > now) {
            // The same answer as a wrong password, even for the right one: a lock that answered
            // differently to the right password would let guessing go on through it. A wrong
            // password here neither counts nor restarts the lock.
            AuditEvent e = staffEvent(current.actor(), QStringLiteral("login.refused"), current);
            e.after = {{QStringLiteral("locked_until"), current.lockedUntil},
                       {QStringLiteral("where"), where}};
            if (auto r = refuse(SignInRefusal::BadCredentials, e, QStringLiteral("locked"),
                                QStringLiteral("for %1: account locked").arg(name));
                !r)
                return r.error();
            return false;
        }

        if (!passwordMatches) {
            if (auto r =
                    recordFailure(current, where, maxFailures, qint64(lockSeconds) * 1000, now);
                !r)
                return r.error();
            result.refusal = SignInRefusal::BadCredentials;
            return false;
        }

        if (current.disabled) {
            AuditEvent e = staffEvent(current.actor(), QStringLiteral("login.refused"), current);
            e.after = {{QStringLiteral("where"), where}};
            if (auto r = refuse(SignInRefusal::Disabled, e, QStringLiteral("disabled"),
                                QStringLiteral("for %1: account disabled").arg(name));
                !r)
                return r.error();
            return false;
        }

        // Only where no lock is set: the row is locked above, so this always matches; should it
        // ever not, the lock stands and the answer is the lock's. (No row changed is not
        // enough to say so: MariaDB counts only rows whose values changed.)
        auto n =
            Sql::update(m_c.db(),
                        QStringLiteral("UPDATE staff SET failed_attempts = 0, locked_until = NULL,"
                                       " updated_at = ? WHERE id = ? AND (locked_until IS NULL OR"
                                       " locked_until <= ?)"),
                        {now, current.id, now});
        if (!n)
            return n.error();
        auto lockNow = *n > 0 ? Result<QVariant>(QVariant())
                              : Sql::scalar(m_c.db(),
                                            QStringLiteral("SELECT locked_until FROM staff WHERE"
                                                           " id = ? AND locked_until > ?"),
                                            {current.id, now});
        if (!lockNow)
            return lockNow.error();
        if (!lockNow->isNull()) {
            AuditEvent e = staffEvent(current.actor(), QStringLiteral("login.refused"), current);
            e.after = {{QStringLiteral("where"), where}};
            if (auto r = refuse(SignInRefusal::BadCredentials, e, QStringLiteral("locked"),
                                QStringLiteral("for %1: account locked").arg(name));
                !r)
                return r.error();
            return false;
        }
        AuditEvent e = staffEvent(current.actor(), QStringLiteral("login.succeeded"), current);
        e.after = {{QStringLiteral("where"), where}};
        if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
            return r.error();
        return true;
    });
    if (!decided)
        return decided.error();
    if (!*decided)
        return result;
    account->failedAttempts = 0;
    account->lockedUntil = 0;
    result.account = *account;
    spdlog::info("{} signed in as {} from {}", name.toStdString(),
                 staffRoleName(account->role).toStdString(), where.toStdString());
    return result;
}

Result<void> StaffService::recordFailure(const StaffAccount &account, const QString &where,
                                         qint64 maxFailures, qint64 lockMs, qint64 now) const
{
    // Inside authenticate's transaction, `account` read with its row locked and not locked now.
    // A lock that has run out starts a fresh count.
    const bool lockRanOut = account.lockedUntil != 0 && account.lockedUntil <= now;
    const qint64 count = lockRanOut ? 1 : qint64(account.failedAttempts) + 1;
    const bool lockNow = count >= maxFailures;
    const qint64 until = now + lockMs;
    auto n = Sql::update(m_c.db(),
                         QStringLiteral("UPDATE staff SET failed_attempts = ?, locked_until = ?,"
                                        " updated_at = ? WHERE id = ?"),
                         {lockNow ? 0 : count,
                          lockNow ? QVariant(until) : QVariant(QMetaType(QMetaType::LongLong)), now,
                          account.id});
    if (!n)
        return n.error();
    AuditEvent e = staffEvent(account.actor(), QStringLiteral("login.failed"), account);
    e.after = {{QStringLiteral("failed_attempts"), count}, {QStringLiteral("where"), where}};
    e.reason = QStringLiteral("wrong_password");
    if (auto r = AuditOutbox::record(m_c.db(), e, m_clock); !r)
        return r.error();
    if (!lockNow) {
        spdlog::warn("sign-in refused for {}: wrong password", account.username.toStdString());
        return {};
    }
    AuditEvent lock =
        staffEvent(Actor::system(QStringLiteral("auth")), QStringLiteral("login.locked"), account);
    lock.after = {{QStringLiteral("locked_until"), until},
                  {QStringLiteral("failed_attempts"), count}};
    lock.reason = QStringLiteral("too_many_failures");
    if (auto r = AuditOutbox::record(m_c.db(), lock, m_clock); !r)
        return r.error();
    spdlog::warn("staff account {} locked after {} failed sign-ins", account.username.toStdString(),
                 maxFailures);
    return {};
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
