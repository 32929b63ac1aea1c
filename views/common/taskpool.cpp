#include "taskpool.h"

#include <QCoreApplication>
#include <QFile>
#include <QThread>

#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <utility>

namespace OncePay {

namespace {

TaskPool *&pool()
{
    static TaskPool *p = nullptr;
    return p;
}

struct Tokens {
    std::mutex mutex;
    std::condition_variable released;
    int held = 0;
};

Tokens &tokens()
{
    static Tokens t;
    return t;
}

// Runs as the application object is destroyed, like Qt's own global pool: the running
// tasks finish, then the threads end and close their connections.
void drainPool()
{
    if (TaskPool *p = std::exchange(pool(), nullptr))
        delete p; // the tasks end, then the threads; their thread_local destructors may still run
    Tokens &t = tokens();
    std::unique_lock lock(t.mutex);
    if (!t.released.wait_for(lock, std::chrono::seconds(30), [&t] { return t.held == 0; }))
        spdlog::warn("console: {} task thread(s) still closing their connections at exit", t.held);
}

} // namespace

namespace Internal {

std::optional<FileIdentity> sqliteFileIdentity(const ConnectionProfile &profile)
{
    if (profile.dialect != Dialect::Sqlite || profile.path.isEmpty())
        return std::nullopt;
    struct stat st {};
    if (::stat(QFile::encodeName(profile.path).constData(), &st) != 0)
        return std::nullopt;
    return FileIdentity{quint64(st.st_dev), quint64(st.st_ino)};
}

void takeThreadResources()
{
    Tokens &t = tokens();
    std::lock_guard lock(t.mutex);
    ++t.held;
}

void releaseThreadResources()
{
    Tokens &t = tokens();
    {
        std::lock_guard lock(t.mutex);
        --t.held;
    }
    t.released.notify_all();
}

} // namespace Internal

struct TaskPool::Worker {
    QThread *thread = nullptr;
    std::condition_variable wake;
    std::function<void()> task; // handed over by start(), under the pool's mutex
};

TaskPool::TaskPool(const QString &threadName, int maxThreads)
    : m_threadName(threadName)
    , m_maxThreads(std::max(1, maxThreads))
{}

TaskPool::~TaskPool()
{
    waitForDone();
    {
        std::lock_guard lock(m_mutex);
        m_ending = true;
    }
    for (const auto &w : m_workers)
        w->wake.notify_one();
    for (const auto &w : m_workers) {
        w->thread->wait();
        delete w->thread;
    }
}

void TaskPool::start(std::function<void()> task)
{
    std::unique_lock lock(m_mutex);
    if (!m_idle.empty()) {
        Worker *w = m_idle.back(); // the warmest: it went idle last
        m_idle.pop_back();
        w->task = std::move(task);
        ++m_busy;
        lock.unlock();
        w->wake.notify_one();
        return;
    }
    if (int(m_workers.size()) < m_maxThreads) {
        auto w = std::make_unique<Worker>();
        Worker *self = w.get();
        self->task = std::move(task);
        self->thread = QThread::create([this, self] { work(self); });
        self->thread->setObjectName(m_threadName);
        m_workers.push_back(std::move(w));
        ++m_busy;
        self->thread->start();
        return;
    }
    m_waiting.push_back(std::move(task));
}

void TaskPool::work(Worker *self)
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        if (!self->task && !m_waiting.empty()) {
            self->task = std::move(m_waiting.front());
            m_waiting.pop_front();
        }
        if (self->task) {
            std::function<void()> task = std::exchange(self->task, nullptr);
            lock.unlock();
            try {
                task();
            } catch (const std::exception &e) {
                spdlog::error("console: a background task ended with an exception: {}", e.what());
            } catch (...) {
                spdlog::error("console: a background task ended with an unknown exception");
            }
            task = nullptr; // what it captured goes before the next task, off the lock
            lock.lock();
            if (!m_waiting.empty())
                continue; // still busy: the next waiting task
            --m_busy;
            if (m_busy == 0)
                m_idleAll.notify_all();
        }
        if (m_ending)
            return;
        m_idle.push_back(self);
        self->wake.wait(lock, [this, self] { return bool(self->task) || m_ending; });
    }
}

void TaskPool::waitForDone()
{
    std::unique_lock lock(m_mutex);
    m_idleAll.wait(lock, [this] { return m_busy == 0 && m_waiting.empty(); });
}

int TaskPool::activeThreadCount() const
{
    std::lock_guard lock(m_mutex);
    return m_busy;
}

int TaskPool::threadCount() const
{
    std::lock_guard lock(m_mutex);
    return int(m_workers.size());
}

TaskPool *consoleTaskPool()
{
    if (!pool()) {
        pool() = new TaskPool(QStringLiteral("consoleTasks"), kConsoleTaskThreads);
        qAddPostRoutine(drainPool);
    }
    return pool();
}

} // namespace OncePay
