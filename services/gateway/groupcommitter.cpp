#include "groupcommitter.h"

#include "db/migrator.h"

#include <spdlog/spdlog.h>

namespace OncePay {

GroupCommitter::GroupCommitter(ConnectionProfile profile, const ChannelRegistry &channels,
                               const Clock &clock, GroupCommitOptions options,
                               GatewayMetrics &metrics)
    : m_profile(std::move(profile))
    , m_channels(channels)
    , m_clock(clock)
    , m_options(options)
    , m_metrics(metrics)
{}

GroupCommitter::~GroupCommitter()
{
    stop();
}

void GroupCommitter::start()
{
    if (m_thread)
        return;
    m_thread = QThread::create([this] { run(); });
    m_thread->setObjectName(QStringLiteral("gateway-committer"));
    m_thread->start();
}

bool GroupCommitter::submit(CommitRequest request)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping || int(m_queue.size()) >= m_options.maxQueue)
            return false;
        m_queue.push_back({std::move(request), Clock_::now()});
    }
    m_wake.notify_one();
    return true;
}

void GroupCommitter::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
}

int GroupCommitter::depth() const
{
    std::lock_guard lock(m_mutex);
    return int(m_queue.size());
}

void GroupCommitter::run()
{
    const auto wait = std::chrono::milliseconds(std::max(0, m_options.batchWaitMs));
    const size_t maxBatch = size_t(std::max(1, m_options.maxBatch));
    for (;;) {
        std::vector<Queued> batch;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                break; // stopping and drained
            // Bounded wait for companions, counted from the oldest: callbacks that queued up
            // during the previous commit do not wait again.
            const auto deadline = m_queue.front().enqueued + wait;
            m_wake.wait_until(lock, deadline,
                              [&] { return m_stopping || m_queue.size() >= maxBatch; });
            const size_t n = std::min(maxBatch, m_queue.size());
            batch.reserve(n);
            for (size_t i = 0; i < n; ++i) {
                batch.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
        }
        commit(batch);
    }
    dropConnection(); // closed on the thread that opened it
}

QList<Result<IngestOutcome>> GroupCommitter::store(const std::vector<Queued> &batch, size_t from,
                                                   size_t count)
{
    if (!m_connection) {
        // Migrated on (re)connect, so a gateway started while the database was down
        // still finds its schema when the database comes back.
        auto c = openMigrated(m_profile, QStringLiteral("gateway-committer"));
        if (!c) {
            QList<Result<IngestOutcome>> failed;
            for (size_t i = 0; i < count; ++i)
                failed << c.error();
            return failed;
        }
        m_connection.emplace(std::move(c).value());
        m_ingest = std::make_unique<IngestService>(*m_connection, m_channels, m_clock);
    }
    QList<MessageRow> rows;
    rows.reserve(qsizetype(count));
    for (size_t i = from; i < from + count; ++i)
        rows << batch[i].request.row;
    return m_ingest->storeBatch(rows);
}

void GroupCommitter::dropConnection()
{
    m_ingest.reset(); // its prepared statement first, then the connection under it
    m_connection.reset();
}

void GroupCommitter::commit(std::vector<Queued> &batch)
{
    const auto started = Clock_::now();
    const bool hadConnection = m_connection.has_value();
    QList<Result<IngestOutcome>> results = store(batch, 0, batch.size());
    const bool ok = !results.isEmpty() && results.first().ok();
    // Could not even connect: the database is down; retrying item by item would only wait
    // for the connect timeout again.
    const bool unreachable = !ok && !hadConnection && !m_connection;
    if (ok) {
        const double seconds = std::chrono::duration<double>(Clock_::now() - started).count();
        m_metrics.batchCommitted(int(batch.size()), seconds);
    } else {
        m_metrics.commitFailed();
        spdlog::warn("gateway: group commit of {} callback(s) failed: {}", batch.size(),
                     results.first().error().message.toStdString());
        dropConnection();
        for (size_t i = 0; i < batch.size() && !unreachable; ++i) {
            const auto one = Clock_::now();
            QList<Result<IngestOutcome>> single = store(batch, i, 1);
            results[qsizetype(i)] = single.first();
            if (single.first().ok()) {
                m_metrics.batchCommitted(
                    1, std::chrono::duration<double>(Clock_::now() - one).count());
                continue;
            }
            dropConnection();
            if (single.first().error().code == ErrorCode::Unavailable) {
                // The database is down: do not hammer it once per item.
                for (size_t j = i + 1; j < batch.size(); ++j)
                    results[qsizetype(j)] = single.first().error();
                break;
            }
        }
    }
    for (size_t i = 0; i < batch.size(); ++i) {
        const Result<IngestOutcome> &r = results[qsizetype(i)];
        const QString &channel = batch[i].request.row.channel;
        if (r.ok() && r->status == IngestStatus::Duplicate)
            m_metrics.duplicate(channel);
        else if (r.ok())
            m_metrics.stored(channel);
        else if (r.error().code == ErrorCode::Unavailable) // answered 503 (Gateway::webhook)
            m_metrics.unavailable(channel);
        else // answered 500
            m_metrics.notStored(channel);
        batch[i].request.done(r);
    }
}

} // namespace OncePay
