#pragma once

// The time a rule shared by every workstation is decided by (a staff account's lock and its
// end): the database server's clock on PostgreSQL and MariaDB, not the clock of the machine
// that asks — a workstation's clock can be wrong or moved, and each would otherwise lift or
// shorten a lock by its own. On SQLite the database is a file on this machine, so this
// machine's clock (`local`, the injected Clock) is the database's clock.
// Thread contract: the connection's thread.

#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

// Epoch ms. PostgreSQL: clock_timestamp() (the time of the read itself, not the start of the
// transaction); MariaDB/MySQL: NOW(3) (the statement's start). Read inside the caller's
// transaction, after the row locks it waited for, so a decision waited for is taken at the
// time it is taken. A failed read: the error, classified like Sql::exec.
Result<qint64> databaseNowMs(const Connection &c, const Clock &local);

} // namespace OncePay
