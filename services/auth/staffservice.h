#pragma once

// Staff accounts and sign-in (DESIGN.md §5, §6): Argon2id hashes, one role per account, a
// lock after `auth.max_failed_logins` failures for `auth.lockout_seconds` (ops_settings),
// and an audit_outbox row for every account change, sign-in, failure, lock and sign-out.
// Managing accounts requires Action::ManageStaff (admin, or the server operator's CLI); for a
// staff actor the account's row is read again inside each change's transaction
// (requireCurrent), so a disabled or demoted administrator is refused at once, and every
// refusal of rights leaves a staff.refused audit row. A sign-in answers the same for an
// unknown name, a wrong password and a locked account (see SignInRefusal).
// Thread contract: the connection's thread. authenticate() spends ~0.1 s hashing: never on
// the GUI thread.

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "staffaccount.h"

namespace OncePay {

struct NewStaff {
    QString username; // [a-z0-9._-], 2–64 characters
    QString displayName;
    StaffRole role = StaffRole::Agent;
};

class StaffService {
public:
    StaffService(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    Result<StaffAccount> add(const NewStaff &staff, const QString &password, const Actor &by) const;
    Result<StaffAccount> disable(const QString &username, const Actor &by,
                                 const QString &reason) const;
    // Sets a new password and lifts a lock.
    Result<StaffAccount> resetPassword(const QString &username, const QString &password,
                                       const Actor &by) const;
    Result<QList<StaffAccount>> list(const Actor &by) const;
    Result<StaffAccount> find(const QString &username) const;

    // `where` says from where (e.g. "console@host"); it is audited, the password never is.
    Result<SignInResult> authenticate(const QString &username, const QString &password,
                                      const QString &where) const;
    Result<void> signOut(const StaffAccount &account, const QString &where) const;

    static bool validUsername(const QString &username);

private:
    Result<void> recordFailure(const StaffAccount &account, const QString &where,
                               qint64 maxFailures, qint64 lockMs) const;
    // Audits a refusal of rights (staff.refused) and hands `why` back.
    Error refuse(const Error &why, const QString &step, const QString &target,
                 const Actor &by) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
