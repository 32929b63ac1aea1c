#pragma once

// What the engine's database login may do, checked the way the engine uses it (`oncepay db
// check`): the privileges packaging/sql/*-grants.sql give oncepay_engine, each tried with a
// statement that touches no row, inside a transaction that is rolled back. A grant missing
// after an upgrade (this release's grants script not applied) is found before a worker starts
// and stops on it. Servers only: a SQLite file has no logins.
// Thread contract: the connection's thread.

#include "core/result.h"
#include "db/connection.h"

#include <QStringList>

namespace OncePay {

struct LoginGrant {
    QString table;
    QString privilege; // SELECT, INSERT or UPDATE
    QString column;    // UPDATE of this column only (empty: the whole row)
};

class LoginGrants {
public:
    // The privileges the engine needs in the database `schema` ("orders" or "audit"), as the
    // grants scripts give them; tst_dbroles compares this list with the scripts.
    static QList<LoginGrant> engineNeeds(const QString &schema);

    // Those of engineNeeds() for the connection's schema that its login lacks, in the list's
    // order, as "INSERT on callback_attempts" or "UPDATE (shipped_at) on audit_outbox". Empty
    // on SQLite. A table the login cannot read is named for SELECT only (what else it may do
    // is not tried). An error only when a probe fails for another reason than a missing privilege
    // (the server went away): nothing is claimed then.
    // On PostgreSQL also "USAGE on <sequence>" for the id sequence of each table the engine
    // inserts into.
    static Result<QStringList> missingForEngine(const Connection &connection);

    // Whether `missing` (from missingForEngine) says the login is not the engine's at all — it
    // may not write the engine's first table (orders; audit_log in the audit database): a
    // console's, the desk's or the auditor's login, whose lack of the engine's grants is by
    // design.
    static bool isAnotherRolesLogin(const Connection &connection, const QStringList &missing);
};

} // namespace OncePay
