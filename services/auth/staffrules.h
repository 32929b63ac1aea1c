#pragma once

// Which staff account changes fit an account as it stands: the one rule both StaffService
// (setRole, disable, enable) and the administration page (which buttons it offers for the selected
// account, when its dialog's OK is on) ask, so the two cannot drift. Pure: no database; the
// caller says what it read.
//
// Checks that need more than the account's own state stay in StaffService, which reads what
// they need: rights (the actor's account as it is now), an unknown account, an unknown role,
// and the last enabled administrator (every administrator's row, locked). So a change that
// fits here can still be refused there; one that does not fit here is always refused there,
// with this very error.
// Thread contract: plain functions over plain values, any thread.

#include "core/result.h"
#include "permissions.h"

#include <QString>

#include <optional>

namespace OncePay {

// A change to one staff account as whoever asks read it. Every member has a default, so a
// caller names only what it has (designated initializers).
struct StaffChange {
    QString by = {};                       // the actor's id (a user name, or the CLI's cli:…)
    QString username = {};                 // the account changed
    StaffRole role = StaffRole::Agent;     // its role as read
    bool disabled = false;                 // whether it is disabled, as read
    std::optional<StaffRole> newRole = {}; // a role change: the role asked for
    // The reason given; unset while the change is only being offered (nothing asked yet).
    std::optional<QString> reason = {};
};

// Every role change and disable is audited with a reason: Invalid "reason_required" when
// `reason` is empty or blank.
Result<void> staffReasonGiven(const QString &reason);

// Whether `change` may change the account's role. Refused, in this order: Invalid
// "reason_required" (a reason given but blank), Conflict "own_role" (an administrator does
// not change their own role), Conflict "same_role" (the account has the role asked for).
Result<void> roleChangeFits(const StaffChange &change);

// Whether `change` may disable the account. Refused, in this order: Invalid "reason_required"
// (a reason given but blank), Conflict "own_account" (an administrator does not disable their
// own account), Conflict "already_disabled" (the account is disabled). `role` and `newRole`
// play no part.
Result<void> disableFits(const StaffChange &change);

// Whether `change` may enable (re-enable) the account. Refused, in this order: Invalid
// "reason_required" (a reason given but blank), Conflict "already_enabled" (the account is not
// disabled; one's own account always is not, or one could not ask). `role` and `newRole` play
// no part.
Result<void> enableFits(const StaffChange &change);

} // namespace OncePay
