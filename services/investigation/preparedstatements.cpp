#include "preparedstatements.h"

#include "db/sql.h"

#include <QPointer>
#include <QSqlDriver>
#include <QSqlError>

#include <map>
#include <memory>

namespace OncePay::PreparedStatements {

namespace {

// Few distinct statements are repeated; past this many the thread's cache starts again.
constexpr std::size_t kMaxKept = 64;

struct Kept {
    QPointer<QSqlDriver> driver; // the driver it was prepared on; gone or another: prepare again
    std::unique_ptr<QSqlQuery> query;
    bool inUse = false;
};

std::map<std::pair<QString, QString>, Kept> &kept()
{
    thread_local std::map<std::pair<QString, QString>, Kept> statements;
    return statements;
}

Error failed(const QSqlQuery &q, const QString &sql)
{
    return Sql::classify(q.lastError(), sql.simplified().left(80));
}

} // namespace

Lease::Lease(QSqlQuery *kept, bool *inUse)
    : m_query(kept)
    , m_inUse(inUse)
{
    *m_inUse = true;
}

Lease::Lease(QSqlQuery &&own)
    : m_own(std::move(own))
    , m_query(&*m_own)
{}

Lease::Lease(Lease &&other) noexcept
    : m_own(std::move(other.m_own))
    , m_query(m_own ? &*m_own : std::exchange(other.m_query, nullptr))
    , m_inUse(std::exchange(other.m_inUse, nullptr))
{
    other.m_query = nullptr;
}

Lease::~Lease()
{
    if (m_query)
        m_query->finish();
    if (m_inUse)
        *m_inUse = false;
}

Result<Lease> exec(const Connection &connection, const QString &sql, const QVariantList &binds)
{
    const QSqlDatabase db = connection.db();
    if (!db.isOpen())
        return makeError(ErrorCode::Unavailable, QStringLiteral("database connection is closed"));
    auto &statements = kept();
    const auto key = std::make_pair(db.connectionName(), sql);
    auto it = statements.find(key);
    if (it != statements.end() && it->second.inUse) {
        // Asked for again while leased: a one-off query, not kept.
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.prepare(sql))
            return failed(q, sql);
        for (int i = 0; i < binds.size(); ++i)
            q.bindValue(i, binds[i]);
        if (!q.exec())
            return failed(q, sql);
        return Lease(std::move(q));
    }
    if (it != statements.end() && it->second.driver != db.driver()) {
        statements.erase(it);
        it = statements.end();
    }
    if (it == statements.end()) {
        if (statements.size() >= kMaxKept)
            std::erase_if(statements, [](const auto &s) { return !s.second.inUse; });
        auto q = std::make_unique<QSqlQuery>(db);
        q->setForwardOnly(true);
        if (!q->prepare(sql))
            return failed(*q, sql);
        it = statements.emplace(key, Kept{db.driver(), std::move(q), false}).first;
    }
    QSqlQuery &q = *it->second.query;
    for (int i = 0; i < binds.size(); ++i)
        q.bindValue(i, binds[i]);
    if (!q.exec()) {
        const Error error = failed(q, sql);
        statements.erase(it); // prepared on a link that broke, or never valid: start again
        return error;
    }
    return Lease(&q, &it->second.inUse);
}

int keptCount()
{
    return int(kept().size());
}

} // namespace OncePay::PreparedStatements
