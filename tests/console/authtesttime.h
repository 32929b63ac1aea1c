#pragma once

// The time a staff account's lock is decided by, for the sign-in tests (tst_auth,
// tst_auth_race, tst_auth_lock_time): the database server's clock on PostgreSQL and MariaDB,
// the test's injected clock on SQLite (an embedded file: this machine's clock is the
// database's). Read here with the tests' own SQL, not through the engine's databaseNowMs.

#include "core/clock.h"
#include "db/connection.h"
#include "db/sql.h"

#include <QtGlobal>

namespace OncePay::Test {

inline qint64 lockClockNowMs(const Connection &c, const Clock &clock)
{
    const char *sql = nullptr;
    switch (c.dialect()) {
    case Dialect::Sqlite: return clock.nowMs();
    case Dialect::Postgres:
        sql = "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
        break;
    case Dialect::MySql: sql = "SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)"; break;
    }
    auto v = Sql::scalar(c.db(), QString::fromLatin1(sql));
    if (!v)
        qFatal("the database server's time: %s", qPrintable(v.error().message));
    return v->toLongLong();
}

// As if `ms` had passed for the locks of `c`'s staff accounts: on SQLite the injected clock
// moves on; on a server, whose clock the test cannot move, every lock is moved back by `ms`
// instead (tst_auth_lock_time waits for a lock to end in real time).
inline void letLockTimePass(const Connection &c, ManualClock &clock, qint64 ms)
{
    if (c.dialect() == Dialect::Sqlite) {
        clock.advance(ms);
        return;
    }
    auto n = Sql::update(c.db(),
                         QStringLiteral("UPDATE staff SET locked_until = locked_until - ? WHERE"
                                        " locked_until IS NOT NULL"),
                         {ms});
    if (!n)
        qFatal("moving the locks back: %s", qPrintable(n.error().message));
}

} // namespace OncePay::Test
