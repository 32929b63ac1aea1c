#pragma once

// Who may do what (DESIGN.md §6). Services check these before acting; the console uses the
// same table to decide what to offer, so hiding a button is never the only guard.
// Thread contract: pure functions.

#include "core/actor.h"
#include "core/result.h"

#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

enum class StaffRole { Agent, Finance, Auditor, Admin };

QString staffRoleName(StaffRole role); // "agent", "finance", "auditor", "admin"
std::optional<StaffRole> parseStaffRole(const QString &name);
QList<StaffRole> allStaffRoles();

enum class Action {
    ReadOrders,     // orders, messages, history, stuck records, dashboard
    ProposeFix,     // requeue, resolve, confirm, rollback, fee adjustment, write-off
    DecideFix,      // approve or reject (never one's own: checked where fixes are decided)
    ReadAudit,      // read and export the audit trail, verify the chain
    ManageStaff,    // staff accounts
    ManageSettings, // ops_settings, the shared settings in the orders database. Not the
                    // connection profiles: those are this computer's own configuration (the
                    // ini file and the user's keychain), needed before anyone signs in and open
                    // to every role; the database accounts decide what a connection may do.
};

QString actionName(Action action);

// The table of DESIGN.md §6.
bool can(StaffRole role, Action action);

// For services: staff actors are checked against the table; the `system` role (the
// operator's own command line on the server, which already holds the database credentials)
// may manage staff and settings; anything else is refused with ErrorCode::Forbidden.
// This checks the role the Actor carries (for staff: the one at sign-in); a write by a staff
// member also uses requireCurrent() (staffrights.h), which reads the account as it is now.
Result<void> require(const Actor &actor, Action action);

} // namespace OncePay
