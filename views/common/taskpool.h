#pragma once

// The console's own thread pool for database and file work (background queries, audit
// jobs, health checks, sign-out). Not QThreadPool::globalInstance(): Qt 6.4's raster paint
// engine splits large fills over the global pool and the GUI thread waits for them, so a
// long query on a global-pool thread froze painting — and with it the whole GUI — until the
// query ended (2.3 s for the dashboard on 1,000,000 orders).
//
// Not a QThreadPool either: QThreadPool wakes the thread that has waited longest, so
// consecutive reads went round all its threads, each time to the one whose CPU caches and
// SQLite page cache (its kept connection, backgroundquery.h) were coldest. This pool hands a
// task to the thread that went idle last — the warmest — and starts a new thread only when
// every thread is busy, up to its limit; tasks beyond that wait in order. Its threads never
// expire, so each keeps its cached connections for the next task; the pool is drained and
// deleted when the application object goes, and its threads' connections are closed before
// QtSql cleans up.
// Thread contract: call consoleTaskPool() and its members on the GUI thread; tasks run on its
// threads and must not throw (one that does is logged and ends).

#include "config/connectionprofile.h"

#include <QFuture>
#include <QPromise>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

class QThread;

namespace OncePay {

// At most kConsoleTaskThreads database tasks run at once (each thread holds at most one
// connection per database), so a slow load does not hold up a search behind it.
inline constexpr int kConsoleTaskThreads = 4;

// A fixed set of at most `maxThreads` threads, started as needed, reused last-idle-first.
class TaskPool {
public:
    TaskPool(const QString &threadName, int maxThreads);
    // Waits for every task started, then ends the threads.
    ~TaskPool();
    TaskPool(const TaskPool &) = delete;
    TaskPool &operator=(const TaskPool &) = delete;

    // Runs `task` on the thread that went idle last, a new thread if none is idle and the
    // limit allows, or else after the tasks already waiting.
    void start(std::function<void()> task);

    // `work()` on the pool; its value (or its end, for void) through the future.
    template <typename Work> auto run(Work work) -> QFuture<std::invoke_result_t<Work>>
    {
        using R = std::invoke_result_t<Work>;
        auto promise = std::make_shared<QPromise<R>>();
        QFuture<R> future = promise->future();
        promise->start();
        start([promise, work = std::move(work)]() mutable {
            if constexpr (std::is_void_v<R>)
                work();
            else
                promise->addResult(work());
            promise->finish();
        });
        return future;
    }

    // Until no task runs or waits.
    void waitForDone();
    // Threads running a task now.
    int activeThreadCount() const;
    // Threads started so far (they are kept until the pool ends).
    int threadCount() const;

private:
    struct Worker;
    void work(Worker *self);

    const QString m_threadName;
    const int m_maxThreads;
    mutable std::mutex m_mutex;
    std::condition_variable m_idleAll; // waitForDone
    std::deque<std::function<void()>> m_waiting;
    std::vector<std::unique_ptr<Worker>> m_workers;
    std::vector<Worker *> m_idle; // the one that went idle last at the back: woken first
    int m_busy = 0;
    bool m_ending = false;
};

TaskPool *consoleTaskPool();

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

} // namespace Internal

} // namespace OncePay
