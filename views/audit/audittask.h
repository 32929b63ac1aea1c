#pragma once

// Runs one long audit job (verify the chain, export) on a pool thread with progress and
// cancellation: the task opens its own audit and orders connections there (schema checked,
// never migrated), gets a progress function that reports (done, total) to `progress` on the
// GUI thread (queued) and answers false once cancel() was asked for, and hands a plain value
// to `done` on the GUI thread.
// Thread contract: call and cancel on the GUI thread; `work` runs on a pool thread and must
// only touch what it captured by value; `progress` and `done` run on the GUI thread while
// `context` lives. `done` also learns which database could not be opened (None when both
// opened and any error came from `work`), so the page can say which one an error is about.

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

// The database a task could not open (its error is about that one), or None.
enum class AuditTaskDatabase { None, Audit, Orders };

template <typename T, typename Work, typename Progress, typename Done>
AuditTaskHandle runAuditTask(QObject *context, const ConnectionProfile &audit,
                             const ConnectionProfile &orders, const QString &purpose, Work work,
                             Progress progress, Done done)
{
    const QString name = Internal::taskConnectionName(purpose);
    AuditTaskHandle handle;
    auto cancel = handle.m_cancel;
    QPointer<QObject> guard(context);
    // Written on the pool thread before the outcome is posted, read on the GUI thread after.
    auto failed = std::make_shared<std::atomic<AuditTaskDatabase>>(AuditTaskDatabase::None);
    Internal::runOnConsolePool<T>(
        context,
        [audit, orders, name, purpose, work, progress, cancel, guard, failed]() -> TaskOutcome<T> {
            auto a = InvestigationDb::open(audit, name);
            if (!a) {
                failed->store(AuditTaskDatabase::Audit);
                return Internal::outcomeOf<T>(a.error());
            }
            auto o = InvestigationDb::open(orders, name + QStringLiteral("-orders"));
            if (!o) {
                failed->store(AuditTaskDatabase::Orders);
                return Internal::outcomeOf<T>(o.error());
            }
            const AuditTaskProgress report = [progress, cancel, guard](qint64 d, qint64 t) {
                if (QObject *ctx = guard.data())
                    QMetaObject::invokeMethod(
                        ctx, [progress, d, t] { progress(d, t); }, Qt::QueuedConnection);
                return !cancel->load();
            };
            // An audit server that stops answering ends the job (serversilence.h), not the pool.
            // The orders connection is not watched: a long verification leaves it idle, which
            // the watch may take for a wait.
            ServerSilenceWatch::Scope watched(
                *a, QStringLiteral("console %1 of the audit database").arg(purpose));
            return Internal::outcomeOf<T>(work(*a, *o, report));
        },
        [done, failed](const Result<T> &r) { done(r, failed->load()); });
    return handle;
}

} // namespace OncePay
