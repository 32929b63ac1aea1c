#pragma once

// Whether a connection waited for SQLite's write lock, as SQLite itself reports it: SQLite calls
// a connection's busy handler when a statement finds the database locked by another connection
// (BEGIN IMMEDIATE while another write transaction is open, among them). The SQLite counterpart
// of aSessionWaitsOnALock (lockwait.h), for the tests that make two changes meet
// (stafftestsupport.h whenTwoChangesMeet, tst_fix_locks). SQLite has one write lock for the
// whole database and no row locks: what this sees is that lock, never the order of row locks.
// Thread contract: watch() on the watched connection's thread; metALock() and waitUntilMet()
// from any thread. The watch must outlive the connection's use.

#include "db/connection.h"
#include "db/sqlitenative.h"

#include <QDeadlineTimer>
#include <QThread>

#include <atomic>

#include <sqlite3.h>

namespace OncePay::Test {

class SqliteLockWatch {
public:
    // From now on, every time `c` finds the database locked SQLite counts it here, and `c`
    // waits for the lock as its busy timeout would (up to `timeoutMs` for each lock met) before
    // giving up with "database is locked". Does nothing for a connection of another engine.
    void watch(const Connection &c, int timeoutMs = 10000)
    {
        m_retries = timeoutMs / kPollMs;
        if (sqlite3 *h = SqliteNative::handle(c.db()))
            sqlite3_busy_handler(h, &SqliteLockWatch::onBusy, this);
    }

    // Whether the watched connection has found the database locked.
    bool metALock() const { return m_met.load() > 0; }

    // Waits up to `timeoutMs` for the watched connection to find the database locked.
    bool waitUntilMet(int timeoutMs) const
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!metALock() && !deadline.hasExpired())
            QThread::msleep(kPollMs);
        return metALock();
    }

private:
    static constexpr int kPollMs = 2;

    // SQLite's busy handler: `count` is how many times it was called for this lock already;
    // non-zero asks SQLite to try again.
    static int onBusy(void *self, int count)
    {
        auto *watch = static_cast<SqliteLockWatch *>(self);
        ++watch->m_met;
        if (count >= watch->m_retries)
            return 0;
        QThread::msleep(kPollMs);
        return 1;
    }

    std::atomic<int> m_met{0};
    int m_retries = 0;
};

} // namespace OncePay::Test
