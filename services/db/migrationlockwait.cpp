#include "migrationlockwait.h"

#include "core/clock.h"
#include "sql.h"

#include <QHash>
#include <QMutex>
#include <QSqlError>

#include <spdlog/spdlog.h>

namespace OncePay::Internal {

Result<LockWaitBound> LockWaitBound::set(const Connection &c, std::chrono::milliseconds wait)
{
    const qint64 ms = std::max<qint64>(1, wait.count());
    switch (c.dialect()) {
    case Dialect::Sqlite: return LockWaitBound(c, std::chrono::milliseconds(ms));
    case Dialect::Postgres: {
        if (auto r = Sql::exec(c.db(), QStringLiteral("SET LOCAL lock_timeout = %1").arg(ms)); !r)
            return r.error();
        return LockWaitBound(c, std::chrono::milliseconds(ms));
    }
    case Dialect::MySql: {
        auto q = Sql::exec(c.db(), QStringLiteral("SELECT @@SESSION.lock_wait_timeout,"
                                                  " @@SESSION.innodb_lock_wait_timeout"));
        if (!q)
            return q.error();
        if (!q->next())
            return makeError(ErrorCode::Internal, QStringLiteral("the session's lock waits"));
        const QString restore =
            QStringLiteral("SET SESSION lock_wait_timeout = %1, innodb_lock_wait_timeout = %2")
                .arg(q->value(0).toLongLong())
                .arg(q->value(1).toLongLong());
        const qint64 seconds = (ms + 999) / 1000;
        if (auto r = Sql::exec(c.db(), QStringLiteral("SET SESSION lock_wait_timeout = %1,"
                                                      " innodb_lock_wait_timeout = %1")
                                           .arg(seconds));
            !r)
            return r.error();
        LockWaitBound bound(c, std::chrono::seconds(seconds));
        bound.m_restore = restore;
        return bound;
    }
    }
    return LockWaitBound(c, std::chrono::milliseconds(ms));
}

LockWaitBound::LockWaitBound(LockWaitBound &&other) noexcept
    : m_connection(std::exchange(other.m_connection, nullptr))
    , m_wait(other.m_wait)
    , m_restore(std::exchange(other.m_restore, QString()))
{}

void LockWaitBound::restore()
{
    const QString statement = std::exchange(m_restore, QString());
    if (!m_connection || statement.isEmpty())
        return;
    if (auto r = Sql::exec(m_connection->db(), statement); !r)
        spdlog::warn("migration: could not put the session's lock waits back: {}",
                     r.error().message.toStdString());
}

bool waitedForLock(const QSqlError &error)
{
    const QString native = error.nativeErrorCode();
    return native == u"55P03" || native == u"1205";
}

namespace {

QMutex g_mutex;
QHash<QString, LockWaitPause> g_pauses; // by database (profile, no password)

} // namespace

void pauseAfterLockWait(const QString &database, const QString &migration,
                        std::chrono::milliseconds pause)
{
    const qint64 now = Clock::systemNowMs();
    const QMutexLocker lock(&g_mutex);
    g_pauses.insert(database, {migration, now, now + pause.count()});
}

std::optional<LockWaitPause> lockWaitPause(const QString &database)
{
    const QMutexLocker lock(&g_mutex);
    const auto it = g_pauses.constFind(database);
    if (it == g_pauses.cend() || it->untilMs <= Clock::systemNowMs())
        return std::nullopt;
    return *it;
}

void endLockWaitPause(const QString &database)
{
    const QMutexLocker lock(&g_mutex);
    g_pauses.remove(database);
}

} // namespace OncePay::Internal
