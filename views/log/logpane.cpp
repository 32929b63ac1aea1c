#include "logpane.h"

#include "logging/logging.h"

#include <QMetaObject>

namespace OncePay {

LogPane::LogPane(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(kMaxLines);
    setObjectName(QStringLiteral("logPane"));
    // Called under the log's lock, in the order the lines were logged, on whatever thread
    // logged. The line only joins the waiting list here; one queued call shows what waits, on
    // the GUI thread, outside the log's lock — so whatever the pane's own signals lead to may
    // log in turn, and a burst of lines (from any thread, the GUI thread included) is one update.
    // Posting to `this` is safe: the destructor removes the listener first, and removal waits
    // for a call in progress; a show posted and not yet run dies with the widget.
    Logging::Subscription s = Logging::addListener([this](const QString &line) {
        std::lock_guard lock(m_mutex);
        m_waiting << line;
        if (m_waiting.size() > kMaxLines) // the pane would drop it anyway
            m_waiting.removeFirst();
        if (m_showPosted)
            return;
        m_showPosted = true;
        QMetaObject::invokeMethod(
            this, [this] { showWaiting(); }, Qt::QueuedConnection);
    });
    m_listener = s.id;
    if (!s.backlog.isEmpty())
        appendPlainText(s.backlog.join(u'\n'));
}

LogPane::~LogPane()
{
    Logging::removeListener(m_listener);
}

void LogPane::showWaiting()
{
    QStringList lines;
    {
        std::lock_guard lock(m_mutex);
        lines.swap(m_waiting);
        m_showPosted = false;
    }
    if (!lines.isEmpty())
        appendPlainText(lines.join(u'\n'));
}

} // namespace OncePay
