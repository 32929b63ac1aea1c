#pragma once

// What the console benchmark's measurements share (bench_console.cpp, consolebenchhop.cpp): a
// fatal error, a median, the GUI thread's heartbeat, a wait that sleeps in the event loop and
// the application, which clocks the end of the last layout or paint.
// Thread contract: GUI thread.

#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace OncePay::Bench {

[[noreturn]] inline void die(const QString &what)
{
    std::fprintf(stderr, "bench: %s\n", qPrintable(what));
    std::exit(1);
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty()      ? 0
           : v.size() % 2 ? v[v.size() / 2]
                          : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The longest time the GUI thread went without running its event loop.
class Heartbeat {
public:
    Heartbeat()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            m_maxGapNs = std::max(m_maxGapNs, m_clock.nsecsElapsed() - m_last);
            m_last = m_clock.nsecsElapsed();
        });
        m_clock.start();
        m_timer.start();
    }
    void reset()
    {
        m_last = m_clock.nsecsElapsed();
        m_maxGapNs = 0;
    }
    double maxGapMs() const { return std::max(m_maxGapNs, m_clock.nsecsElapsed() - m_last) / 1e6; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_maxGapNs = 0;
};

// Waits until `done` is true, the GUI thread sleeping in its event loop between events as
// in the program (the heartbeat wakes it every millisecond); returns elapsed ms since `t`
// started. It used to spin on processEvents(), which kept one of the two cores busy and
// slowed the pool thread doing the program's SQL.
inline double waitFor(const std::function<bool()> &done, QElapsedTimer &t, int timeoutMs = 120000)
{
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            die(QStringLiteral("timed out"));
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return t.nsecsElapsed() / 1e6;
}

// The console's application, clocking when a widget's layout request, update request or paint
// was last handled to its end: "until painted" is until the last of them, however many passes
// of the event loop a page takes (a layout request posted while another is handled runs in a
// later pass; one processEvents() after the page's answer saw only the first pass).
class BenchApplication : public QApplication {
public:
    BenchApplication(int &argc, char **argv)
        : QApplication(argc, argv)
    {
        setCursorFlashTime(0); // a blinking caret is no page's layout or paint
        m_clock.start();
    }
    bool notify(QObject *receiver, QEvent *event) override
    {
        const QEvent::Type type = event->type();
        const bool handled = QApplication::notify(receiver, event);
        if ((type == QEvent::Paint || type == QEvent::UpdateRequest ||
             type == QEvent::LayoutRequest) &&
            receiver->isWidgetType())
            m_drawnNs = m_clock.nsecsElapsed();
        return handled;
    }
    qint64 nowNs() const { return m_clock.nsecsElapsed(); }
    // Lets what the previous step left to do (its repaint, the search box's clear button fading
    // in) happen before the next starts: 30 ms, the last 20 without a layout or paint.
    void settle() const
    {
        QElapsedTimer s;
        s.start();
        while (s.elapsed() < 30 || nowNs() - m_drawnNs < 20'000'000) {
            if (s.elapsed() > 10000)
                die(QStringLiteral("something kept laying out or painting for 10 s"));
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        }
    }
    qint64 drawnNs() const { return m_drawnNs; }
    // Ms from `startNs` (nowNs()) to the end of the last layout or paint after it; -1 if none.
    double drawnSinceMs(qint64 startNs) const
    {
        return m_drawnNs > startNs ? (m_drawnNs - startNs) / 1e6 : -1;
    }

private:
    QElapsedTimer m_clock;
    qint64 m_drawnNs = 0;
};

} // namespace OncePay::Bench
