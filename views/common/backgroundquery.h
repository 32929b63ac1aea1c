#pragma once

// Runs one read against the orders database on a thread of the console's pool (taskpool.h): the
// task uses that thread's own connection (opened there on first use under a unique name, schema
// checked, never migrated, then kept for the thread's next task — one connection per thread per
// database), runs `work(connection)` and hands a plain value back to `done` on the GUI thread,
// queued. A task that fails because the database is unavailable (or answers unexpectedly) closes
// its connection, so a lost database is reopened by the next task. The caller drops stale
// answers with its own generation counter (see ConnectionsPage).
// Thread contract: call on the GUI thread; `work` runs on a pool thread and must only touch
// what it captured by value; `done` runs on the GUI thread while `context` lives.

#include "common/taskpool.h"
#include "core/result.h"
#include "db/connection.h"
#include "db/serversilence.h"
#include "investigation/investigationdb.h"

#include <QAtomicInteger>
#include <QObject>
#include <QThread>
#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace OncePay {

// A default-constructible carrier for Result<T> from a pool thread to the GUI thread.
template <typename T> struct TaskOutcome {
    std::optional<T> value;
    Error error;
};

namespace Internal {

// A pool thread's open connection to one database, with the identity of the SQLite file it
// opened (none for a server): an open SQLite handle keeps reading its file after the file is
// moved, deleted or replaced, so a kept connection is used again only while the profile's
// path still names that same file (sqliteFileIdentity, one stat()).
struct KeptConnection {
    std::unique_ptr<Connection> connection;
    std::optional<FileIdentity> file;
};

// The connections of the calling pool thread, by profile; closed when the thread ends,
// before the pool's drain at exit lets QtSql clean up (taskpool.h).
struct ThreadConnections {
    ThreadConnections() { takeThreadResources(); }
    ~ThreadConnections()
    {
        connections.clear();
        releaseThreadResources();
    }
    ThreadConnections(const ThreadConnections &) = delete;
    ThreadConnections &operator=(const ThreadConnections &) = delete;
    std::map<QString, KeptConnection> connections;
};

inline std::map<QString, KeptConnection> &threadConnections()
{
    thread_local ThreadConnections held;
    return held.connections;
}

inline QString connectionKey(const ConnectionProfile &p)
{
    return p.describe() + QLatin1Char('|') + p.options;
}

} // namespace Internal

namespace Internal {

// A unique connection name for one task: "console-<purpose>-<n>".
inline QString taskConnectionName(const QString &purpose)
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("console-%1-%2").arg(purpose).arg(counter.fetchAndAddRelaxed(1));
}

// Result<T> as the value a task hands back to the GUI thread.
template <typename T> TaskOutcome<T> outcomeOf(Result<T> r)
{
    TaskOutcome<T> out;
    if (r)
        out.value = std::move(r).value();
    else
        out.error = r.error();
    return out;
}

// The GUI-thread end of one pool task: a child of the caller's context that keeps `done` and
// receives the task's outcome as one queued call. The pool thread posts under a mutex that the
// relay's destructor takes too, so an answer is never posted to a relay that is going away
// with its context (the answer is then dropped). One posted event per task: a QFutureWatcher
// took five (started, result, finished, ...) and a QFuture's shared state for each read.
template <typename T> class TaskRelay final : public QObject {
public:
    struct Link {
        std::mutex mutex;
        TaskRelay *relay = nullptr;
    };

    // `done` may take the Result as `const Result<T> &` or, to keep what it holds without a
    // copy (a page of a long list), as `Result<T> &&`.
    TaskRelay(QObject *context, std::function<void(Result<T>)> done)
        : QObject(context)
        , m_done(std::move(done))
        , m_link(std::make_shared<Link>())
    {
        m_link->relay = this;
    }
    ~TaskRelay() override
    {
        std::lock_guard lock(m_link->mutex);
        m_link->relay = nullptr;
    }
    TaskRelay(const TaskRelay &) = delete;
    TaskRelay &operator=(const TaskRelay &) = delete;

    std::shared_ptr<Link> link() const { return m_link; }

    // On a pool thread: hands `outcome` to `done` on the GUI thread, unless the context is gone.
    static void post(const std::shared_ptr<Link> &link, TaskOutcome<T> outcome)
    {
        std::lock_guard lock(link->mutex);
        if (TaskRelay *relay = link->relay)
            QMetaObject::invokeMethod(
                relay,
                [relay, outcome = std::move(outcome)]() mutable {
                    relay->deliver(std::move(outcome));
                },
                Qt::QueuedConnection);
    }

private:
    void deliver(TaskOutcome<T> &&outcome)
    {
        // `done` may end the context, and this relay with it: nothing here is touched after.
        const auto done = std::move(m_done);
        deleteLater();
        // Moved, not copied: a stuck list's page of thousands of records was copied here on the
        // GUI thread (tests/bench/README.md, 27th session).
        if (outcome.value)
            done(Result<T>(std::move(*outcome.value)));
        else
            done(Result<T>(std::move(outcome.error)));
    }

    std::function<void(Result<T>)> m_done;
    std::shared_ptr<Link> m_link;
};

// Runs `task` on the console's pool and hands its outcome, as a Result<T>, to `done` on the
// GUI thread while `context` lives.
// The GUI thread then yields its CPU once: Linux often wakes the pool thread on the waker's
// CPU, where it waited until the GUI thread had handled the rest of the key press and gone
// idle — 0.26–0.4 ms of a search that reads in 0.2 (tests/bench/README.md, 22nd session: a
// search by order id read at Return 0.65–0.83 → 0.52–0.54 ms). A pool thread on the other CPU
// is not affected (the yield returns at once), and the GUI thread stays runnable — back as
// soon as the scheduler picks it again, never waiting for the task.
template <typename T, typename Task, typename Done>
void runOnConsolePool(QObject *context, Task task, Done done)
{
    auto *relay = new TaskRelay<T>(context, std::move(done));
    consoleTaskPool()->start([link = relay->link(), task = std::move(task)]() mutable {
        TaskRelay<T>::post(link, task());
    });
    QThread::yieldCurrentThread();
}

} // namespace Internal

template <typename T, typename Work, typename Done>
void runBackgroundQuery(QObject *context, const ConnectionProfile &profile, const QString &purpose,
                        Work work, Done done)
{
    const QString name = Internal::taskConnectionName(purpose);
    Internal::runOnConsolePool<T>(
        context,
        [profile, name, purpose, work]() -> TaskOutcome<T> {
            auto &connections = Internal::threadConnections();
            const QString key = Internal::connectionKey(profile);
            auto it = connections.find(key);
            if (it != connections.end() && it->second.file &&
                Internal::sqliteFileIdentity(profile) != it->second.file) {
                spdlog::info("console: {} is no longer the file this thread opened; reopening",
                             profile.path.toStdString());
                connections.erase(it); // moved, deleted or replaced: the next open says which
                it = connections.end();
            }
            if (it == connections.end()) {
                const auto file = Internal::sqliteFileIdentity(profile);
                auto c = InvestigationDb::open(profile, name);
                if (!c)
                    return Internal::outcomeOf<T>(c.error());
                it = connections
                         .emplace(key,
                                  Internal::KeptConnection{
                                      std::make_unique<Connection>(std::move(c).value()), file})
                         .first;
            }
            Result<T> r = [&] {
                // A server that stops answering ends the read (serversilence.h), not the pool.
                ServerSilenceWatch::Scope watched(*it->second.connection,
                                                  QStringLiteral("console read (%1)").arg(purpose));
                return work(*it->second.connection);
            }();
            if (!r &&
                (r.error().code == ErrorCode::Unavailable || r.error().code == ErrorCode::Internal))
                connections.erase(key); // a lost database is reopened by the next task
            return Internal::outcomeOf<T>(std::move(r));
        },
        done);
}

} // namespace OncePay
