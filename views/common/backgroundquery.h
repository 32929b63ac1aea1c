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
#include "investigation/investigationdb.h"

#include <QAtomicInteger>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <map>
#include <memory>
#include <optional>

namespace OncePay {

// A default-constructible carrier for Result<T> across QFuture.
template <typename T> struct TaskOutcome {
    std::optional<T> value;
    Error error;
};

namespace Internal {

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
    std::map<QString, std::unique_ptr<Connection>> connections;
};

inline std::map<QString, std::unique_ptr<Connection>> &threadConnections()
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

// Result<T> as the value a task hands back across QFuture.
template <typename T> TaskOutcome<T> outcomeOf(Result<T> r)
{
    TaskOutcome<T> out;
    if (r)
        out.value = std::move(r).value();
    else
        out.error = r.error();
    return out;
}

// Runs `task` on the console's pool and hands its outcome, as a Result<T>, to `done` on the
// GUI thread while `context` lives.
template <typename T, typename Task, typename Done>
void runOnConsolePool(QObject *context, Task task, Done done)
{
    auto *watcher = new QFutureWatcher<TaskOutcome<T>>(context);
    QObject::connect(watcher, &QFutureWatcher<TaskOutcome<T>>::finished, context, [watcher, done] {
        watcher->deleteLater();
        const TaskOutcome<T> outcome = watcher->result();
        if (outcome.value)
            done(Result<T>(*outcome.value));
        else
            done(Result<T>(outcome.error));
    });
    watcher->setFuture(QtConcurrent::run(consoleTaskPool(), std::move(task)));
}

} // namespace Internal

template <typename T, typename Work, typename Done>
void runBackgroundQuery(QObject *context, const ConnectionProfile &profile, const QString &purpose,
                        Work work, Done done)
{
    const QString name = Internal::taskConnectionName(purpose);
    Internal::runOnConsolePool<T>(
        context,
        [profile, name, work]() -> TaskOutcome<T> {
            auto &connections = Internal::threadConnections();
            const QString key = Internal::connectionKey(profile);
            auto it = connections.find(key);
            if (it == connections.end()) {
                auto c = InvestigationDb::open(profile, name);
                if (!c)
                    return Internal::outcomeOf<T>(c.error());
                it = connections.emplace(key, std::make_unique<Connection>(std::move(c).value()))
                         .first;
            }
            Result<T> r = work(*it->second);
            if (!r &&
                (r.error().code == ErrorCode::Unavailable || r.error().code == ErrorCode::Internal))
                connections.erase(key); // a lost database is reopened by the next task
            return Internal::outcomeOf<T>(std::move(r));
        },
        done);
}

} // namespace OncePay
