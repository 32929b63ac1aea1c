// Ingest: the program (verify signature, parse, insert through IngestService) against raw
// prepared INSERTs of the same rows into the same table, with the same indexes, the same
// connection settings (durability) and the same duplicate handling. Every channel's
// requests are made as the channel signs and lays them out (ChannelEmitter), so each
// channel's own signature check (HMAC for Stripe/FedaPay/KakaoPay, RSA for PayPal) and
// parser are inside the measured time.

#include "benchcommon.h"
#include "gateway/groupcommitter.h"
#include "simulator/channelemitter.h"

#include <QSqlQuery>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace OncePay::Bench {

namespace {

// The fixture plus the real adapters configured with the emitter's secrets.
struct Setup {
    explicit Setup(Test::ScratchDatabases &dbs)
        : f(dbs)
        , emitter(11, dbs.tempPath())
    {
        if (auto p = emitter.prepare(); !p)
            qFatal("%s", qPrintable(p.error().message));
        AppConfig config = f.config;
        config.channels = emitter.channelSettings();
        registry = std::make_unique<ChannelRegistry>(config);
        ingest = std::make_unique<IngestService>(*f.orders, *registry, f.clock);
    }
    Test::EngineFixture f;
    ChannelEmitter emitter;
    std::unique_ptr<ChannelRegistry> registry;
    std::unique_ptr<IngestService> ingest;
};

struct Prepared {
    QList<InboundRequest> requests;
    QList<MessageRow> rows; // the rows IngestService would insert
};

Prepared prepare(Setup &s, const QString &channel, int n)
{
    Prepared p;
    const QString currency = ChannelEmitter::currencies(channel).first();
    for (int i = 0; i < n; ++i) {
        const EmittedPayment payment{channel,
                                     QStringLiteral("o-%1").arg(i),
                                     QStringLiteral("a-%1").arg(i),
                                     s.emitter.newTxnId(channel, quint64(i + 1)),
                                     {},
                                     1000 + i,
                                     currency};
        InboundRequest r =
            s.emitter.request(EmittedKind::Succeeded, payment, quint64(i + 1), s.f.clock.nowMs());
        auto cb = s.ingest->verifyAndParse(channel, r);
        if (!cb)
            qFatal("%s", qPrintable(cb.error().message));
        // Exactly the values the program binds, made before the clock starts.
        p.rows << s.ingest->messageRow(*cb, r);
        p.requests << r;
    }
    return p;
}

QString rawInsert(Dialect d)
{
    QString sql =
        QStringLiteral("INSERT INTO callback_messages (callback_id, channel, event_kind, "
                       "channel_event_type, order_ref,"
                       " attempt_ref, channel_txn_id, refund_id, amount_minor, currency, raw_body, "
                       "headers, status, attempts,"
                       " next_attempt_at, result_reason, received_at, updated_at, finished_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)");
    return sql + (d == Dialect::MySql ? QStringLiteral(" ON DUPLICATE KEY UPDATE id = id")
                                      : QStringLiteral(" ON CONFLICT (callback_id) DO NOTHING"));
}

void checkRows(Setup &s, int n, const char *who)
{
    if (s.f.count("SELECT COUNT(*) FROM callback_messages") != n)
        qFatal("%s: wrong row count", who);
}

std::pair<qint64, qint64> raw(Test::ScratchDatabases &dbs, const QString &channel, int n, int batch)
{
    Setup s(dbs);
    const Prepared p = prepare(s, channel, n);
    QSqlQuery q(s.f.orders->db());
    q.prepare(rawInsert(dbs.dialect()));
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; i += batch) {
        if (batch > 1 &&
            !Sql::exec(s.f.orders->db(),
                       dbs.dialect() == Dialect::MySql ? "START TRANSACTION" : "BEGIN"))
            qFatal("raw: BEGIN failed");
        for (int j = i; j < std::min(n, i + batch); ++j) {
            for (int k = 0; k < MessageRow::kColumns; ++k)
                q.bindValue(k, p.rows[j].values[size_t(k)]);
            if (!q.exec())
                qFatal("raw insert failed");
        }
        if (batch > 1 && !Sql::exec(s.f.orders->db(), "COMMIT"))
            qFatal("raw: COMMIT failed");
    }
    const qint64 ns = t.nsecsElapsed();
    checkRows(s, n, "raw");
    return {n, ns};
}

std::pair<qint64, qint64> program(Test::ScratchDatabases &dbs, const QString &channel, int n,
                                  int batch)
{
    Setup s(dbs);
    const Prepared p = prepare(s, channel, n);
    QElapsedTimer t;
    t.start();
    if (batch == 1) {
        for (const InboundRequest &r : p.requests)
            if (!s.ingest->ingest(channel, r))
                qFatal("ingest failed");
    } else {
        // Everything on one thread: verify + parse + build each row, then one transaction
        // per batch.
        for (int i = 0; i < n; i += batch) {
            QList<MessageRow> rows;
            for (int j = i; j < std::min(n, i + batch); ++j) {
                auto cb = s.ingest->verifyAndParse(channel, p.requests[j]);
                if (!cb)
                    qFatal("verify failed: %s", qPrintable(cb.error().message));
                rows << s.ingest->messageRow(*cb, p.requests[j]);
            }
            for (const auto &r : s.ingest->storeBatch(rows))
                if (!r)
                    qFatal("batch failed: %s", qPrintable(r.error().message));
        }
    }
    const qint64 ns = t.nsecsElapsed();
    checkRows(s, n, "program");
    return {n, ns};
}

// Batched ingest as the gateway runs it: each request is verified, parsed and made into its
// row on the thread that received it (here the bench's main thread, standing for the HTTP threads)
// and handed to the real GroupCommitter, whose own thread and connection store up to `batch`
// callbacks per transaction and report each outcome. The clock stops when the last outcome arrived.
// The committer's connection is opened (and the statement prepared) by one warm-up callback
// before the clock starts, as in a running gateway.
std::pair<qint64, qint64> gatewayPath(Test::ScratchDatabases &dbs, const QString &channel, int n,
                                      int batch)
{
    Setup s(dbs);
    const Prepared p = prepare(s, channel, n + 1);
    GatewayMetrics metrics;
    GroupCommitter committer(s.f.config.orders, *s.registry, s.f.clock,
                             GroupCommitOptions{2, batch, n + 1}, metrics);
    committer.start();
    // Outcomes are counted without a lock; the waiting thread is woken once, by the last
    // outcome it waits for (a wake-up per callback would be the benchmark's cost, not the
    // gateway's: there each outcome goes to its own HTTP connection).
    std::mutex mutex;
    std::condition_variable allDone;
    std::atomic<int> done = 0;
    std::atomic<int> target = 0;
    std::atomic<int> failed = 0;
    auto submit = [&](int i) {
        auto cb = s.ingest->verifyAndParse(channel, p.requests[i]);
        if (!cb)
            qFatal("verify failed: %s", qPrintable(cb.error().message));
        const bool queued = committer.submit(CommitRequest{
            s.ingest->messageRow(*cb, p.requests[i]), [&](const Result<IngestOutcome> &r) {
                if (!r || r->status != IngestStatus::Stored)
                    ++failed;
                if (++done == target) {
                    std::lock_guard lock(mutex);
                    allDone.notify_one();
                }
            }});
        if (!queued)
            qFatal("committer refused a callback");
    };
    auto waitFor = [&](int count) {
        std::unique_lock lock(mutex);
        target = count;
        allDone.wait(lock, [&] { return done >= count; });
    };
    submit(n); // warm-up: opens the committer's connection
    waitFor(1);
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; ++i)
        submit(i);
    waitFor(n + 1);
    const qint64 ns = t.nsecsElapsed();
    committer.stop();
    if (failed != 0)
        qFatal("gateway path: %d callback(s) not stored", int(failed));
    checkRows(s, n + 1, "gateway path");
    return {n, ns};
}

// Signature verification + parsing alone (no database), to show what it costs per channel.
std::pair<qint64, qint64> verifyOnly(Test::ScratchDatabases &dbs, const QString &channel, int n)
{
    Setup s(dbs);
    const Prepared p = prepare(s, channel, n);
    QElapsedTimer t;
    t.start();
    for (const InboundRequest &r : p.requests)
        if (!s.ingest->verifyAndParse(channel, r))
            qFatal("verify failed");
    return {n, t.nsecsElapsed()};
}

double once(Dialect dialect,
            const std::function<std::pair<qint64, qint64>(Test::ScratchDatabases &)> &body)
{
    return measure("", dialect, 1, body).perSecond[0];
}

// One run of program and baseline, in turn; odd runs put the baseline first, so that whatever
// the second of two back-to-back runs gains or loses (a warmer page cache, a checkpoint left
// behind) falls on each side equally often.
void pairRun(Dialect dialect, int run, Sample &program, Sample &baseline,
             const std::function<std::pair<qint64, qint64>(Test::ScratchDatabases &)> &programBody,
             const std::function<std::pair<qint64, qint64>(Test::ScratchDatabases &)> &baselineBody)
{
    if (run % 2 == 1)
        baseline.perSecond.push_back(once(dialect, baselineBody));
    program.perSecond.push_back(once(dialect, programBody));
    if (run % 2 == 0)
        baseline.perSecond.push_back(once(dialect, baselineBody));
}

} // namespace

QList<Sample> ingestBenchmarks(Dialect dialect, int runs, int n)
{
    const QString stripe = QStringLiteral("stripe");
    // Program and baseline alternate run by run so that machine noise hits both alike.
    Sample p1{"program: IngestService::ingest", {}},
        r1{"baseline: raw prepared INSERT, autocommit", {}};
    Sample p2{"program: one thread, storeBatch(50)", {}},
        r2{"baseline: raw INSERT, 50 per transaction", {}};
    Sample g2{"program: gateway path, GroupCommitter(50)", {}},
        r3{"baseline: raw INSERT, 50 per transaction", {}};
    for (int i = 0; i < runs; ++i) {
        pairRun(
            dialect, i, p1, r1, [&](auto &d) { return program(d, stripe, n, 1); },
            [&](auto &d) { return raw(d, stripe, n, 1); });
        pairRun(
            dialect, i, p2, r2, [&](auto &d) { return program(d, stripe, n, 50); },
            [&](auto &d) { return raw(d, stripe, n, 50); });
        pairRun(
            dialect, i, g2, r3, [&](auto &d) { return gatewayPath(d, stripe, n, 50); },
            [&](auto &d) { return raw(d, stripe, n, 50); });
    }
    return {p1, r1, p2, r2, g2, r3};
}

QList<Sample> ingestPerChannelBenchmarks(Dialect dialect, int runs, int n)
{
    QList<Sample> out;
    for (const QString &channel : ChannelEmitter::channels()) {
        Sample p{QStringLiteral("%1: one thread, storeBatch(50)").arg(channel), {}};
        Sample r{QStringLiteral("%1: raw INSERT, 50 per transaction").arg(channel), {}};
        Sample v{QStringLiteral("%1: verify+parse only (no database)").arg(channel), {}};
        for (int i = 0; i < runs; ++i) {
            pairRun(
                dialect, i, p, r, [&](auto &d) { return program(d, channel, n, 50); },
                [&](auto &d) { return raw(d, channel, n, 50); });
            v.perSecond.push_back(
                once(dialect, [&](auto &d) { return verifyOnly(d, channel, n); }));
        }
        out << p << r << v;
    }
    return out;
}

} // namespace OncePay::Bench
