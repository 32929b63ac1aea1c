#pragma once

// Rights as they stand now (DESIGN.md §6, issue #8). A console page acts with the Actor its
// person signed in as; an administrator may disable that account or change its role while the
// page is open. require() checks only the role the Actor carries; every write a person can
// make checks again here, inside the write's own transaction, against the staff row.
// Thread contract: the connection's thread.

#include "core/result.h"
#include "db/connection.h"
#include "permissions.h"

#include <QSqlQuery>

#include <optional>

namespace OncePay {

// For a write by `actor`: require(actor, action), and, for a staff actor (agent, finance,
// auditor, admin), that person's staff row read again on `connection`. Call it inside the
// write's transaction, before writing: on PostgreSQL and MariaDB the row is locked
// (SELECT … FOR UPDATE) until that transaction ends, and SQLite's immediate transaction already
// holds the write lock, so a disable or role change made at the same moment either commits
// first and is seen here, or waits until the write has committed.
// Refused with ErrorCode::Forbidden (reasons "unknown_staff", "staff_disabled",
// "role_changed") when there is no such account, it is disabled, or the role it has now may
// not do `action`; a role change that still allows `action` is not a refusal. A lock after
// failed sign-ins is not a refusal either: it stops guessing a password, not a person who
// signed in before it. Other actors (system: the operator's command line on the server;
// platform and the engine's own parts) are checked by require() alone, as before.
// Logs a warning for every refusal; auditing it is the caller's (its "….refused" row).
// `lock` (the default) reads the row locked, for a change made in the caller's transaction that
// must not race a change of the account; StaffRowRead::Plain reads it without a lock, for a read
// whose right is checked (the audit trail): an auditor's database role may read the staff table
// but not lock its rows (SELECT … FOR UPDATE needs UPDATE rights on PostgreSQL and MariaDB).
enum class StaffRowRead { Locked, Plain };
Result<void> requireCurrent(const Connection &connection, const Actor &actor, Action action,
                            StaffRowRead read = StaffRowRead::Locked);

// The staff row of `username`, locked (FOR UPDATE on PostgreSQL and MariaDB) through its primary
// key only, with the columns `columns`; no row when there is no such account. Every locking
// read of a staff row goes through here: locking it through the unique user-name index takes
// that index entry first and the row second — the opposite order of a staff change that
// already holds the row (StaffService locks the enabled administrators' rows first) — and
// InnoDB ended one of the two as a deadlock. The id is read first without a lock (user names
// never change and rows are never deleted).
Result<std::optional<QSqlQuery>> lockStaffRow(const Connection &connection, const QString &username,
                                              const QString &columns,
                                              StaffRowRead read = StaffRowRead::Locked);

} // namespace OncePay
