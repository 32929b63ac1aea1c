#include "staffrules.h"

namespace OncePay {

Result<void> staffReasonGiven(const QString &reason)
{
    if (reason.trimmed().isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("a reason is required"),
                         QStringLiteral("reason_required"));
    return {};
}

Result<void> roleChangeFits(const StaffChange &change)
{
    if (change.reason)
        if (auto r = staffReasonGiven(*change.reason); !r)
            return r;
    if (change.username == change.by)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("an administrator may not change their own role"),
                         QStringLiteral("own_role"));
    if (change.newRole && *change.newRole == change.role)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("%1 already has the role %2")
                             .arg(change.username, staffRoleName(*change.newRole)),
                         QStringLiteral("same_role"));
    return {};
}

Result<void> disableFits(const StaffChange &change)
{
    if (change.reason)
        if (auto r = staffReasonGiven(*change.reason); !r)
            return r;
    if (change.username == change.by)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("an administrator may not disable their own account"),
                         QStringLiteral("own_account"));
    if (change.disabled)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("%1 is disabled already").arg(change.username),
                         QStringLiteral("already_disabled"));
    return {};
}

Result<void> enableFits(const StaffChange &change)
{
    if (change.reason)
        if (auto r = staffReasonGiven(*change.reason); !r)
            return r;
    if (!change.disabled)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("%1 is enabled already").arg(change.username),
                         QStringLiteral("already_enabled"));
    return {};
}

} // namespace OncePay
