#pragma once

// A staff member's console session, checked against their account as it is now (review
// rev-signin, finding 1): an administrator may disable the account, or change its role, while
// the console it signed in with is open. The console asks at its periodic health check
// (checkStaffSession) and ends the session itself when the answer says so; an action whose
// answer must follow the account as it is now asks requireStaffSession. Every ending of a
// session is recorded once as a `logout` audit row (recordStaffSignOut), with the reason when
// the console ended it rather than the person.
// Thread contract: the connection's thread; plain values.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "staffaccount.h"

namespace OncePay {

enum class StaffSessionEnd {
    None,        // the account is as it was at sign-in: the session goes on
    Disabled,    // an administrator disabled the account
    Removed,     // there is no such account any more
    RoleChanged, // the account has another role now (its views and rights differ)
};

// "account_disabled", "account_removed", "role_changed"; "" for None. The reason the sign-out
// row records when the console ends the session itself.
QString staffSessionEndReason(StaffSessionEnd end);

// Reads `account`'s staff row once (a plain read, no lock: any console login may read it) and
// says whether the session it signed in with may go on. An error when the row cannot be read
// (the database is away): the caller decides nothing on it.
Result<StaffSessionEnd> checkStaffSession(const Connection &connection,
                                          const StaffAccount &account);

// requireCurrent(connection, actor, action, StaffRowRead::Plain) and, for a staff actor, the
// role it signed in with still its role: an action that hands something out (a dossier) follows
// the account as it is now, not only its rights. Refused with ErrorCode::Forbidden, reasons
// "unknown_staff", "staff_disabled", "role_changed" (logged as a warning); auditing the refusal
// is the caller's.
Result<void> requireStaffSession(const Connection &connection, const Actor &actor, Action action);

// Writes the `logout` audit row of `account` signing out from `where` ("console@host"), in a
// transaction of its own; `reason` (e.g. "account_disabled", "terminated") when the session was
// ended by something other than the person's own Sign out or Quit. Logs the sign-out.
Result<void> recordStaffSignOut(const Connection &connection, const Clock &clock,
                                const StaffAccount &account, const QString &where,
                                const QString &reason = {});

} // namespace OncePay
