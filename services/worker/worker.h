#pragma once

// The worker (DESIGN.md §3, step 3): claims a batch with a lease, and for each message runs
// the CallbackProcessor and marks the message in ONE transaction — the order, the money and
// the message commit together or not at all. Errors retry with back-off; after the last
// attempt the message is dead-lettered, never dropped.
// Thread contract: a Worker belongs to the thread that owns its connection. WorkerPool runs
// several, each on its own thread with its own connection.

#include "callbackprocessor.h"
#include "config/connectionprofile.h"
#include "messagestore.h"

#include <QMap>

#include <atomic>
#include <functional>

namespace OncePay {

struct WorkerStats {
    int claimed = 0;
    int completed = 0;
    int skipped = 0;
    int failed = 0;
    int dead = 0;
    int lostLease = 0;
    int reconnects = 0; // database connection lost and re-established (WorkerPool)

    WorkerStats &operator+=(const WorkerStats &o);
    QString summary() const;
};

class Worker {
public:
    Worker(const Connection &connection, const Clock &clock, QString owner, RetryPolicy policy);

    // One claim-and-process round of at most `batch` messages.
    Result<WorkerStats> runOnce(int batch);

    const QString &owner() const { return m_owner; }

    // The policy from ops_settings, with [worker] configuration keys taking precedence.
    static Result<RetryPolicy> policyFrom(const Connection &connection,
                                          const QMap<QString, QString> &config);
    // "worker:<host>/<pid>/<n>"
    static QString makeOwnerId(int index);

private:
    void processOne(const CallbackMessage &message, WorkerStats &stats);

    const Connection &m_c;
    const Clock &m_clock;
    QString m_owner;
    RetryPolicy m_policy;
    MessageStore m_store;
    CallbackProcessor m_processor;
};

struct WorkerPoolOptions {
    int threads = 1;
    int batch = 50;
    bool once = false; // stop when no message is due
    qint64 idleSleepMs = 500;
    // While the database is unreachable a thread retries with doubling delays up to this.
    qint64 maxReconnectDelayMs = 5000;
    QMap<QString, QString> config; // [worker] section
    // Called on the worker's thread after every round that did something (audit shipping).
    std::function<void(const Connection &)> afterRound;
};

class WorkerPool {
public:
    // Blocks until `stop` becomes true (or, with `once`, until nothing is due). Each thread
    // opens its own connection to `profile`. Without `once`, a thread whose database is
    // unreachable (at start or later: a restart, a broken link) logs it, backs off and
    // reconnects, then carries on; the messages it held are claimed again when their
    // leases expire. With `once`, an unreachable database ends the run with its error.
    static Result<WorkerStats> run(const ConnectionProfile &profile, const Clock &clock,
                                   const WorkerPoolOptions &options, const std::atomic<bool> &stop);
};

} // namespace OncePay
