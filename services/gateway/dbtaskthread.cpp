#include "dbtaskthread.h"

#include "db/migrator.h"

namespace OncePay {

Result<const Connection *> DbTaskThread::Access::get(DbRole role)
{
    auto it = m_open.find(role);
    if (it != m_open.end())
        return &it->second;
    auto profile = m_profiles.find(role);
    if (profile == m_profiles.end())
        return makeError(ErrorCode::Internal,
                         QStringLiteral("no profile for %1").arg(roleName(role)));
    // Migrated like the committer's, so a rejection is recorded even when it is the first
    // thing a gateway started against an empty (or, at start, unreachable) database sees.
    auto c = openMigrated(profile->second, m_purpose);
    if (!c)
        return c.error();
    auto [inserted, _] = m_open.emplace(role, std::move(c).value());
    return &inserted->second;
}

DbTaskThread::DbTaskThread(QString purpose, std::map<DbRole, ConnectionProfile> profiles,
                           int maxQueue)
    : m_purpose(std::move(purpose))
    , m_profiles(std::move(profiles))
    , m_maxQueue(maxQueue)
{}

DbTaskThread::~DbTaskThread()
{
    stop();
}

void DbTaskThread::start()
{
    if (m_thread)
        return;
    m_thread = QThread::create([this] { run(); });
    m_thread->setObjectName(QStringLiteral("gateway-") + m_purpose);
    m_thread->start();
}

bool DbTaskThread::post(Task task)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping || int(m_queue.size()) >= m_maxQueue)
            return false;
        m_queue.push_back(std::move(task));
    }
    m_wake.notify_one();
    return true;
}

void DbTaskThread::stop()
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

void DbTaskThread::run()
{
    Access access;
    access.m_profiles = m_profiles;
    access.m_purpose = QStringLiteral("gateway-") + m_purpose;
    for (;;) {
        Task task;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                break; // stopping and drained
            task = std::move(m_queue.front());
            m_queue.pop_front();
        }
        task(access);
    }
    // Connections close here, on the thread that opened them.
}

} // namespace OncePay
