#pragma once

// Time as UTC epoch milliseconds. Services take a `const Clock &` so that the simulator and
// the tests can run days of callbacks, retries and lease expiries without sleeping.
// Thread contract: nowMs() is safe from any thread on both implementations.

#include <QtGlobal>

#include <atomic>

namespace OncePay {

class Clock {
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0;

    static const Clock &system();
    static qint64 systemNowMs();
};

class ManualClock final : public Clock {
public:
    explicit ManualClock(qint64 startMs)
        : m_now(startMs)
    {}
    qint64 nowMs() const override { return m_now.load(); }
    void set(qint64 ms) { m_now.store(ms); }
    void advance(qint64 ms) { m_now.fetch_add(ms); }

private:
    std::atomic<qint64> m_now;
};

} // namespace OncePay
