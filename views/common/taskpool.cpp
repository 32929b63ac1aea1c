#include "taskpool.h"

#include "db/serversilence.h"

#include <QCoreApplication>
#include <QFile>
#include <QPointer>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <sys/stat.h>

namespace OncePay {

namespace {

QPointer<QThreadPool> &pool()
{
    static QPointer<QThreadPool> p;
    return p;
}

QPointer<QThreadPool> &healthPool()
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
// tasks finish, then the threads end and close their connections. Bounded: a task blocked
// on a server that stopped answering would otherwise keep the console from ever exiting.
void drainPool()
{
    if (Internal::drainConsolePools(std::chrono::seconds(kConsoleDrainSeconds)))
        return;
    spdlog::error("console: database tasks still running {} s after the exit began (a server"
                  " that stopped answering?); they are abandoned and the console exits now",
                  kConsoleDrainSeconds);
    ServerSilenceWatch::stop(); // it may log: ended before the loggers are
    spdlog::shutdown();         // flushes the log file
    std::fflush(nullptr);
    // Not exit(): the static destructors would close the abandoned tasks' connections while
    // their threads are still inside the driver.
    std::_Exit(EXIT_FAILURE);
}

void registerDrain()
{
    static const bool registered = [] {
        qAddPostRoutine(drainPool);
        return true;
    }();
    Q_UNUSED(registered);
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

bool drainConsolePools(std::chrono::milliseconds limit)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + limit;
    auto left = [&deadline] {
        return std::max(
            0, int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                       .count()));
    };
    for (QPointer<QThreadPool> *p : {&pool(), &healthPool()}) {
        if (!*p)
            continue;
        if (!(*p)->waitForDone(left())) {
            spdlog::warn("console: {} of the {} pool's tasks still running at exit",
                         (*p)->activeThreadCount(), (*p)->objectName().toStdString());
            return false;
        }
    }
    delete pool().data(); // the threads end; their thread_local destructors may still be running
    delete healthPool().data();
    Tokens &t = tokens();
    std::unique_lock lock(t.mutex);
    if (!t.released.wait_for(lock, std::chrono::milliseconds(left()),
                             [&t] { return t.held == 0; })) {
        spdlog::warn("console: {} task thread(s) still closing their connections at exit", t.held);
        return false;
    }
    return true;
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
        registerDrain();
    }
    return pool().data();
}

QThreadPool *healthCheckPool()
{
    if (!healthPool()) {
        auto *p = new QThreadPool;
        p->setObjectName(QStringLiteral("healthChecks"));
        p->setMaxThreadCount(1);
        healthPool() = p;
        registerDrain();
    }
    return healthPool().data();
}

} // namespace OncePay
