#pragma once

// What the worker pool tests share (tst_worker_rotation, tst_worker_failover): a pool running on
// a thread of its own, and a paid order whose success callback is delivered.
// Thread contract: RunningPool is made and ended on the test's thread; the pool runs on its own.

#include "enginefixture.h"
#include "worker/worker.h"

#include <atomic>
#include <optional>
#include <thread>

namespace OncePay::Test {

// WorkerPool::run on a thread of its own until `stop` is set — at the latest when this goes out
// of scope: declare it after everything its hooks use and after the account it signs in with.
class RunningPool {
public:
    RunningPool(const ConnectionProfile &profile, const WorkerPoolOptions &options,
                std::atomic<bool> &stop)
        : m_stop(stop)
        , m_thread([this, profile, options] {
            m_outcome.emplace(WorkerPool::run(profile, Clock::system(), options, m_stop));
            m_finished.store(true);
        })
    {}
    ~RunningPool() { (void)end(); }
    RunningPool(const RunningPool &) = delete;
    RunningPool &operator=(const RunningPool &) = delete;
    bool finished() const { return m_finished.load(); }
    // Stops the pool, waits for it, and what it returned.
    const Result<WorkerStats> &end()
    {
        m_stop.store(true);
        if (m_thread.joinable())
            m_thread.join();
        return *m_outcome;
    }

private:
    std::atomic<bool> &m_stop;
    std::atomic<bool> m_finished{false};
    std::optional<Result<WorkerStats>> m_outcome;
    std::thread m_thread; // last: started once the members it uses exist
};

// Order <tag>-<i> created, paid (attempt a-<i>) and its success callback delivered.
inline IngestStatus deliverPaid(EngineFixture &f, const QString &tag, qint64 base, int i)
{
    const QString id = QStringLiteral("%1-%2").arg(tag).arg(i);
    f.createOrder(id, base + i, "USD");
    f.pay(id, 1, QStringLiteral("a-%1").arg(i));
    return f.deliver(StripeEvents::paymentIntentSucceeded(f.params(
        id, QStringLiteral("a-%1").arg(i), base + i, "USD",
        QStringLiteral("evt_%1_%2").arg(tag).arg(i), QStringLiteral("pi_%1_%2").arg(tag).arg(i))));
}

} // namespace OncePay::Test
