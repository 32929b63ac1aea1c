#pragma once

// Whether a session waits on a lock, as the server itself reports it — for the tests that make
// two changes meet (tst_staff_changes, tst_fix_locks). PostgreSQL and MariaDB only: SQLite
// reports no such thing.

#include "db/connection.h"
#include "db/sql.h"

#include <QDeadlineTimer>
#include <QThread>
#include <QtGlobal>

namespace OncePay::Test {

// Whether, within `timeoutMs`, the server reports a session of this database waiting for a
// lock (PostgreSQL: pg_stat_activity; MariaDB: a transaction in LOCK WAIT), asked on a
// connection of its own (PostgreSQL keeps one snapshot of pg_stat_activity per transaction).
inline bool aSessionWaitsOnALock(const ConnectionProfile &profile, int timeoutMs)
{
    auto watch = Connection::open(profile, QStringLiteral("watch"));
    if (!watch) {
        qWarning("watch: %s", qPrintable(watch.error().message));
        return false;
    }
    const QString sql =
        watch->dialect() == Dialect::Postgres
            ? QStringLiteral("SELECT COUNT(*) FROM pg_stat_activity WHERE datname ="
                             " current_database() AND wait_event_type = 'Lock'")
            : QStringLiteral("SELECT COUNT(*) FROM information_schema.INNODB_TRX t JOIN"
                             " information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id"
                             " WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()");
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        auto n = Sql::scalar(watch->db(), sql);
        if (!n) {
            qWarning("watch: %s", qPrintable(n.error().message));
            return false;
        }
        if (n->toLongLong() > 0)
            return true;
        if (deadline.hasExpired())
            return false;
        // MariaDB refreshes its INNODB_TRX table only when nobody read it for 0.1 s.
        QThread::msleep(250);
    }
}

} // namespace OncePay::Test
