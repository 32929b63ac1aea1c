#include "worker.h"

#include "audit/auditoutbox.h"
#include "core/faultpoint.h"
#include "db/transaction.h"
#include "settings/opssettings.h"

#include <QCoreApplication>
#include <QSysInfo>
#include <QMutex>
#include <QThread>

#include <spdlog/spdlog.h>

namespace OncePay {

WorkerStats &WorkerStats::operator+=(const WorkerStats &o)
{
    claimed += o.claimed;
    completed += o.completed;
    skipped += o.skipped;
    failed += o.failed;
    dead += o.dead;
    lostLease += o.lostLease;
    return *this;
}

QString WorkerStats::summary() const
{
    return QStringLiteral("claimed %1, completed %2, skipped %3, failed %4, dead %5, lost lease %6")
        .arg(claimed)
        .arg(completed)
        .arg(skipped)
        .arg(failed)
        .arg(dead)
        .arg(lostLease);
}

Worker::Worker(const Connection &connection, const Clock &clock, QString owner, RetryPolicy policy)
    : m_c(connection)
    , m_clock(clock)
    , m_owner(std::move(owner))
    , m_policy(policy)
    , m_store(connection, clock)
    , m_processor(connection, clock)
{}

QString Worker::makeOwnerId(int index)
{
    return QStringLiteral("worker:%1/%2/%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(index);
}

Result<RetryPolicy> Worker::policyFrom(const Connection &connection,
                                       const QMap<QString, QString> &config)
{
    auto settings = OpsSettings::load(connection);
    if (!settings)
        return settings.error();
    RetryPolicy p;
    auto pick = [&](const char *configKey, const char *settingKey, qint64 fallback) {
        bool ok = false;
        const qint64 v = config.value(QLatin1String(configKey)).toLongLong(&ok);
        return ok && v > 0 ? v : settings->integer(QLatin1String(settingKey), fallback);
    };
    p.maxAttempts = int(pick("max_attempts", "worker.max_attempts", p.maxAttempts));
    p.leaseMs = pick("lease_seconds", "worker.lease_seconds", p.leaseMs / 1000) * 1000;
    p.backoffBaseMs = pick("backoff_base_ms", "worker.backoff_base_ms", p.backoffBaseMs);
    p.backoffMaxMs = pick("backoff_max_ms", "worker.backoff_max_ms", p.backoffMaxMs);
    return p;
}

Result<WorkerStats> Worker::runOnce(int batch)
{
    auto claimed = m_store.claim(m_owner, batch, m_policy.leaseMs);
    if (!claimed)
        return claimed.error();
    WorkerStats stats;
    stats.claimed = int(claimed->size());
    if (!claimed->isEmpty())
        FaultPoint::hit("worker.after_claim");
    for (const CallbackMessage &m : std::as_const(*claimed))
        processOne(m, stats);
    return stats;
}

void Worker::processOne(const CallbackMessage &m, WorkerStats &stats)
{
    const Actor actor = Actor::system(m_owner);
    if (m.attempts > m_policy.maxAttempts) {
        // Claimed again after its worker died mid-processing too often: a poison message.
        auto f =
            m_store.fail(m, m_owner,
                         QStringLiteral("gave up after %1 attempts (worker lost while processing)")
                             .arg(m.attempts - 1),
                         m_policy);
        if (f && *f == u"dead")
            ++stats.dead;
        return;
    }

    Decision decision;
    auto done = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<Decision> {
        auto owned = m_store.stillOwned(m.id, m_owner);
        if (!owned)
            return owned.error();
        if (!*owned)
            return makeError(ErrorCode::Conflict, QStringLiteral("lease lost"),
                             QStringLiteral("lost_lease"));
        auto d = m_processor.process(m, actor);
        if (!d)
            return d.error();
        if (d->kind == Decision::Retry)
            return makeError(ErrorCode::Conflict, d->reason, QStringLiteral("retry"));
        const QString status = d->kind == Decision::Completed ? QStringLiteral("completed")
                                                              : QStringLiteral("skipped");
        if (auto f = m_store.finish(m.id, status, d->reason); !f)
            return f.error();
        AuditEvent e;
        e.actor = m_owner;
        e.actorRole = QStringLiteral("system");
        e.action = QStringLiteral("callback.") + status;
        e.entityKind = QStringLiteral("callback");
        e.entityId = m.callbackId;
        e.orderId = m.orderRef;
        e.callbackId = m.callbackId;
        e.after = {{QStringLiteral("status"), status},
                   {QStringLiteral("kind"), callbackKindName(m.kind)},
                   {QStringLiteral("attempt"), m.attempts}};
        e.reason = d->reason;
        if (auto a = AuditOutbox::record(m_c.db(), e, m_clock); !a)
            return a.error();
        FaultPoint::hit("worker.before_commit");
        return *d;
    });
    if (done) {
        FaultPoint::hit("worker.after_commit");
        ++(done->kind == Decision::Completed ? stats.completed : stats.skipped);
        spdlog::debug("message {} {}: {}", m.callbackId.toStdString(),
                      done->kind == Decision::Completed ? "completed" : "skipped",
                      done->reason.toStdString());
        return;
    }
    const Error &err = done.error();
    if (err.reason == u"lost_lease") {
        ++stats.lostLease;
        spdlog::warn("message {}: lease lost to another worker; leaving it",
                     m.callbackId.toStdString());
        return;
    }
    const bool infrastructure = err.code == ErrorCode::Unavailable;
    auto f = m_store.fail(m, m_owner, err.message, m_policy, !infrastructure);
    if (!f) {
        // Could not even record the failure (database gone): the lease will expire and the
        // message will be claimed again. Nothing is lost.
        spdlog::error("message {}: {}; could not record the failure: {}",
                      m.callbackId.toStdString(), err.message.toStdString(),
                      f.error().message.toStdString());
        ++stats.failed;
        return;
    }
    ++(*f == u"dead" ? stats.dead : stats.failed);
    if (err.reason != u"retry")
        spdlog::warn("message {} failed (attempt {}): {}", m.callbackId.toStdString(), m.attempts,
                     err.message.toStdString());
}

Result<WorkerStats> WorkerPool::run(const ConnectionProfile &profile, const Clock &clock,
                                    const WorkerPoolOptions &options, const std::atomic<bool> &stop)
{
    QMutex mutex;
    WorkerStats total;
    std::optional<Error> firstError;
    QList<QThread *> threads;
    for (int i = 0; i < std::max(1, options.threads); ++i) {
        threads << QThread::create([&, i] {
            auto c = Connection::open(profile, QStringLiteral("worker%1").arg(i));
            Result<RetryPolicy> policy =
                c ? Worker::policyFrom(*c, options.config) : Result<RetryPolicy>(c.error());
            if (!policy) {
                QMutexLocker lock(&mutex);
                if (!firstError)
                    firstError = policy.error();
                return;
            }
            Worker worker(*c, clock, Worker::makeOwnerId(i), *policy);
            WorkerStats mine;
            while (!stop.load()) {
                auto round = worker.runOnce(options.batch);
                if (!round) {
                    spdlog::warn("{}: claim failed: {}", worker.owner().toStdString(),
                                 round.error().message.toStdString());
                    if (options.once) {
                        QMutexLocker lock(&mutex);
                        if (!firstError)
                            firstError = round.error();
                        break;
                    }
                    QThread::msleep(quint64(options.idleSleepMs) * 2);
                    continue;
                }
                mine += *round;
                if (round->claimed > 0 && options.afterRound)
                    options.afterRound(*c);
                if (round->claimed == 0) {
                    if (options.once)
                        break;
                    QThread::msleep(quint64(options.idleSleepMs));
                }
            }
            QMutexLocker lock(&mutex);
            total += mine;
        });
        threads.last()->start();
    }
    for (QThread *t : threads) {
        t->wait();
        delete t;
    }
    if (firstError && total.claimed == 0)
        return *firstError;
    return total;
}

} // namespace OncePay
