#pragma once

// Group commit for the gateway (issue 7): verified callbacks from concurrent requests wait a
// bounded time (batch_wait_ms, counted from the oldest one) or until max_batch are queued,
// then one transaction stores them all (IngestService::storeBatch) — one fsync for many
// requests — and each request is told the outcome of ITS row only after the commit.
// A failed batch is retried item by item on a fresh connection, so one bad row cannot fail
// its neighbours and a connection broken by a database restart is replaced at once; a row
// whose commit landed before the connection broke comes back as "already received".
// Thread contract: submit() and stop() from any thread; `done` callbacks run on the
// committer's own thread, which owns its own connection (STYLE.md rule 3).

#include "channels/channelregistry.h"
#include "core/clock.h"
#include "db/connection.h"
#include "gatewaymetrics.h"
#include "ingest/ingestservice.h"

#include <QThread>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace OncePay {

struct GroupCommitOptions {
    int batchWaitMs = 2;  // how long the oldest queued callback waits for companions
    int maxBatch = 256;   // callbacks per transaction at most
    int maxQueue = 10000; // beyond this submit() refuses (the request gets 503)
};

struct CommitRequest {
    MessageRow row; // built on the submitting thread (IngestService::messageRow)
    std::function<void(const Result<IngestOutcome> &)> done;
};

class GroupCommitter {
public:
    GroupCommitter(ConnectionProfile profile, const ChannelRegistry &channels, const Clock &clock,
                   GroupCommitOptions options, GatewayMetrics &metrics);
    ~GroupCommitter();
    GroupCommitter(const GroupCommitter &) = delete;
    GroupCommitter &operator=(const GroupCommitter &) = delete;

    void start();
    // False when the queue is full or the committer is stopping; `done` is then not called.
    bool submit(CommitRequest request);
    // Commits everything queued, then ends the thread.
    void stop();
    int depth() const;

private:
    using Clock_ = std::chrono::steady_clock;
    struct Queued {
        CommitRequest request;
        Clock_::time_point enqueued;
    };

    void run();
    void commit(std::vector<Queued> &batch);
    QList<Result<IngestOutcome>> store(const std::vector<Queued> &batch, size_t from, size_t count);

    ConnectionProfile m_profile;
    const ChannelRegistry &m_channels;
    const Clock &m_clock;
    GroupCommitOptions m_options;
    GatewayMetrics &m_metrics;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Queued> m_queue;
    bool m_stopping = false;
    QThread *m_thread = nullptr;
    void dropConnection();

    std::optional<Connection> m_connection;  // committer thread only
    std::unique_ptr<IngestService> m_ingest; // over m_connection; keeps its prepared INSERT
};

} // namespace OncePay
