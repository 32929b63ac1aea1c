#include "consolebenchhop.h"

#include "consolebenchtools.h"

namespace OncePay::Bench {

BareHandOffThread::BareHandOffThread()
    : m_thread([this] {
        for (;;) {
            std::function<void()> task;
            {
                std::unique_lock lock(m_mutex);
                m_ready.wait(lock, [this] { return m_quit || m_task; });
                if (m_quit)
                    return;
                task = std::exchange(m_task, nullptr);
            }
            task();
        }
    })
{}

BareHandOffThread::~BareHandOffThread()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_ready.notify_one();
    m_thread.join();
}

void BareHandOffThread::run(std::function<void()> task)
{
    {
        std::lock_guard lock(m_mutex);
        m_task = std::move(task);
    }
    m_ready.notify_one();
}

double handOffMs(const std::function<void(std::function<void()> answer)> &handOff)
{
    QObject context;
    bool done = false;
    QElapsedTimer t;
    t.start();
    handOff([&context, &done] {
        QMetaObject::invokeMethod(
            &context, [&done] { done = true; }, Qt::QueuedConnection);
    });
    return waitFor([&done] { return done; }, t);
}

} // namespace OncePay::Bench
