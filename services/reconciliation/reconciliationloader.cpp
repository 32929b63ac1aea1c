#include "reconciliationloader.h"

#include "reconciliationmatcher.h"

#include <QFile>

#include <sqlite3.h>

namespace OncePay::Internal {

LoadReader::LoadReader(const QString &path, std::vector<Query> queries, size_t maxChunks)
    : m_queries(std::move(queries))
    , m_maxChunks(maxChunks)
{
    m_thread = std::thread([this, path = QFile::encodeName(path)] { run(path); });
}

LoadReader::~LoadReader()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

bool LoadReader::opened()
{
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_state != State::Starting; });
    return m_state != State::NotOpened;
}

std::optional<LoadReader::Chunk> LoadReader::next()
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

std::optional<Error> LoadReader::error()
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

bool LoadReader::push(Chunk &&c)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return m_stop || m_chunks.size() < m_maxChunks; });
    if (m_stop)
        return false;
    m_chunks.push_back(std::move(c));
    m_cv.notify_all();
    return true;
}

void LoadReader::finish(State state, std::optional<Error> error)
{
    std::lock_guard lock(m_mutex);
    m_state = state;
    m_error = std::move(error);
    m_cv.notify_all();
}

void LoadReader::run(const QByteArray &path)
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

Result<QHash<QString, PaymentFact>> settledElsewhere(const Connection &c,
                                                     const QList<LineFact> &lines)
{
    QHash<QString, QStringList> byChannel;
    for (const LineFact &l : lines)
        byChannel[l.channel] << l.channelTxnId;
    QHash<QString, PaymentFact> found;
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
                          QStringLiteral("SELECT channel_txn_id, id, order_id, amount_minor,"
                                         " currency, captured_at FROM payments WHERE channel = ?"
                                         " AND channel_txn_id IN (") +
                              marks + u')',
                          binds);
            if (!q)
                return q.error();
            while (q->next()) {
                PaymentFact p;
                p.channel = it.key();
                p.channelTxnId = q->value(0).toString();
                p.id = q->value(1).toLongLong();
                p.orderId = q->value(2).toString();
                p.amountMinor = q->value(3).toLongLong();
                p.currency = q->value(4).toString();
                p.capturedAtMs = q->value(5).toLongLong();
                found.insert(ReconciliationMatcher::keyOf(p.channel, p.channelTxnId), p);
            }
        }
    }
    return found;
}

} // namespace OncePay::Internal
