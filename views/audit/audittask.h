#pragma once

// Runs one long audit job (verify the chain, export) on a pool thread with progress and
// cancellation: the task opens its own audit and orders connections there (schema checked,
// never migrated), gets a progress function that reports (done, total) to `progress` on the
// GUI thread (queued) and answers false once cancel() was asked for, and hands a plain value
// to `done` on the GUI thread.
// Thread contract: call and cancel on the GUI thread; `work` runs on a pool thread and must
// only touch what it captured by value; `progress` and `done` run on the GUI thread while
// `context` lives.

#include "common/backgroundquery.h"

#include <QPointer>

#include <atomic>
#include <memory>

namespace OncePay {

class AuditTaskHandle {
public:
    void cancel() const
    {
        if (m_cancel)
            m_cancel->store(true);
    }
    bool isCancelRequested() const { return m_cancel && m_cancel->load(); }

    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

using AuditTaskProgress = std::function<bool(qint64 done, qint64 total)>;

template <typename T, typename Work, typename Progress, typename Done>
AuditTaskHandle runAuditTask(QObject *context, const ConnectionProfile &audit,
                             const ConnectionProfile &orders, const QString &purpose, Work work,
                             Progress progress, Done done)
{
    static QAtomicInteger<quint64> counter;
    const QString name =
        QStringLiteral("console-%1-%2").arg(purpose).arg(counter.fetchAndAddRelaxed(1));
    AuditTaskHandle handle;
    auto cancel = handle.m_cancel;
    QPointer<QObject> guard(context);
    auto *watcher = new QFutureWatcher<TaskOutcome<T>>(context);
    QObject::connect(watcher, &QFutureWatcher<TaskOutcome<T>>::finished, context, [watcher, done] {
        watcher->deleteLater();
        const TaskOutcome<T> outcome = watcher->result();
        if (outcome.value)
            done(Result<T>(*outcome.value));
        else
            done(Result<T>(outcome.error));
    });
    watcher->setFuture(QtConcurrent::run(
        consoleTaskPool(),
        [audit, orders, name, work, progress, cancel, guard]() -> TaskOutcome<T> {
            TaskOutcome<T> out;
            auto a = InvestigationDb::open(audit, name);
            if (!a) {
                out.error = a.error();
                return out;
            }
            auto o = InvestigationDb::open(orders, name + QStringLiteral("-orders"));
            if (!o) {
                out.error = o.error();
                return out;
            }
            const AuditTaskProgress report = [progress, cancel, guard](qint64 d, qint64 t) {
                if (QObject *ctx = guard.data())
                    QMetaObject::invokeMethod(
                        ctx, [progress, d, t] { progress(d, t); }, Qt::QueuedConnection);
                return !cancel->load();
            };
            Result<T> r = work(*a, *o, report);
            if (r)
                out.value = std::move(r).value();
            else
                out.error = r.error();
            return out;
        }));
    return handle;
}

} // namespace OncePay
