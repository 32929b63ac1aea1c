#pragma once

// The hand-off under every background read of the console, taken apart (bench step "hop"): a
// task handed to another thread that answers with one queued call on the GUI thread, timed from
// the hand-off to the answer run. Three kinds of other thread, each measured after the same
// quiet as every operation of the benchmark:
//   - BareHandOffThread: a std::thread waiting on a condition variable — the machine's wake-up
//     and Qt's queued call only (what a dedicated reader thread could cost);
//   - the console's task pool (consoleTaskPool(), a QThreadPool) with the same queued call;
//   - runBackgroundQuery with an empty read: the pool, its relay object and the pool thread's
//     kept connection — what every read of the console pays before its SQL.
// Thread contract: GUI thread; BareHandOffThread::run hands `task` to its own thread.

#include <QObject>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace OncePay::Bench {

// One thread that runs the tasks handed to it, one at a time, and waits on a condition variable
// in between.
class BareHandOffThread {
public:
    BareHandOffThread();
    ~BareHandOffThread();
    BareHandOffThread(const BareHandOffThread &) = delete;
    BareHandOffThread &operator=(const BareHandOffThread &) = delete;

    void run(std::function<void()> task);

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::function<void()> m_task;
    bool m_quit = false;
    std::thread m_thread;
};

// Milliseconds from `handOff(answer)` to `answer`'s queued call run on the GUI thread, the GUI
// thread sleeping in its event loop meanwhile. `handOff` must run `answer` on another thread.
double handOffMs(const std::function<void(std::function<void()> answer)> &handOff);

} // namespace OncePay::Bench
