// The console's task pool (views/common/taskpool.h): a task goes to the thread that went idle
// last (its CPU caches and kept connections are the warmest), a new thread starts only when
// every thread is busy and the limit allows, tasks beyond the limit wait and run in order, the
// pool ends only after its tasks, and a task that throws does not take a thread with it.

#include "common/taskpool.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

using namespace OncePay;

namespace {

// A task that says which thread ran it and then holds that thread until released.
struct HeldTask {
    std::shared_ptr<QSemaphore> started = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> release = std::make_shared<QSemaphore>();
    std::shared_ptr<std::atomic<QThread *>> thread =
        std::make_shared<std::atomic<QThread *>>(nullptr);

    std::function<void()> task() const
    {
        return [started = started, release = release, thread = thread] {
            thread->store(QThread::currentThread());
            started->release();
            release->acquire();
        };
    }
};

QThread *threadOfNextTask(TaskPool &pool)
{
    HeldTask t;
    pool.start(t.task());
    t.release->release();
    pool.waitForDone();
    return t.thread->load();
}

} // namespace

class TaskPoolTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aTaskGoesToTheThreadThatWentIdleLast()
    {
        TaskPool pool(QStringLiteral("lifo"), 4);
        HeldTask a, b, c;
        for (const HeldTask *t : {&a, &b, &c}) {
            pool.start(t->task());
            QVERIFY(t->started->tryAcquire(1, 5000));
        }
        QCOMPARE(pool.threadCount(), 3); // all three busy at once: three threads
        QVERIFY(a.thread->load() != b.thread->load() && b.thread->load() != c.thread->load() &&
                a.thread->load() != c.thread->load());
        // They go idle in the order a, b, c; the idle count is read under the pool's lock, so
        // each is idle before the next is released.
        int busy = 3;
        for (const HeldTask *t : {&a, &b, &c}) {
            t->release->release();
            --busy;
            QTRY_COMPARE_WITH_TIMEOUT(pool.activeThreadCount(), busy, 5000);
        }
        // c went idle last: it takes the next task, and the one after (it went idle last
        // again). A pool that woke the longest idle thread (QThreadPool) would pick a, then b.
        QCOMPARE(threadOfNextTask(pool), c.thread->load());
        QCOMPARE(threadOfNextTask(pool), c.thread->load());
        QCOMPARE(pool.threadCount(), 3);
    }

    void aThreadStartsOnlyWhenEveryThreadIsBusy()
    {
        TaskPool pool(QStringLiteral("sequential"), 4);
        QThread *first = threadOfNextTask(pool);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(threadOfNextTask(pool), first);
        QCOMPARE(pool.threadCount(), 1);
    }

    void tasksBeyondTheLimitWaitAndRunInOrder()
    {
        TaskPool pool(QStringLiteral("limited"), 2);
        HeldTask a, b;
        pool.start(a.task());
        pool.start(b.task());
        QVERIFY(a.started->tryAcquire(1, 5000));
        QVERIFY(b.started->tryAcquire(1, 5000));
        auto order = std::make_shared<std::vector<int>>();
        auto mutex = std::make_shared<std::mutex>();
        for (int i = 0; i < 5; ++i)
            pool.start([order, mutex, i] {
                std::lock_guard lock(*mutex);
                order->push_back(i);
            });
        QTest::qWait(50);
        QVERIFY(order->empty()); // both threads are held: the five wait
        QCOMPARE(pool.threadCount(), 2);
        QCOMPARE(pool.activeThreadCount(), 2);
        a.release->release(); // one thread runs the five, in order; b still holds the other
        QTRY_COMPARE_WITH_TIMEOUT(int(order->size()), 5, 5000);
        QCOMPARE(*order, (std::vector<int>{0, 1, 2, 3, 4}));
        b.release->release();
        pool.waitForDone();
        QCOMPARE(pool.activeThreadCount(), 0);
        QCOMPARE(pool.threadCount(), 2);
    }

    void runHandsTheValueBack()
    {
        TaskPool pool(QStringLiteral("values"), 2);
        QFuture<int> value = pool.run([] { return 6 * 7; });
        QCOMPARE(value.result(), 42);
        auto ran = std::make_shared<std::atomic<bool>>(false);
        QFuture<void> done = pool.run([ran] {
            QThread::msleep(20);
            ran->store(true);
        });
        done.waitForFinished();
        QVERIFY(done.isFinished());
        QVERIFY(ran->load());
    }

    void thePoolEndsOnlyAfterItsTasks()
    {
        auto finished = std::make_shared<std::atomic<int>>(0);
        {
            TaskPool pool(QStringLiteral("ending"), 2);
            for (int i = 0; i < 6; ++i)
                pool.start([finished] {
                    QThread::msleep(20);
                    finished->fetch_add(1);
                });
        } // the destructor waits for all six, queued ones included
        QCOMPARE(finished->load(), 6);
    }

    void aTaskThatThrowsDoesNotTakeItsThreadAlong()
    {
        TaskPool pool(QStringLiteral("throwing"), 1);
        pool.start([] { throw std::runtime_error("broken task"); });
        pool.waitForDone(); // it ended, and was counted as ended
        QCOMPARE(pool.activeThreadCount(), 0);
        QCOMPARE(pool.run([] { return 7; }).result(), 7); // the one thread still works
    }

    void itsThreadsAreNamed()
    {
        TaskPool pool(QStringLiteral("consoleTasks-test"), 1);
        QCOMPARE(pool.run([] { return QThread::currentThread()->objectName(); }).result(),
                 QStringLiteral("consoleTasks-test"));
    }
};

QTEST_GUILESS_MAIN(TaskPoolTest)
#include "tst_task_pool.moc"
