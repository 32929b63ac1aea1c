#pragma once

// Staff accounts and sign-in (DESIGN.md §5, §6): Argon2id hashes, one role per account, a
// lock after `auth.max_failed_logins` failures for `auth.lockout_seconds` (ops_settings),
// timed by the database server's clock (databaseNowMs; on SQLite the injected Clock, this
// machine's, is the database's), and an audit_outbox row for every account change, sign-in,
// failure, lock and sign-out. Managing accounts requires Action::ManageStaff (admin, or the server
// operator's CLI); for a staff actor the account's row is read again inside each change's
// transaction (requireCurrent), so a disabled or demoted administrator is refused at once, and
// every refusal of rights leaves a staff.refused audit row. A sign-in answers the same for an
// unknown name, a wrong password and a locked account (see SignInRefusal).
// Thread contract: the connection's thread. authenticate() spends ~0.1 s hashing: never on
// the GUI thread.

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "staffaccount.h"

#include <QJsonObject>

#include <functional>

namespace OncePay {

struct NewStaff {
    QString username; // [a-z0-9._-], 2–64 characters
    // Trimmed; empty after trimming: the user name. At most kMaxDisplayNameLength characters
    // (code points), no control characters (newlines, tabs, ...) — see checkDisplayName.
    QString displayName;
    StaffRole role = StaffRole::Agent;
};

class StaffService {
public:
    StaffService(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Adds an account. Refused, with nothing changed: Forbidden when `by` may not manage staff
    // (audited, staff.refused); Invalid "bad_username"; Invalid "display_name_too_long" and
    // "display_name_control" (checkDisplayName; audited, staff.refused, with the length but not
    // the name, which is personal data); the password policy; Conflict "staff_exists".
    Result<StaffAccount> add(const NewStaff &staff, const QString &password, const Actor &by) const;
    // Disables `username` (they can no longer sign in; their open pages are refused at the
    // next change) and returns the account as it is now. Refused, with nothing changed:
    // Forbidden when `by` may not manage staff (for a staff actor: as the account is now, read
    // inside the change's transaction); Invalid "reason_required" (an empty or blank
    // `reason`); NotFound "unknown_staff"; Conflict "own_account" (an administrator does not
    // disable their own account), "already_disabled" (the account is disabled already) and
    // "last_admin" (the last enabled administrator stays enabled, whoever asks). The rules on
    // the account's own state are disableFits (staffrules.h). A disable leaves a
    // staff.disabled audit row (before, after, `reason`), every refusal a staff.refused row
    // (step disable); a database failure an error log line.
    Result<StaffAccount> disable(const QString &username, const Actor &by,
                                 const QString &reason) const;
    // Enables `username` again (a disabled account; they may sign in with their password, with
    // a fresh count of failed sign-ins and no lock: what they met while disabled does not count)
    // and returns the account as it is now. Refused, with nothing changed: Forbidden when `by`
    // may not manage staff (for a staff actor: as the account is now, read inside the change's
    // transaction); Invalid "reason_required" (an empty or blank `reason`); NotFound
    // "unknown_staff"; Conflict "already_enabled" (the account is not disabled). The rules on
    // the account's own state are enableFits (staffrules.h). Takes the same row locks in the
    // same order as disable and setRole (changeAccount), so an enable and a disable of the same
    // account take turns. An enable leaves a staff.enabled audit row (before, after — with the
    // failed sign-ins and lock it cleared, when there were any — and `reason`), every refusal a
    // staff.refused row (step enable); a database failure an error log line.
    Result<StaffAccount> enable(const QString &username, const Actor &by,
                                const QString &reason) const;
    // Sets a new password and lifts a lock.
    Result<StaffAccount> resetPassword(const QString &username, const QString &password,
                                       const Actor &by) const;
    // Gives `username` the role named `role` (agent, finance, auditor, admin) and returns the
    // account as it is now. Refused, with nothing changed: Forbidden when `by` may not manage
    // staff (for a staff actor: as the account is now, read inside the change's transaction);
    // Invalid "unknown_role" and "reason_required" (an empty or blank `reason`); NotFound
    // "unknown_staff"; Conflict "own_role" (an administrator does not change their own role),
    // "same_role" (the account has that role already) and "last_admin" (the last enabled
    // administrator keeps the role). The rules on the account's own state are roleChangeFits
    // (staffrules.h). A change leaves a staff.role_changed audit row (before, after, `reason`),
    // every refusal a staff.refused row, a database failure an error log line.
    // The person's rights follow at once, the way a disable does: every change they make reads
    // their account again (requireCurrent), so a demoted administrator is refused at the next
    // one, with the Actor they signed in with; pages already open are not rebuilt until they
    // sign in again (nor does a promotion add any before then).
    Result<StaffAccount> setRole(const QString &username, const QString &role, const Actor &by,
                                 const QString &reason) const;
    Result<QList<StaffAccount>> list(const Actor &by) const;
    Result<StaffAccount> find(const QString &username) const;

    // `where` says from where (e.g. "console@host"); it is audited, the password never is,
    // nor anything of an unknown user name (people type passwords there). Whether the account
    // is locked, when its lock ends and the new lock are decided by the database server's
    // time (databaseNowMs), read inside the sign-in's transaction; the audit rows' own times
    // are the injected Clock's, as every other audit row's.
    Result<SignInResult> authenticate(const QString &username, const QString &password,
                                      const QString &where) const;
    Result<void> signOut(const StaffAccount &account, const QString &where) const;

    static bool validUsername(const QString &username);
    // The longest display name, in characters (code points): what every engine's staff table
    // holds (MariaDB's display_name is VARCHAR(191)).
    static constexpr int kMaxDisplayNameLength = 191;
    // Whether `displayName`, already trimmed, may be stored: Invalid "display_name_too_long"
    // above kMaxDisplayNameLength characters, "display_name_control" with a control character
    // (C0/C1 controls such as newline and tab, or a line or paragraph separator) anywhere in
    // it. The one rule for every path that sets a display name (add; the CLI and the
    // administration page go through it).
    static Result<void> checkDisplayName(const QString &displayName);

private:
    // disable and enable: one path, their rules (disableFits, enableFits) and the last
    // administrator apart.
    Result<StaffAccount> setEnabled(const QString &username, bool enable, const Actor &by,
                                    const QString &reason) const;
    // " FOR UPDATE" on PostgreSQL and MariaDB; nothing on SQLite, whose immediate
    // transaction holds the write lock.
    QString forUpdate() const;
    // For a change that could leave no enabled administrator (a demotion, a disable), first
    // in its transaction: locks the enabled administrators' rows in the order of their ids,
    // then reads them again now that they are locked, and answers their ids. While the rows
    // are locked no other such change can take one away, and two such changes take turns
    // (the second sees what the first did) instead of both finding another administrator
    // left, or deadlocking.
    Result<QList<qint64>> lockEnabledAdmins() const;
    // The account `username`, its row locked (inside a transaction); NotFound
    // "unknown_staff" when there is none.
    Result<StaffAccount> lockAccount(const QString &username) const;
    // An administrator's change of another staff account (a disable, an enable, a role
    // change), in one transaction: the enabled administrators' rows locked first
    // (lockEnabledAdmins), the actor's account read again (requireCurrent), the account locked;
    // then `decide` answers the account as it is to be — or an error that refuses the change, or
    // the account as it is when there is nothing to do — and a change of role, of disabled, or
    // of the failed sign-ins and lock (an enable clears them) is written and audited as
    // `action`, with the account before and after and the reason.
    struct AccountChange {
        StaffAccount before;
        StaffAccount after;
        bool changed = false;
    };
    Result<AccountChange> changeAccount(
        const QString &username, const Actor &by, const QString &reason, const QString &action,
        const std::function<Result<StaffAccount>(const StaffAccount &before,
                                                 const QList<qint64> &admins)> &decide) const;
    // A wrong password for `account` (read with its row locked, inside authenticate's
    // transaction, and not locked at `now`): counts it, locks the account at the
    // `maxFailures`th, and audits login.failed (and login.locked).
    Result<void> recordFailure(const StaffAccount &account, const QString &where,
                               qint64 maxFailures, qint64 lockMs, qint64 now) const;
    // Which refusals refuse() audits: only those of rights (a bad user name, a short password
    // or a clash is the caller's mistake), or every refusal (not a database failure).
    enum class Audited { RightsOnly, EveryRefusal };
    // Audits a refusal (staff.refused, with `details` in its payload), logs it, and hands
    // `why` back; a database failure is logged as an error and not audited.
    Error refuse(const Error &why, const QString &step, const QString &target, const Actor &by,
                 Audited audited = Audited::RightsOnly, const QJsonObject &details = {}) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
