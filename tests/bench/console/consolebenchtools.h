#pragma once

// What the console benchmark's measurements share (bench_console.cpp, consolebenchhop.cpp): a
// fatal error, a median, the GUI thread's heartbeat, a wait that sleeps in the event loop and
// the application, which clocks the end of the last layout or paint and can tell where the GUI
// thread's time in a step went (the probe).
// Thread contract: GUI thread.

#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QHash>
#include <QMap>
#include <QMetaEnum>
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
        // (Named before: the event may delete its receiver.)
        const QString key = m_armed
                                ? QStringLiteral("%1 %2 %3")
                                      .arg(int(type))
                                      .arg(QString::fromLatin1(receiver->metaObject()->className()),
                                           receiver->objectName())
                                : QString();
        const qint64 begin = m_armed ? m_clock.nsecsElapsed() : 0;
        if (m_armed)
            m_inner.push_back(0);
        const bool handled = QApplication::notify(receiver, event);
        if ((type == QEvent::Paint || type == QEvent::UpdateRequest ||
             type == QEvent::LayoutRequest) &&
            receiver->isWidgetType())
            m_drawnNs = m_clock.nsecsElapsed();
        if (m_armed && !m_inner.empty())
            account(key, begin);
        return handled;
    }
    // The probe (ONCEPAY_BENCH_PROBE=<row name prefix>): while armed, each event's own time
    // (its handling less the events sent inside it) is summed per event type and receiver, the
    // longest one's whole handling kept, and printed per row at the end — where the GUI thread's
    // part of a measured step goes. A profiling aid: the published figures are from runs without
    // it.
    void arm(const QString &row)
    {
        static const QString prefix = qEnvironmentVariable("ONCEPAY_BENCH_PROBE");
        m_armed = !prefix.isEmpty() && row.startsWith(prefix);
        m_row = row;
        m_inner.clear();
    }
    void disarm()
    {
        if (m_armed)
            ++m_probed[m_row].runs;
        m_armed = false;
    }
    void printProbe() const
    {
        for (auto r = m_probed.cbegin(); r != m_probed.cend(); ++r) {
            const Probed &p = r.value();
            std::vector<std::pair<qint64, QString>> parts;
            qint64 all = 0;
            for (auto k = p.selfNs.cbegin(); k != p.selfNs.cend(); ++k) {
                parts.emplace_back(k.value(), k.key());
                all += k.value();
            }
            std::sort(parts.rbegin(), parts.rend());
            std::printf("probe: %s — GUI events' own time %.3f ms a run (%d runs); per event"
                        " type and receiver: own time a run, events a run, the longest one\n",
                        qPrintable(r.key()), all / 1e6 / std::max(1, p.runs), p.runs);
            const QMetaEnum types = QMetaEnum::fromType<QEvent::Type>();
            for (size_t i = 0; i < parts.size() && i < 25; ++i) {
                const QString &key = parts[i].second; // "<type> <class> <object name>"
                const qsizetype space = key.indexOf(u' ');
                const char *type = types.valueToKey(key.left(space).toInt());
                std::printf("  %8.3f ms  %7.1f  %8.2f ms  %-16s %s\n",
                            parts[i].first / 1e6 / std::max(1, p.runs),
                            double(p.count.value(key)) / std::max(1, p.runs),
                            p.longestNs.value(key) / 1e6, type ? type : qPrintable(key.left(space)),
                            qPrintable(key.mid(space + 1)));
            }
        }
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
    struct Probed {
        QHash<QString, qint64> selfNs;
        QHash<QString, int> count;
        QHash<QString, qint64> longestNs; // the longest single event's whole handling
        int runs = 0;
    };
    void account(const QString &key, qint64 begin)
    {
        const qint64 total = m_clock.nsecsElapsed() - begin;
        const qint64 inner = m_inner.back();
        m_inner.pop_back();
        if (!m_inner.empty())
            m_inner.back() += total;
        Probed &p = m_probed[m_row];
        p.selfNs[key] += total - inner;
        p.longestNs[key] = std::max(p.longestNs.value(key), total);
        ++p.count[key];
    }
    QElapsedTimer m_clock;
    qint64 m_drawnNs = 0;
    bool m_armed = false;
    QString m_row;
    std::vector<qint64> m_inner;
    QMap<QString, Probed> m_probed;
};

} // namespace OncePay::Bench
