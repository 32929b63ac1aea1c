#pragma once

// A thin indeterminate progress bar shown while a page waits for its background query —
// only once the wait has lasted kShowAfterMs. Most reads answer in a few milliseconds, and
// showing the bar moves everything below it: the whole page was laid out and painted
// again twice per search (show, hide), which cost more than the search itself. A page that
// says more about a wait ("Searching…") says it on waitShown, at the same moment.
// Thread contract: GUI thread only.

#include <QProgressBar>
#include <QTimer>

namespace OncePay {

class BusyIndicator : public QProgressBar {
    Q_OBJECT
public:
    static constexpr int kShowAfterMs = 250;

    explicit BusyIndicator(QWidget *parent = nullptr)
        : QProgressBar(parent)
    {
        setRange(0, 0);
        setTextVisible(false);
        setMaximumHeight(6);
        setObjectName(QStringLiteral("busy"));
        hide();
        m_delay.setSingleShot(true);
        m_delay.setInterval(kShowAfterMs);
        connect(&m_delay, &QTimer::timeout, this, [this] {
            show();
            Q_EMIT waitShown();
        });
    }
    void setBusy(bool busy)
    {
        m_busy = busy;
        if (!busy) {
            m_delay.stop();
            hide();
        } else if (isHidden() && !m_delay.isActive()) {
            m_delay.start();
        }
    }
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    // The wait has lasted kShowAfterMs and the bar is now shown.
    void waitShown();

private:
    QTimer m_delay;
    bool m_busy = false;
};

} // namespace OncePay
