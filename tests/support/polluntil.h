#pragma once

// Polls a condition that other threads (or processes) make true, without an event loop.

#include <QDeadlineTimer>
#include <QThread>

namespace OncePay::Test {

// Polls `done` every 20 ms until it holds (true) or `ms` pass (false).
template <typename Fn> bool pollUntil(Fn done, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(20);
    }
    return true;
}

} // namespace OncePay::Test
