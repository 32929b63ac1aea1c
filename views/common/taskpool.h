#pragma once

// The console's own thread pool for database and file work (background queries, audit
// jobs, sign-out; the health check has its own, healthCheckPool()). Not
// QThreadPool::globalInstance(): Qt 6.4's raster paint engine splits large fills over the
// global pool and the GUI thread waits for them, so a long query on a global-pool thread froze
// painting — and with it the whole GUI — until the query ended (2.3 s for the dashboard on
// 1,000,000 orders). Its threads never expire, so each keeps its cached connections
// (backgroundquery.h) for the next task; the pool is drained (for at most
// kConsoleDrainSeconds) and deleted when the application object goes, and its threads'
// connections are closed before QtSql cleans up.
// Thread contract: call consoleTaskPool() on the GUI thread; tasks run on its threads.

#include "config/connectionprofile.h"

#include <QThreadPool>

#include <chrono>
#include <optional>

namespace OncePay {

// At most kConsoleTaskThreads database tasks run at once (each thread holds at most one
// connection per database), so a slow load does not hold up a search behind it.
inline constexpr int kConsoleTaskThreads = 4;

QThreadPool *consoleTaskPool();

// The health check's own pool (one check at a time, ConnectionsPage): four page tasks that
// wait on a server never hold it up, so the status bar still turns to "unreachable". Its
// thread keeps nothing between checks and ends when idle.
QThreadPool *healthCheckPool();

// At exit (when the application object goes) both pools are drained for at most
// kConsoleDrainSeconds: a task still running then (a statement on a link that stopped
// answering) is abandoned — logged, and the process ends at once with status 1 without
// running its static destructors, which would otherwise close that task's connection under
// its feet (or wait for ever). A signal's or Quit's exit is not held up by a lost server.
inline constexpr int kConsoleDrainSeconds = 10;

// Which file a path names (device and inode): a file moved away and another put in its
// place, or the same file moved back, are told apart.
struct FileIdentity {
    quint64 device = 0;
    quint64 inode = 0;
    bool operator==(const FileIdentity &) const = default;
};

namespace Internal {

// The file a SQLite profile's path names now; nothing for a server profile or a path that
// names no file.
std::optional<FileIdentity> sqliteFileIdentity(const ConnectionProfile &profile);

// A pool thread that keeps database resources for its later tasks (its connections,
// backgroundquery.h) takes a token when it first keeps one and gives it back from its
// thread_local destructor. Thread_local destructors run after QThread::wait() has returned,
// so the pool's drain at exit also waits for every token: only then may QtSql clean its
// connections up — otherwise both closed the same SQLite handles at once (a double free
// at exit, found in tst_console_widgets).
void takeThreadResources();
void releaseThreadResources();

// What the exit does: waits up to `limit` in all for both pools' tasks, then for the threads'
// kept resources; true when all ended (the pools are deleted). False when a task is still
// running after the limit (the pools are left as they are: a later call may succeed) or a
// thread still holds its resources. Tests call it directly.
bool drainConsolePools(std::chrono::milliseconds limit);

} // namespace Internal

} // namespace OncePay
