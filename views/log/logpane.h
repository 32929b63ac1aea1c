#pragma once

// A read-only pane showing what the process logs through spdlog: first the lines logged before
// it was made (the backlog kept by services/logging: start, profiles, sign-in), then each new
// line, in order. A line logged on the GUI thread shows at once; lines logged on other threads
// are collected and shown together by one queued call, so a burst of logging is one update,
// not an event per line.
// Thread contract: the widget lives on the GUI thread. It appends under the log's lock when
// the GUI thread logs: nothing connected to it may log.

#include <QPlainTextEdit>
#include <QStringList>

#include <mutex>

namespace OncePay {

class LogPane : public QPlainTextEdit {
    Q_OBJECT
public:
    static constexpr int kMaxLines = 2000; // the oldest go first

    explicit LogPane(QWidget *parent = nullptr);
    ~LogPane() override;

public Q_SLOTS:
    void appendLine(const QString &line);

private:
    void showWaiting();

    quint64 m_listener = 0;
    std::mutex m_mutex;    // guards the two below: filled by the logging threads
    QStringList m_waiting; // logged, not yet shown (at most kMaxLines)
    bool m_showPosted = false;
};

} // namespace OncePay
