#pragma once

// The simulator's world: orders with their stories, and a time-ordered queue of what the
// platform, the channels and the infrastructure do next. Internal to services/simulator.
// Thread contract: one thread.

#include "channelemitter.h"
#include "db/connection.h"
#include "simulationoptions.h"
#include "simulator.h"

#include <QList>
#include <QString>

#include <map>
#include <random>

namespace OncePay::Sim {

enum class Story {
    Normal,
    Abandoned,
    Cancelled,
    DeclineThenRetry,
    Refunded,
    FailureAfterSuccess,
    Mismatch
};

struct Attempt {
    QString requestId;
    QString txnId;
    bool declines = false;
    bool lateStale = false; // its success arrives after the rollback
};

struct SimOrder {
    QString id;
    QString channel;
    QString currency;
    qint64 amountMinor = 0;
    Story story = Story::Normal;
    bool refundFirst = false;
    QList<Attempt> attempts;
    qint64 createdAt = 0;
    int payRetries = 0;
    // What the invariants expect at the end.
    QString expectedState;
    qint64 expectedLedger = 0;
};

enum class EventType { Create, Pay, Cancel, Deliver, RollbackAfterFailure, WorkerCrash, Poison };

struct Event {
    EventType type = EventType::Create;
    int order = -1;
    int attempt = 0;
    EmittedKind kind = EmittedKind::Succeeded;
    quint64 serial = 0; // channel event identity: copies share it
    bool copy = false;  // a duplicate or a channel retry of an earlier delivery
    bool forged = false;
    bool stale = false;
    qint64 amountOverride = 0;
};

class Rng {
public:
    explicit Rng(quint64 seed)
        : m_engine(seed)
    {}
    double unit() { return double(m_engine() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return unit() < p; }
    qint64 range(qint64 lo, qint64 hi) { return lo + qint64(m_engine() % quint64(hi - lo + 1)); }

private:
    std::mt19937_64 m_engine;
};

class Timeline {
public:
    void at(qint64 when, Event e) { m_events.emplace(std::pair{when, m_seq++}, e); }
    bool empty() const { return m_events.empty(); }
    qint64 nextTime() const { return m_events.begin()->first.first; }
    std::pair<qint64, Event> pop()
    {
        auto it = m_events.begin();
        auto out = std::pair{it->first.first, it->second};
        m_events.erase(it);
        return out;
    }

private:
    std::map<std::pair<qint64, quint64>, Event> m_events;
    quint64 m_seq = 0;
};

// Channel retry schedules as the channels document them (offsets from the first delivery).
QList<qint64> retryScheduleMs(const QString &channel);

// Reads the outcome back from the database: counts for the summary, and every invariant
// (final state and ledger per order, one credit per payment, effects once) into
// summary.invariantFailures.
void checkInvariants(const Connection &orders, const QList<SimOrder> &world,
                     SimulationSummary &summary);

// Plans every order's story and first events.
QList<SimOrder> planOrders(const SimulationOptions &options, const ChannelEmitter &emitter,
                           Rng &rng, Timeline &timeline);

} // namespace OncePay::Sim
