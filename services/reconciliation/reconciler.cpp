#include "reconciler.h"

#include "reconciliationmatcher.h"
#include "reconciliationwriter.h"

#include "db/sql.h"
#include "db/sqlitenative.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>

#include <spdlog/spdlog.h>

#include <sqlite3.h>

#include <array>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

namespace OncePay {

namespace {

constexpr qint64 kProgressEvery = 20000;

Result<qint64> setting(const Connection &c, const QString &key, qint64 fallback)
{
    auto v = Sql::scalar(
        c.db(), QStringLiteral("SELECT setting_value FROM ops_settings WHERE setting_key = ?"),
        {key});
    if (!v)
        return v.error();
    if (v->isNull())
        return fallback;
    bool ok = false;
    const qint64 n = v->toString().toLongLong(&ok);
    if (!ok || n < 0)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("ops setting %1 is not a non-negative number").arg(key));
    return n;
}

Result<QSqlQuery> forward(const Connection &c, const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(c.db());
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return Sql::classify(q.lastError(), sql.left(60));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return Sql::classify(q.lastError(), sql.left(60));
    return q;
}

// Rows of the load phase, read either through QtSql or (on SQLite) through SQLite's C API on
// the same connection, which skips a QVariant and a QString per value. Both give the same
// values: NULL integers read as 0, NULL text as an empty string. Text comes as UTF-8 views,
// valid until the next row; the matcher copies what it keeps.
class QtRow {
public:
    explicit QtRow(QSqlQuery q)
        : m_q(std::move(q))
    {}
    QSqlQuery &query() { return m_q; }
    std::string_view bytes(int i)
    {
        QByteArray &b = m_utf8[size_t(i)];
        b = m_q.value(i).toString().toUtf8();
        return {b.constData(), size_t(b.size())};
    }
    qint64 number(int i) const { return m_q.value(i).toLongLong(); }

private:
    QSqlQuery m_q;
    std::array<QByteArray, 16> m_utf8;
};

class NativeRow {
public:
    SqliteNative::Statement &statement() { return m_st; }
    std::string_view bytes(int i) const
    {
        int n = 0;
        const char *p = m_st.text(i, &n);
        return {p, size_t(n)};
    }
    qint64 number(int i) const { return m_st.int64(i); }

private:
    SqliteNative::Statement m_st;
};

// Part of the load read on another SQLite connection (read-only, same file, its queries in
// one read transaction) on a worker thread: it steps SQLite and copies the rows into chunks
// while the caller's thread builds the hash table from them, so the cores share the work.
// If the connection cannot be opened, the caller reads through its own connection instead.
class LoadReader {
public:
    struct Query {
        QByteArray sql;
        qint64 from = 0, to = 0;
        QByteArray columns; // 'i' integer, 't' text, per column
        qint64 expected = 0;
    };
    struct Chunk {
        int query = 0;
        int width = 0;                                  // values per row
        std::vector<qint64> values;                     // integers; for text an index into `texts`
        std::vector<std::pair<quint32, quint32>> texts; // (offset, size) in `bytes`
        std::vector<char> bytes;
    };
    // A row of a chunk with the interface of the other rows (number(i), bytes(i)).
    struct ChunkRow {
        const Chunk *chunk = nullptr;
        size_t row = 0;
        qint64 number(int i) const { return chunk->values[row * size_t(chunk->width) + size_t(i)]; }
        std::string_view bytes(int i) const
        {
            const auto [at, size] = chunk->texts[size_t(number(i))];
            return {chunk->bytes.data() + at, size};
        }
    };

    LoadReader(const QString &path, std::vector<Query> queries, size_t maxChunks)
        : m_queries(std::move(queries))
        , m_maxChunks(maxChunks)
    {
        m_thread = std::thread([this, path = QFile::encodeName(path)] { run(path); });
    }
    ~LoadReader()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }

    // false: the second connection could not be opened, nothing was read.
    bool opened()
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return m_state != State::Starting; });
        return m_state != State::NotOpened;
    }
    // The next chunk, or nullopt when all is read (check error()).
    std::optional<Chunk> next()
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return !m_chunks.empty() || m_state == State::Done; });
        if (m_chunks.empty())
            return std::nullopt;
        Chunk c = std::move(m_chunks.front());
        m_chunks.pop_front();
        m_cv.notify_all();
        return c;
    }
    std::optional<Error> error()
    {
        std::lock_guard lock(m_mutex);
        return m_error;
    }

private:
    enum class State { Starting, NotOpened, Reading, Done };
    static constexpr size_t kChunkRows = 8192;

    bool push(Chunk &&c)
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return m_stop || m_chunks.size() < m_maxChunks; });
        if (m_stop)
            return false;
        m_chunks.push_back(std::move(c));
        m_cv.notify_all();
        return true;
    }
    void finish(State state, std::optional<Error> error = std::nullopt)
    {
        std::lock_guard lock(m_mutex);
        m_state = state;
        m_error = std::move(error);
        m_cv.notify_all();
    }
    void run(const QByteArray &path)
    {
        sqlite3 *db = nullptr;
        if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK ||
            sqlite3_exec(db, "PRAGMA cache_size = -262144; PRAGMA mmap_size = 2147418112; BEGIN",
                         nullptr, nullptr, nullptr) != SQLITE_OK) {
            sqlite3_close(db);
            finish(State::NotOpened);
            return;
        }
        sqlite3_busy_timeout(db, 5000);
        {
            std::lock_guard lock(m_mutex);
            m_state = State::Reading;
            m_cv.notify_all();
        }
        std::optional<Error> error;
        for (int qi = 0; qi < int(m_queries.size()) && !error; ++qi) {
            const Query &q = m_queries[size_t(qi)];
            SqliteNative::Statement st;
            if (auto p = st.prepare(db, q.sql); !p) {
                error = p.error();
                break;
            }
            st.bind(1, q.from);
            st.bind(2, q.to);
            const int width = int(q.columns.size());
            auto fresh = [&] {
                Chunk c;
                c.query = qi;
                c.width = width;
                c.values.reserve(kChunkRows * size_t(width));
                c.texts.reserve(kChunkRows * size_t(q.columns.count('t')));
                c.bytes.reserve(kChunkRows * 64);
                return c;
            };
            Chunk c = fresh();
            for (;;) {
                auto more = st.step();
                if (!more) {
                    error = more.error();
                    break;
                }
                if (!*more)
                    break;
                for (int i = 0; i < width; ++i) {
                    if (q.columns[i] == 'i') {
                        c.values.push_back(st.int64(i));
                    } else {
                        int n = 0;
                        const char *t = st.text(i, &n);
                        c.values.push_back(qint64(c.texts.size()));
                        c.texts.emplace_back(quint32(c.bytes.size()), quint32(n));
                        c.bytes.insert(c.bytes.end(), t, t + n);
                    }
                }
                if (c.values.size() >= kChunkRows * size_t(width)) {
                    if (!push(std::move(c)))
                        break;
                    c = fresh();
                }
            }
            if (!error && !c.values.empty() && !push(std::move(c)))
                break;
        }
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        finish(State::Done, std::move(error));
    }

    std::vector<Query> m_queries;
    size_t m_maxChunks = 16;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Chunk> m_chunks;
    State m_state = State::Starting;
    bool m_stop = false;
    std::optional<Error> m_error;
    std::thread m_thread;
};

// Runs a SELECT and hands each row to `row` until it returns false (cancelled): true when all
// rows were read, false when cancelled.
template <typename F>
Result<bool> scan(const Connection &c, const QString &sql, const QVariantList &binds, F &&row)
{
    if (sqlite3 *h = SqliteNative::handle(c.db())) {
        NativeRow r;
        if (auto p = r.statement().prepare(h, sql.toUtf8()); !p)
            return p.error();
        r.statement().bindAll(binds);
        for (;;) {
            auto more = r.statement().step();
            if (!more)
                return more.error();
            if (!*more)
                return true;
            if (!row(r))
                return false;
        }
    }
    auto q = forward(c, sql, binds);
    if (!q)
        return q.error();
    QtRow r(std::move(*q));
    while (r.query().next())
        if (!row(r))
            return false;
    if (r.query().lastError().isValid())
        return Sql::classify(r.query().lastError(), sql.left(60));
    return true;
}

// Payments of other periods that unmatched lines belong to (captured before `from`).
Result<QSet<QString>> settledElsewhere(const Connection &c, const QList<LineFact> &lines)
{
    QHash<QString, QStringList> byChannel;
    for (const LineFact &l : lines)
        byChannel[l.channel] << l.channelTxnId;
    QSet<QString> found;
    for (auto it = byChannel.cbegin(); it != byChannel.cend(); ++it) {
        QStringList ids = it.value();
        ids.removeDuplicates();
        for (qsizetype i = 0; i < ids.size(); i += 500) {
            const QStringList chunk = ids.mid(i, 500);
            QVariantList binds{it.key()};
            QString marks;
            for (const QString &id : chunk) {
                marks += marks.isEmpty() ? QStringLiteral("?") : QStringLiteral(",?");
                binds << id;
            }
            auto q =
                Sql::exec(c.db(),
                          QStringLiteral("SELECT channel_txn_id FROM payments WHERE channel = ? AND"
                                         " channel_txn_id IN (") +
                              marks + u')',
                          binds);
            if (!q)
                return q.error();
            while (q->next())
                found.insert(ReconciliationMatcher::keyOf(it.key(), q->value(0).toString()));
        }
    }
    return found;
}

} // namespace

Reconciler::Reconciler(const Connection &connection, const Clock &clock, Actor actor)
    : m_c(connection)
    , m_clock(clock)
    , m_actor(std::move(actor))
{}

Result<ReconcileReport> Reconciler::run(const ReconcileOptions &options) const
{
    QElapsedTimer timer;
    timer.start();
    const qint64 now = m_clock.nowMs();
    ReconcileReport report;
    report.fromMs = options.fromMs;
    report.toMs = options.toMs > 0 ? options.toMs : now + 24LL * 3600 * 1000;
    if (report.toMs <= report.fromMs)
        return makeError(ErrorCode::Invalid, QStringLiteral("the period ends before it starts"));

    ReconcileSettings settings;
    auto tolerance =
        setting(m_c, QStringLiteral("reconcile.fee_tolerance_ppm"), settings.feeTolerancePpm);
    auto hours = setting(m_c, QStringLiteral("reconcile.unsettled_after_hours"), 24);
    auto skew = setting(m_c, QStringLiteral("reconcile.capture_skew_minutes"),
                        settings.captureSkewMs / 60000);
    for (const auto *r : {&tolerance, &hours, &skew})
        if (!*r)
            return r->error();
    settings.feeTolerancePpm = *tolerance;
    settings.unsettledAfterMs = *hours * 3600 * 1000;
    settings.captureSkewMs = *skew * 60000;

    auto rules = [&]() -> Result<QList<FeeRule>> {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT id, channel, currency, effective_from, rate_ppm,"
                                          " fixed_minor FROM fee_schedules"));
        if (!q)
            return q.error();
        QList<FeeRule> out;
        while (q->next())
            out << FeeRule{q->value(0).toLongLong(),
                           q->value(1).toString(),
                           q->value(2).toString(),
                           q->value(3).toLongLong(),
                           q->value(4).toLongLong(),
                           q->value(5).toLongLong(),
                           {}};
        return out;
    }();
    if (!rules)
        return rules.error();
    QList<ClosedPeriodFact> closed;
    QHash<QString, RefundObligationFact> obligations;
    {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT period_from, period_to FROM closed_periods"));
        if (!q)
            return q.error();
        while (q->next())
            closed << ClosedPeriodFact{q->value(0).toLongLong(), q->value(1).toLongLong()};
        auto o = Sql::exec(
            m_c.db(),
            QStringLiteral("SELECT channel, channel_txn_id, order_id, amount_minor, currency"
                           " FROM refund_obligations WHERE resolved_at IS NULL AND"
                           " channel_txn_id IS NOT NULL"));
        if (!o)
            return o.error();
        while (o->next())
            obligations.insert(
                ReconciliationMatcher::keyOf(o->value(0).toString(), o->value(1).toString()),
                {o->value(2).toString(), o->value(3).toLongLong(), o->value(4).toString()});
    }

    const QVariantList paymentBinds{report.fromMs, report.toMs};
    const QVariantList lineBinds{report.fromMs, report.toMs + kSettlementLookaheadMs};
    auto paymentCount =
        Sql::scalar(m_c.db(),
                    QStringLiteral("SELECT COUNT(*) FROM payments WHERE captured_at >= ?"
                                   " AND captured_at < ?"),
                    paymentBinds);
    auto lineCount =
        Sql::scalar(m_c.db(),
                    QStringLiteral("SELECT COUNT(*) FROM settlement_lines WHERE settled_at >= ?"
                                   " AND settled_at < ?"),
                    lineBinds);
    if (!paymentCount)
        return paymentCount.error();
    if (!lineCount)
        return lineCount.error();
    const qint64 total = paymentCount->toLongLong() + lineCount->toLongLong();

    ReconciliationWriter writer(m_c, m_clock, m_actor);
    auto runId = writer.startRun(report.fromMs, report.toMs);
    if (!runId)
        return runId.error();
    report.runId = *runId;

    auto stop = [&](const QString &status, const Error *error) -> Result<ReconcileReport> {
        report.status = status;
        if (auto r = writer.markStopped(report, status); !r)
            spdlog::error("reconcile: cannot mark run {} {}: {}", report.runId,
                          status.toStdString(), r.error().message.toStdString());
        if (error)
            return *error;
        report.elapsedMs = timer.elapsed();
        return report;
    };
    qint64 done = 0;
    auto tick = [&]() {
        ++done;
        return !(options.progress && done % kProgressEvery == 0 && !options.progress(done, total));
    };

    if (m_c.dialect() == Dialect::Sqlite) // the payments' and lines' index pages stay cached
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA cache_size = -262144"));
    qint64 phase = timer.elapsed();
    QStringList phases;
    auto lap = [&](const char *name) {
        phases << QStringLiteral("%1 %2 ms").arg(QLatin1String(name)).arg(timer.elapsed() - phase);
        phase = timer.elapsed();
    };
    ReconciliationMatcher matcher(settings, FeeSchedule(*rules), closed, obligations, now,
                                  report.fromMs, report.toMs);
    matcher.reserve(paymentCount->toLongLong());
    // When the period holds most of the lines, reading the table in rowid order beats a
    // lookup per line through settlement_lines_time (SQLite has no statistics to know).
    QString lineTable = QStringLiteral("settlement_lines");
    if (m_c.dialect() == Dialect::Sqlite) {
        auto all = Sql::scalar(m_c.db(), QStringLiteral("SELECT COUNT(*) FROM settlement_lines"));
        if (!all)
            return stop(QStringLiteral("failed"), &all.error());
        if (lineCount->toLongLong() * 4 > all->toLongLong() * 3)
            lineTable += QStringLiteral(" NOT INDEXED");
    }
    const QString paymentSql =
        QStringLiteral("SELECT p.id, p.order_id, p.channel, p.channel_txn_id, p.amount_minor,"
                       " p.currency, CASE WHEN p.status = 'refunded' THEN 1 ELSE 0 END,"
                       " CASE WHEN p.settlement_status = 'settled' THEN 1 ELSE 0 END,"
                       " p.captured_at, o.amount_minor,"
                       " o.currency, o.state, p.refunded_at FROM payments p"
                       " JOIN orders o ON o.order_id = p.order_id"
                       " WHERE p.captured_at >= ? AND p.captured_at < ?");
    const QString lineSql =
        QStringLiteral("SELECT id, channel, channel_txn_id, kind, gross_minor, fee_minor, currency,"
                       " settled_at FROM ") +
        lineTable + QStringLiteral(" WHERE settled_at >= ? AND settled_at < ?");
    // On SQLite two reader threads, one for each side, each on its own read-only connection:
    // this thread builds the hash table from the payments as they arrive, then probes it with
    // the lines the other reader has been buffering meanwhile (up to ~half a million).
    std::optional<LoadReader> paymentReader, lineReader;
    if (SqliteNative::handle(m_c.db()) && QFileInfo(m_c.db().databaseName()).isFile()) {
        paymentReader.emplace(
            m_c.db().databaseName(),
            std::vector<LoadReader::Query>{{paymentSql.toUtf8(), report.fromMs, report.toMs,
                                            "itttitiiiitti", paymentCount->toLongLong()}},
            16);
        lineReader.emplace(m_c.db().databaseName(),
                           std::vector<LoadReader::Query>{{lineSql.toUtf8(), report.fromMs,
                                                           report.toMs + kSettlementLookaheadMs,
                                                           "itttiiti", lineCount->toLongLong()}},
                           64);
        if (!paymentReader->opened() || !lineReader->opened()) {
            paymentReader.reset(); // read through the connection itself
            lineReader.reset();
        }
    }
    auto addPayment = [&](auto &r) {
        PaymentView p;
        p.id = r.number(0);
        p.orderId = r.bytes(1);
        p.channel = r.bytes(2);
        p.channelTxnId = r.bytes(3);
        p.amountMinor = r.number(4);
        p.currency = r.bytes(5);
        p.refunded = r.number(6) == 1;
        p.settled = r.number(7) == 1;
        p.capturedAtMs = r.number(8);
        p.orderAmountMinor = r.number(9);
        p.orderCurrency = r.bytes(10);
        p.orderState = r.bytes(11);
        p.refundedAtMs = r.number(12);
        matcher.addPayment(p);
        ++report.payments;
        return tick();
    };
    auto addLine = [&](auto &r) {
        LineView l;
        l.id = r.number(0);
        l.channel = r.bytes(1);
        l.channelTxnId = r.bytes(2);
        l.kind = r.bytes(3);
        l.grossMinor = r.number(4);
        l.feeMinor = r.number(5);
        l.currency = r.bytes(6);
        l.settledAtMs = r.number(7);
        matcher.addLine(l);
        ++report.lines;
        return tick();
    };
    if (paymentReader) {
        auto drain = [&](LoadReader &reader, auto &add) -> std::optional<bool> {
            while (auto chunk = reader.next()) {
                const size_t rows = chunk->values.size() / size_t(chunk->width);
                LoadReader::ChunkRow r{&*chunk, 0};
                for (; r.row < rows; ++r.row)
                    if (!add(r))
                        return false;
            }
            return std::nullopt;
        };
        if (drain(*paymentReader, addPayment))
            return stop(QStringLiteral("cancelled"), nullptr);
        if (const auto e = paymentReader->error())
            return stop(QStringLiteral("failed"), &*e);
        lap("load payments");
        if (drain(*lineReader, addLine))
            return stop(QStringLiteral("cancelled"), nullptr);
        if (const auto e = lineReader->error())
            return stop(QStringLiteral("failed"), &*e);
    } else {
        auto payments = scan(m_c, paymentSql, paymentBinds, addPayment);
        if (!payments)
            return stop(QStringLiteral("failed"), &payments.error());
        if (!*payments)
            return stop(QStringLiteral("cancelled"), nullptr);
        lap("load payments");
        auto lines = scan(m_c, lineSql, lineBinds, addLine);
        if (!lines)
            return stop(QStringLiteral("failed"), &lines.error());
        if (!*lines)
            return stop(QStringLiteral("cancelled"), nullptr);
    }
    lap("load lines");
    auto elsewhere = settledElsewhere(m_c, matcher.unmatchedLines());
    if (!elsewhere)
        return stop(QStringLiteral("failed"), &elsewhere.error());
    QList<OpenNotSettled> open; // may be resolved by this run's lines
    {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT discrepancy_key, channel, channel_txn_id FROM"
                                          " discrepancies WHERE kind = 'not_settled' AND"
                                          " status = 'open'"));
        if (!q)
            return stop(QStringLiteral("failed"), &q.error());
        while (q->next())
            open << OpenNotSettled{q->value(0).toString(), q->value(1).toString(),
                                   q->value(2).toString()};
    }
    const MatchOutcome outcome = matcher.finish(*elsewhere, open);
    lap("classify");
    if (options.progress && !options.progress(total, total))
        return stop(QStringLiteral("cancelled"), nullptr);

    report.eligible = outcome.eligible;
    report.matched = outcome.matched;
    report.notYetDue = outcome.notYetDue;
    report.coveragePpm = report.eligible ? report.matched * 1000000 / report.eligible : 1000000;
    for (const QString &kind : DiscrepancyKind::all())
        report.counts.insert(kind, 0);
    for (const Finding &f : outcome.findings)
        ++report.counts[f.kind];
    report.findings = outcome.findings;
    report.status = QStringLiteral("finished");
    if (auto r = writer.commit(outcome, report); !r) {
        Error e = r.error();
        return stop(QStringLiteral("failed"), &e);
    }
    lap("write");
    report.elapsedMs = timer.elapsed();
    spdlog::info("reconcile run {}: {} payments, {} lines, {} findings; {}", report.runId,
                 report.payments, report.lines, report.findings.size(),
                 phases.join(QStringLiteral(", ")).toStdString());
    return report;
}

} // namespace OncePay
