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

template <typename T, typename Work, typename Done>
void runBackgroundQuery(QObject *context, const ConnectionProfile &profile, const QString &purpose,
                        Work work, Done done)
{
    static QAtomicInteger<quint64> counter;
    const QString name =
        QStringLiteral("console-%1-%2").arg(purpose).arg(counter.fetchAndAddRelaxed(1));
    auto *watcher = new QFutureWatcher<TaskOutcome<T>>(context);
    QObject::connect(watcher, &QFutureWatcher<TaskOutcome<T>>::finished, context, [watcher, done] {
        watcher->deleteLater();
        const TaskOutcome<T> outcome = watcher->result();
        if (outcome.value)
            done(Result<T>(*outcome.value));
        else
            done(Result<T>(outcome.error));
    });
    watcher->setFuture(
        QtConcurrent::run(consoleTaskPool(), [profile, name, work]() -> TaskOutcome<T> {
            TaskOutcome<T> out;
            auto &connections = Internal::threadConnections();
            const QString key = Internal::connectionKey(profile);
            auto it = connections.find(key);
            if (it == connections.end()) {
                auto c = InvestigationDb::open(profile, name);
                if (!c) {
                    out.error = c.error();
                    return out;
                }
                it = connections.emplace(key, std::make_unique<Connection>(std::move(c).value()))
                         .first;
            }
            Result<T> r = work(*it->second);
            if (r) {
                out.value = std::move(r).value();
            } else {
                out.error = r.error();
                if (out.error.code == ErrorCode::Unavailable ||
                    out.error.code == ErrorCode::Internal)
                    connections.erase(key);
            }
            return out;
        }));
}

} // namespace OncePay
