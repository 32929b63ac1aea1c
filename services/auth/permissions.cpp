#include "permissions.h"

namespace OncePay {

QString staffRoleName(StaffRole role)
{
    switch (role) {
    case StaffRole::Agent: return QStringLiteral("agent");
    case StaffRole::Finance: return QStringLiteral("finance");
    case StaffRole::Auditor: return QStringLiteral("auditor");
    case StaffRole::Admin: return QStringLiteral("admin");
    }
    return {};
}

std::optional<StaffRole> parseStaffRole(const QString &name)
{
    for (StaffRole r : allStaffRoles())
        if (staffRoleName(r) == name)
            return r;
    return std::nullopt;
}

QList<StaffRole> allStaffRoles()
{
    return {StaffRole::Agent, StaffRole::Finance, StaffRole::Auditor, StaffRole::Admin};
}

QString actionName(Action action)
{
    switch (action) {
    case Action::ReadOrders: return QStringLiteral("read orders");
    case Action::ProposeFix: return QStringLiteral("propose a fix");
    case Action::DecideFix: return QStringLiteral("approve or reject a fix");
    case Action::ReadAudit: return QStringLiteral("read the audit trail");
    case Action::ManageStaff: return QStringLiteral("manage staff accounts");
    case Action::ManageSettings: return QStringLiteral("manage settings");
    }
    return {};
}

bool can(StaffRole role, Action action)
{
    switch (action) {
    case Action::ReadOrders: return true;
    case Action::ProposeFix: return role == StaffRole::Agent || role == StaffRole::Finance;
    case Action::DecideFix: return role == StaffRole::Finance;
    case Action::ReadAudit: return role == StaffRole::Finance || role == StaffRole::Auditor;
    case Action::ManageStaff:
    case Action::ManageSettings: return role == StaffRole::Admin;
    }
    return false;
}

Result<void> require(const Actor &actor, Action action)
{
    if (actor.role == u"system" &&
        (action == Action::ManageStaff || action == Action::ManageSettings))
        return {};
    const auto role = parseStaffRole(actor.role);
    if (role && can(*role, action))
        return {};
    return makeError(ErrorCode::Forbidden,
                     QStringLiteral("%1 (%2) may not %3")
                         .arg(actor.id,
                              actor.role.isEmpty() ? QStringLiteral("no role") : actor.role,
                              actionName(action)),
                     QStringLiteral("forbidden"));
}

} // namespace OncePay
