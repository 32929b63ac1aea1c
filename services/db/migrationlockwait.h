#pragma once

// How long a migration's statements wait for locks other sessions hold (Migrator::lockWait),
// and what a process does after a migration stopped on that bound. A statement that needs a
// table another session is using, or rows it changed, waits for them — and every statement on
// that table that comes after it waits behind it: the gateway's inserts, the workers' claims.
// Left to the servers' own bounds (PostgreSQL: none; MariaDB: a day for a table, 50 s for a
// row) a long transaction would hold the pipeline up for as long. Bounded, the migration stops;
// and the process then leaves that database's migration alone for a pause
// (Migrator::lockWaitPause), so that its threads — a worker's, the gateway's, each retrying as
// after an outage — do not hold the table's queue up again at every retry.
// Internal to services/db (migrator.cpp).
// Thread contract: a LockWaitBound on its connection's thread; the pause functions from any.

#include "connection.h"
#include "core/result.h"

#include <QString>

#include <chrono>
#include <optional>

class QSqlError;

namespace OncePay::Internal {

// The bound on one migration's connection, set after the migration lock is taken (waiting
// for another migrator is not bounded by it). PostgreSQL: lock_timeout, for the migration's
// transaction only (SET LOCAL), tables and rows alike. MariaDB: the session's lock_wait_timeout
// (tables) and innodb_lock_wait_timeout (rows), in whole seconds, the session's own values put
// back when the bound goes. SQLite: nothing (BEGIN IMMEDIATE waits for the busy time-out).
class LockWaitBound {
public:
    static Result<LockWaitBound> set(const Connection &connection, std::chrono::milliseconds wait);
    LockWaitBound(LockWaitBound &&other) noexcept;
    LockWaitBound &operator=(LockWaitBound &&) = delete;
    LockWaitBound(const LockWaitBound &) = delete;
    ~LockWaitBound() { restore(); }

    void restore(); // at most once; a failure is logged (the link is then likely lost anyway)
    std::chrono::milliseconds wait() const { return m_wait; } // as the server takes it

private:
    LockWaitBound(const Connection &connection, std::chrono::milliseconds wait)
        : m_connection(&connection)
        , m_wait(wait)
    {}
    const Connection *m_connection = nullptr;
    std::chrono::milliseconds m_wait{};
    QString m_restore; // MariaDB: the statement that puts the session's values back
};

// A statement that failed because the bound ran out: PostgreSQL 55P03 lock_not_available;
// MariaDB 1205 (a table's metadata lock or a row lock).
bool waitedForLock(const QSqlError &error);

// The pause after a migration of `database` stopped on the bound, in this process.
struct LockWaitPause {
    QString migration; // the one that stopped
    qint64 stoppedAtMs = 0;
    qint64 untilMs = 0;
};
void pauseAfterLockWait(const QString &database, const QString &migration,
                        std::chrono::milliseconds pause);
std::optional<LockWaitPause> lockWaitPause(const QString &database); // only while it lasts
void endLockWaitPause(const QString &database);                      // it went through

} // namespace OncePay::Internal
