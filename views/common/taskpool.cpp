#include "taskpool.h"

#include <QCoreApplication>
#include <QFile>
#include <QPointer>

#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <sys/stat.h>

namespace OncePay {

namespace {

QPointer<QThreadPool> &pool()
{
    static QPointer<QThreadPool> p;
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
    if (QThreadPool *p = pool().data()) {
        p->waitForDone();
        delete p; // the threads end; their thread_local destructors may still be running
    }
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

QThreadPool *consoleTaskPool()
{
    if (!pool()) {
        auto *p = new QThreadPool;
        p->setObjectName(QStringLiteral("consoleTasks"));
        p->setMaxThreadCount(kConsoleTaskThreads);
        p->setExpiryTimeout(-1);
        pool() = p;
        qAddPostRoutine(drainPool);
    }
    return pool().data();
}

} // namespace OncePay
