#include "worker.h"

#include "audit/auditoutbox.h"
#include "core/faultpoint.h"
#include "db/migrator.h"
#include "db/transaction.h"
#include "settings/opssettings.h"
#include "settings/settingsservice.h"

#include <QCoreApplication>
#include <QMutex>
#include <QSysInfo>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

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
    reconnects += o.reconnects;
    return *this;
}

QString WorkerStats::summary() const
{
    QString s =
        QStringLiteral("claimed %1, completed %2, skipped %3, failed %4, dead %5, lost lease %6")
            .arg(claimed)
            .arg(completed)
            .arg(skipped)
            .arg(failed)
            .arg(dead)
            .arg(lostLease);
    if (reconnects > 0)
        s += QStringLiteral(", reconnected %1 time(s)").arg(reconnects);
    return s;
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
    auto fromConfig = [&](const char *configKey) {
        bool ok = false;
        const qint64 v = config.value(QLatin1String(configKey)).toLongLong(&ok);
        return ok && v > 0 ? std::optional<qint64>(v) : std::nullopt;
    };
    // A stored whole number outside the range the settings service allows was written around
    // it (max_attempts 0 would dead-letter every message at its first failure): refused, not
    // used. What is no whole number at all falls back to the default (OpsSettings::integer).
    const std::pair<const char *, const char *> keys[] = {
        {"max_attempts", "worker.max_attempts"},
        {"lease_seconds", "worker.lease_seconds"},
        {"backoff_base_ms", "worker.backoff_base_ms"},
        {"backoff_max_ms", "worker.backoff_max_ms"}};
    for (const auto &[configKey, settingKey] : keys) {
        const QString key = QLatin1String(settingKey);
        const auto stored = settings->all().constFind(key);
        if (fromConfig(configKey) || stored == settings->all().cend())
            continue;
        bool whole = false;
        const qint64 v = stored->trimmed().toLongLong(&whole);
        for (const SettingSpec &spec : SettingsService::specs()) {
            if (whole && spec.key == key && (v < spec.min || v > spec.max))
                return makeError(
                    ErrorCode::Invalid,
                    QStringLiteral("ops setting %1 is not a whole number from %2 to %3: '%4';"
                                   " change it in the console's Administration page (or set"
                                   " [worker] %5 in the configuration file)")
                        .arg(key)
                        .arg(spec.min)
                        .arg(spec.max)
                        .arg(stored->left(40))
                        .arg(QLatin1String(configKey)),
                    QStringLiteral("bad_setting"));
        }
    }
    auto pick = [&](const char *configKey, const char *settingKey, qint64 fallback) {
        const auto v = fromConfig(configKey);
        return v ? *v : settings->integer(QLatin1String(settingKey), fallback);
    };
    p.maxAttempts = int(pick("max_attempts", "worker.max_attempts", p.maxAttempts));
    p.leaseMs = pick("lease_seconds", "worker.lease_seconds", p.leaseMs / 1000) * 1000;
    p.backoffBaseMs = pick("backoff_base_ms", "worker.backoff_base_ms", p.backoffBaseMs);
    p.backoffMaxMs = pick("backoff_max_ms", "worker.backoff_max_ms", p.backoffMaxMs);
    // AppConfig::load refuses a [worker] section with both out of order, and the settings
    // service ops_settings with both; one from each can still cross. Every wait is then the
    // maximum either way (min(max, base * 2^n)); the base is clamped to it and the log says so.
    if (p.backoffBaseMs > p.backoffMaxMs) {
        auto from = [&](const char *configKey, const char *settingKey) {
            return fromConfig(configKey) ? fmt::format("[worker] {}", configKey)
                                         : fmt::format("ops setting {}", settingKey);
        };
        spdlog::warn("worker back-off base {} ms ({}) is above its maximum {} ms ({}); every retry"
                     " waits the maximum: using {} ms as the base",
                     p.backoffBaseMs, from("backoff_base_ms", "worker.backoff_base_ms"),
                     p.backoffMaxMs, from("backoff_max_ms", "worker.backoff_max_ms"),
                     p.backoffMaxMs);
        p.backoffBaseMs = p.backoffMaxMs;
    }
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
        if (d->kind == Decision::Hold) // nothing written: dead-lettered below, for a person
            return makeError(ErrorCode::Conflict, d->reason, QStringLiteral("hold"));
        const QString status = d->kind == Decision::Completed ? QStringLiteral("completed")
                                                              : QStringLiteral("skipped");
        if (auto f = m_store.finish(m.id, status, d->reason, d->code); !f)
            return f.error();
        AuditEvent e;
        e.actor = m_owner;
        e.actorRole = QStringLiteral("system");
        e.action = QStringLiteral("callback.") + status;
        e.entityKind = QStringLiteral("callback");
        e.entityId = m.callbackId;
        e.orderId = d->orderId.isEmpty() ? m.orderRef : d->orderId;
        e.callbackId = m.callbackId;
        e.after = {{QStringLiteral("status"), status},
                   {QStringLiteral("kind"), callbackKindName(m.kind)},
                   {QStringLiteral("attempt"), m.attempts}};
        e.reason = d->reason;
        if (auto a = AuditOutbox::record(m_c, e, m_clock); !a)
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
    const bool held = err.reason == u"hold";
    auto f = m_store.fail(m, m_owner, err.message, m_policy, !infrastructure, held);
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
    if (err.reason != u"retry" && !held)
        spdlog::warn("message {} failed (attempt {}): {}", m.callbackId.toStdString(), m.attempts,
                     err.message.toStdString());
}

namespace {

// Sleeps up to `ms`, waking early when `stop` or `ended` is set.
void sleepUnlessStopped(qint64 ms, const std::atomic<bool> &stop, const std::atomic<bool> &ended)
{
    for (qint64 slept = 0; slept < ms && !stop.load() && !ended.load(); slept += 50)
        QThread::msleep(quint64(std::min<qint64>(50, ms - slept)));
}

} // namespace

bool WorkerPool::waitingCures(const Error &e)
{
    // A login the server refuses (Connection::isRefusedLogin) is not cured by waiting; one
    // it does not recognise (a PostgreSQL server answering in another language) stays
    // Unavailable without a reason, and is waited for like an outage.
    return e.code == ErrorCode::Unavailable && e.reason != u"driver_missing" &&
           e.reason != u"login_refused";
}

Result<WorkerStats> WorkerPool::run(const ConnectionProfile &profile, const Clock &clock,
                                    const WorkerPoolOptions &options, const std::atomic<bool> &stop)
{
    QMutex mutex;
    WorkerStats total;
    std::optional<Error> firstError;
    // Set when a thread meets a failure that waiting will not cure: every thread then ends
    // and the run returns that error, whatever was done before.
    std::atomic<bool> ended{false};
    auto stopping = [&] { return stop.load() || ended.load(); };
    // std::thread, not QThread: join() returns only once the thread has fully ended, after its
    // thread_local objects (afterRound keeps its audit connection in one) are destroyed —
    // QThread::wait() may return before that, and the process could then tear down the SQL
    // driver under a connection still being closed.
    std::vector<std::thread> threads;
    // Back-off while the database is unreachable: doubling from the first retry up to a cap
    // short enough that a worker is back within seconds of the database.
    const qint64 firstRetryMs = std::clamp<qint64>(options.idleSleepMs, 100, 1000);
    const qint64 maxRetryMs = std::max<qint64>(firstRetryMs, options.maxReconnectDelayMs);
    // Set once a thread of this pool has connected (opened, migrated, read its policy): the
    // credentials worked then, so a login refused afterwards — to a reconnect, or to a thread
    // still making its first connection — is a rotation in progress, retried, not the end.
    std::atomic<bool> anyConnected{false};
    // Threads whose connection attempts the server refuses the login to, in their current
    // outage: the first of them says so at error level, once for the pool, until they are all
    // connected again.
    std::atomic<int> refusedThreads{0};
    // The end of the last migration pause the pool has said; a stop before it is not said again.
    std::atomic<qint64> pauseSaid{0};
    for (int i = 0; i < std::max(1, options.threads); ++i) {
        threads.emplace_back([&, i] {
            const QString owner = Worker::makeOwnerId(i);
            auto giveUp = [&](const Error &e) {
                QMutexLocker lock(&mutex);
                if (!firstError)
                    firstError = e;
            };
            bool refused = false; // counted in refusedThreads until this thread connects
            auto clearRefused = [&] {
                if (std::exchange(refused, false))
                    refusedThreads.fetch_sub(1);
            };
            // A failed try to connect, retried in `nextMs` at most. A refused login is said
            // loudly, once per outage for the pool; the message names the user, never the
            // password.
            auto sayRetry = [&](const Error &e, qint64 nextMs) {
                bool sayRefused = false;
                if (e.reason == u"login_refused" && !refused) {
                    refused = true;
                    sayRefused = refusedThreads.fetch_add(1) == 0;
                }
                if (sayRefused)
                    spdlog::error("{}: the database server refused the login ({}); check "
                                  "the credentials — still retrying every {} ms at most",
                                  owner.toStdString(), e.message.toStdString(), maxRetryMs);
                else
                    spdlog::info("{}: still no database ({}); next try in {} ms",
                                 owner.toStdString(), e.message.toStdString(), nextMs);
            };
            if (options.beforeFirstConnect)
                options.beforeFirstConnect(i);
            // Connect, bring the schema up to date (a newer one is refused) and read the
            // policy. With --once a failure ends the run; a standing worker waits for a
            // database that cannot be reached, and ends the run on anything else — but a
            // refused login only while no thread of the pool has connected yet.
            std::optional<Connection> c;
            std::optional<RetryPolicy> policy;
            qint64 delay = firstRetryMs;
            bool retried = false;
            while (!stopping()) {
                // Once the server has accepted the login — before migrating, which takes a
                // while on a first start — a refused one is a rotation. Set under the mutex a
                // refused sibling decides under (below).
                auto opened = openMigrated(profile, QStringLiteral("worker%1").arg(i), [&] {
                    QMutexLocker lock(&mutex);
                    anyConnected.store(true);
                });
                Result<RetryPolicy> p = opened ? Worker::policyFrom(*opened, options.config)
                                               : Result<RetryPolicy>(opened.error());
                if (p) {
                    c.emplace(std::move(opened).value());
                    policy = *p;
                    break;
                }
                if (options.once)
                    return giveUp(p.error());
                const bool refusedLogin = p.error().reason == u"login_refused";
                bool endsThePool = false;
                if (!waitingCures(p.error())) {
                    // A refused login while another thread got in with these credentials is
                    // a rotation, retried as a refused reconnect is; decided under the mutex
                    // so that a sibling connecting at this moment counts.
                    QMutexLocker lock(&mutex);
                    if (!refusedLogin || !anyConnected.load()) {
                        endsThePool = true;
                        Error e = p.error();
                        e.message = QStringLiteral("the worker cannot start: %1 (waiting will"
                                                   " not cure this; the worker stopped)")
                                        .arg(e.message);
                        if (!ended.exchange(true)) { // said once, whichever thread met it first
                            spdlog::error("{}: {}", owner.toStdString(), e.message.toStdString());
                            firstError = e;
                        }
                    }
                }
                if (endsThePool)
                    break;
                // A migration of this database stopped on a lock another session holds: this
                // process leaves it alone until the pause ends (Migrator::lockWaitPause), and
                // a retry meanwhile is refused — unless the database was migrated elsewhere
                // (`oncepay db migrate`), when it goes through. So the threads keep their
                // back-off, and the pause is said once for the pool, not at every refusal.
                const auto until = p.error().reason == u"migration_lock_wait"
                                       ? Migrator::lockWaitPausedUntilMs(profile)
                                       : std::nullopt;
                if (until) {
                    // Said by the first thread to meet it: not again for a stop within the pause
                    // already said (another thread whose migration waited alongside stops a
                    // moment later, with a pause ending a moment later).
                    qint64 said = pauseSaid.load();
                    const qint64 now = Clock::systemNowMs();
                    while (said <= now && !pauseSaid.compare_exchange_weak(said, *until)) {
                    }
                    if (said <= now)
                        spdlog::warn("{}: {}; the worker keeps retrying, quietly until then",
                                     owner.toStdString(), p.error().message.toStdString());
                } else if (refusedLogin) {
                    sayRetry(p.error(), delay);
                } else {
                    spdlog::warn("{}: database unavailable at start: {}; retrying in {} ms",
                                 owner.toStdString(), p.error().message.toStdString(), delay);
                }
                retried = true;
                sleepUnlessStopped(delay, stop, ended);
                delay = std::min(maxRetryMs, delay * 2);
            }
            clearRefused();
            if (!c)
                return; // stopped before the database came, or the run ended
            if (retried)
                spdlog::warn("{}: connected to the database; starting", owner.toStdString());
            Worker worker(*c, clock, owner, *policy);
            WorkerStats mine;
            delay = firstRetryMs;
            bool down = false; // in an outage: from a failed claim to the next good round
            // What the outage was last said to be: said again only when that changes (a lost
            // link, then a server that is still read-only when reached again).
            enum class Outage { None, Lost, ReadOnly, Failing } said = Outage::None;
            int failedClaims = 0; // in a row, on this connection
            const int reconnectAfter = std::max(1, options.reconnectAfterFailedClaims);
            bool hookWantsMore = false;
            std::optional<std::chrono::steady_clock::time_point> hookCalled;
            while (!stopping()) {
                auto round = worker.runOnce(options.batch);
                if (!round) {
                    // The engine's login may not do what a claim needs (the grants of this
                    // release not applied after an upgrade: a table it may not write). No
                    // retry cures it, and retrying in silence would hold every callback back:
                    // said once, loudly, and the pool stops (exit 3, not restarted).
                    if (const Error &e = round.error();
                        e.code == ErrorCode::Forbidden && e.reason == u"permission_denied") {
                        Error refusal = e;
                        refusal.reason = QStringLiteral("missing_privilege");
                        refusal.message =
                            QStringLiteral("the database login may not do what the worker needs"
                                           " (%1); apply this release's grants"
                                           " (packaging/sql/*-orders-grants.sql) — the worker"
                                           " stopped")
                                .arg(e.message);
                        spdlog::error("{}: {}", owner.toStdString(), refusal.message.toStdString());
                        giveUp(refusal);
                        break;
                    }
                    if (options.once) {
                        giveUp(round.error());
                        break;
                    }
                    const Error &e = round.error();
                    ++failedClaims;
                    // A read-only database answers SELECT 1 but will never take a claim on
                    // this connection (the fenced old primary of a failover): reconnect, as
                    // for a lost link, and as for claims that keep failing on a link that
                    // answers.
                    const bool readOnly = e.reason == u"read_only";
                    const bool lost = !readOnly && !c->ping();
                    if (!readOnly && !lost && failedClaims < reconnectAfter) {
                        // Busy, or a fault that is not about the link: wait and retry.
                        spdlog::warn("{}: claim failed: {}", owner.toStdString(),
                                     e.message.toStdString());
                        sleepUnlessStopped(options.idleSleepMs * 2, stop, ended);
                        continue;
                    }
                    // Messages this worker held stay leased to it until their lease expires;
                    // then any worker claims them again, so nothing is lost or done twice.
                    const Outage outage = readOnly ? Outage::ReadOnly
                                          : lost   ? Outage::Lost
                                                   : Outage::Failing;
                    if (std::exchange(said, outage) != outage) {
                        if (readOnly)
                            spdlog::warn("{}: the database refuses to write, it is read-only (a"
                                         " failover, a fenced primary, a standby?): {};"
                                         " reconnecting",
                                         owner.toStdString(), e.message.toStdString());
                        else if (lost)
                            spdlog::warn("{}: database connection lost: {}; reconnecting",
                                         owner.toStdString(), e.message.toStdString());
                        else
                            spdlog::warn("{}: {} claims failed in a row on a connection that"
                                         " answers: {}; reconnecting",
                                         owner.toStdString(), failedClaims,
                                         e.message.toStdString());
                    }
                    down = true;
                    sleepUnlessStopped(delay, stop, ended);
                    if (stopping())
                        break;
                    // Doubling until a round succeeds: a server still read-only after the
                    // reconnect is tried again less and less often, up to maxRetryMs.
                    const qint64 next = std::min(maxRetryMs, delay * 2);
                    if (auto r = c->reconnect(); !r) {
                        // A refused login mid-run (credentials rotated on the server, the
                        // worker's not yet) is not waited out by itself, but stopping would
                        // need a restart once it is fixed: keep trying, and say it loudly.
                        sayRetry(r.error(), next);
                        delay = next;
                        continue;
                    }
                    spdlog::warn("{}: reconnected to the database; continuing",
                                 owner.toStdString());
                    ++mine.reconnects;
                    failedClaims = 0;
                    clearRefused();
                    delay = next;
                    continue;
                }
                if (down) {
                    down = false;
                    said = Outage::None;
                    delay = firstRetryMs;
                }
                failedClaims = 0;
                mine += *round;
                // After a busy round; when idle, at once on start, then every
                // idleAfterRoundMs; after every round while the hook has work left.
                const auto now = std::chrono::steady_clock::now();
                if (options.afterRound &&
                    (round->claimed > 0 || hookWantsMore || !hookCalled ||
                     now - *hookCalled >= std::chrono::milliseconds(options.idleAfterRoundMs))) {
                    hookCalled = now;
                    hookWantsMore = options.afterRound(*c);
                }
                if (round->claimed == 0) {
                    if (options.once)
                        break;
                    if (!hookWantsMore)
                        sleepUnlessStopped(options.idleSleepMs, stop, ended);
                }
            }
            clearRefused();
            QMutexLocker lock(&mutex);
            total += mine;
        });
    }
    for (std::thread &t : threads)
        t.join();
    if (firstError && (ended.load() || total.claimed == 0))
        return *firstError;
    return total;
}

} // namespace OncePay
