#pragma once

// Runs one read against the orders database on a pool thread: the task opens its own
// connection there (unique name, schema checked, never migrated), runs `work(connection)`
// and hands a plain value back to `done` on the GUI thread, queued. The caller drops stale
// answers with its own generation counter (see ConnectionsPage).
// Thread contract: call on the GUI thread; `work` runs on a pool thread and must only touch
// what it captured by value; `done` runs on the GUI thread while `context` lives.

#include "core/result.h"
#include "db/connection.h"
#include "investigation/investigationdb.h"

#include <QAtomicInteger>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>

#include <optional>

namespace OncePay {

// A default-constructible carrier for Result<T> across QFuture.
template <typename T> struct TaskOutcome {
    std::optional<T> value;
    Error error;
};

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
    watcher->setFuture(QtConcurrent::run([profile, name, work]() -> TaskOutcome<T> {
        TaskOutcome<T> out;
        auto c = InvestigationDb::open(profile, name);
        if (!c) {
            out.error = c.error();
            return out;
        }
        Result<T> r = work(*c);
        if (r)
            out.value = std::move(r).value();
        else
            out.error = r.error();
        return out;
    }));
}

} // namespace OncePay
