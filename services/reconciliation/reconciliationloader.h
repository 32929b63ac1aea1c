#pragma once

// The load phase of a reconciliation run: reading the period's payments and settlement lines
// row by row, through QtSql on any database or, on SQLite, through SQLite's C API on the same
// connection (NativeRow) or on a second read-only connection on a worker thread
// (LoadReader); and the look-up of the payments of other periods that unmatched lines
// belong to (settledElsewhere). Internal to services/reconciliation: the Reconciler's run
// is its only user.
// Thread contract: scan() and settledElsewhere() on the connection's thread. A LoadReader
// owns its worker thread and its own connection; its public functions are called from one
// other thread (the run's), which consumes the chunks it reads.

#include "reconciliationtypes.h"

#include "core/result.h"
#include "db/connection.h"
#include "db/sql.h"
#include "db/sqlitenative.h"

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <array>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace OncePay::Internal {

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

    LoadReader(const QString &path, std::vector<Query> queries, size_t maxChunks);
    ~LoadReader();

    // false: the second connection could not be opened, nothing was read.
    bool opened();
    // The next chunk, or nullopt when all is read (check error()).
    std::optional<Chunk> next();
    std::optional<Error> error();

private:
    enum class State { Starting, NotOpened, Reading, Done };
    static constexpr size_t kChunkRows = 8192;

    bool push(Chunk &&c);
    void finish(State state, std::optional<Error> error = std::nullopt);
    void run(const QByteArray &path);

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

// A forward-only query, prepared, bound and executed.
Result<QSqlQuery> forward(const Connection &c, const QString &sql, const QVariantList &binds);

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

// Payments of other periods that unmatched lines belong to (captured outside the period), by
// ReconciliationMatcher::keyOf: id, order, amount and currency (what a chargeback on one says).
Result<QHash<QString, PaymentFact>> settledElsewhere(const Connection &c,
                                                     const QList<LineFact> &lines);

} // namespace OncePay::Internal
