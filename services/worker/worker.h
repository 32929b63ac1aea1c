#pragma once

// The worker (DESIGN.md §3, step 3): claims a batch with a lease, and for each message runs
// the CallbackProcessor and marks the message in ONE transaction — the order, the money and
// the message commit together or not at all. Errors retry with back-off; after the last
// attempt the message is dead-lettered, never dropped. A message the processor holds for a
// person (Decision::Hold: a refund that must not be booked) is dead-lettered at once.
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
    // Refuses (Invalid, "bad_setting") a stored worker setting it would use that is a whole
    // number outside the range SettingsService allows, naming the key, the range, the value
    // and where to change it. One that is no whole number is still the default, with a
    // warning (OpsSettings::integer).
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
    // Called on the worker's thread with its connection (audit shipping: WorkerAuditShipping)
    // after every round that claimed messages; on rounds that claimed nothing at once when the
    // thread starts, then at most every idleAfterRoundMs — or after every round, without the
    // idle sleep, while it returned true (work left: a backlog shipped in bounded steps).
    std::function<bool(const Connection &)> afterRound;
    qint64 idleAfterRoundMs = 3000;
    // A thread whose claims fail this many times in a row drops its connection and opens a
    // new one, even though the server still answers (ping): a session the server keeps in a
    // state that fails every claim. A read-only database (reason "read_only": the old primary
    // after a failover, a standby) is reconnected at its first failed claim.
    int reconnectAfterFailedClaims = 3;
    // Test seam, unset in production: called on each pool thread, with its index (0 to
    // threads - 1), before its first connection attempt. A test holds a thread there to
    // start it late (tst_worker_rotation).
    std::function<void(int thread)> beforeFirstConnect;
};

class WorkerPool {
public:
    // Blocks until `stop` becomes true (or, with `once`, until nothing is due). Each thread
    // opens its own connection to `profile`, migrates the schema if it is older (as
    // openMigrated) and reads its policy (Worker::policyFrom). Without `once`, a thread whose
    // database is unreachable or busy (Unavailable: at start or later, a restart, a broken
    // link) logs it, backs off and reconnects, then carries on; the messages it held are
    // claimed again when their leases expire. A claim refused because the database is
    // read-only (after a failover the old primary is fenced read-only, yet answers) drops the
    // connection and opens a new one — the address may lead to the new primary by now —
    // backing off while it is still read-only; so do claims failing reconnectAfterFailedClaims
    // times in a row. A failure at start that waiting will not cure —
    // a newer schema (Newer), refused ops settings (Invalid), a file that is no database or a
    // failed migration (Internal), a missing SQL driver, a login the server refuses (wrong
    // user or password, no such database: "login_refused") while no thread of this pool has
    // connected yet — is logged as an error once, ends every thread and is returned with its
    // code and reason, the message starting "the worker cannot start: ". Once any thread of
    // the pool has connected, the credentials worked: a login the server refuses afterwards —
    // on reconnecting, or to a thread still making its first connection (credentials rotated
    // under a running worker) — is backed off and retried like an outage, logged as an error
    // ("the database server refused the login (…); check the credentials") once per outage
    // for the whole pool, until every refused thread is connected again, and at info for the
    // other failed tries; the thread works once the login is accepted. With `once`, any
    // failure at start ends the run with its error.
    static Result<WorkerStats> run(const ConnectionProfile &profile, const Clock &clock,
                                   const WorkerPoolOptions &options, const std::atomic<bool> &stop);

    // Whether a standing worker waits out this failure to start: a database that cannot be
    // reached (down, restarting, a broken link, a timeout) or is busy or full — Unavailable,
    // but not a missing SQL driver ("driver_missing") nor a login the server refuses
    // ("login_refused"). A newer schema, refused ops settings, a file that is no database, a
    // failed migration, a wrong password stay until someone fixes them (but WorkerPool::run
    // retries a refused login once a thread of its pool has connected: a rotation).
    static bool waitingCures(const Error &e);
};

} // namespace OncePay
