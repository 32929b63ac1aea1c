#pragma once

// A read-only pane showing what the process logs through spdlog: first the lines logged before
// it was made (the backlog kept by services/logging: start, profiles, sign-in), then each new
// line, in order. Lines logged on any thread (the GUI thread too) are collected and shown
// together by one queued call on the GUI thread, so a burst of logging is one update, not an
// event per line, and the pane never touches the widget while the log's lock is held.
// Thread contract: the widget lives on the GUI thread; anything connected to it may log.

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

private:
    void showWaiting();

    quint64 m_listener = 0;
    std::mutex m_mutex;    // guards the two below: filled by the logging threads
    QStringList m_waiting; // logged, not yet shown (at most kMaxLines)
    bool m_showPosted = false;
};

} // namespace OncePay
