#pragma once

// The least-privilege database roles of packaging/sql/ set up on the throw-away servers as the
// README says (tst_dbroles, tst_login_grants): the scripts read and run, the four logins with
// fresh passwords, the databases migrated by the owner, the grants applied (twice: they are
// safe to repeat).

#include "testdatabases.h"

#include <QMap>
#include <QProcessEnvironment>
#include <QStringList>

namespace OncePay::Test {

// A script of packaging/sql/ (empty when it cannot be read).
QString readGrantScript(const QString &name);

// psql/mariadb script -> statements: split after a line ending in ';' outside $$ bodies;
// comment-only lines dropped.
QStringList scriptStatements(const QString &script);

// Runs a script of packaging/sql/ on `profile`; the problem, or empty.
QString runGrantScript(const ConnectionProfile &profile, const QString &name);

struct DbRoleLogins {
    QMap<QString, QString> passwords; // "owner", "engine", "console", "desk", "auditor"
    // The login of `role` ("owner", "engine", "console", "desk", "auditor") on `database`.
    ConnectionProfile profile(const ScratchDatabases &dbs, const char *role, DbRole database) const;
};

// The README's steps: roles (twice: safe to run again), passwords, databases owned by the
// owner, `db migrate` as the owner, the grants (twice). Fails the current test (QVERIFY) on
// any step; callers check QTest::currentTestFailed().
void setUpDbRoles(const ScratchDatabases &dbs, DbRoleLogins *roles);

// The orders and audit grants scripts, applied as the README says (PostgreSQL: as the owner;
// MySQL: as an administrator, who alone may grant); the problem, or empty.
QString applyGrantScripts(const ScratchDatabases &dbs, const DbRoleLogins &roles);

// A configuration file for the `oncepay` command that connects as `role` to both databases
// (messages in the orders database), its log in the scratch directory; the path.
QString writeRoleConfig(const ScratchDatabases &dbs, const DbRoleLogins &roles, const char *role);

// The environment that gives that configuration `role`'s password for both databases.
QProcessEnvironment roleEnvironment(const DbRoleLogins &roles, const char *role);

} // namespace OncePay::Test
