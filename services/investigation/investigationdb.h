#pragma once

// Opens the orders database for reading by the console: checks that its schema is the one
// this program knows (a newer schema is refused with ErrorCode::Newer, a database without a
// schema says how to create it) and never migrates — the console only looks. Nor does it
// create a SQLite database: a missing file is Unavailable ("database file not found: …").
// Thread contract: call inside the thread that will use the connection.

#include "core/result.h"
#include "db/connection.h"

namespace OncePay::InvestigationDb {

Result<Connection> open(const ConnectionProfile &profile, const QString &purpose);

} // namespace OncePay::InvestigationDb
