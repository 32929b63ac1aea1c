#include "taskpool.h"

#include <QCoreApplication>
#include <QPointer>

namespace OncePay {

namespace {

QPointer<QThreadPool> &pool()
{
    static QPointer<QThreadPool> p;
    return p;
}

// Runs as the application object is destroyed, like Qt's own global pool: the running
// tasks finish, then the threads end and close their connections.
void drainPool()
{
    if (QThreadPool *p = pool().data()) {
        p->waitForDone();
        delete p;
    }
}

} // namespace

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
