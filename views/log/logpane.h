#pragma once

// A read-only pane showing what the process logs through spdlog. The sink may be called from
// any thread; lines reach the widget queued on the GUI thread.
// Thread contract: the widget lives on the GUI thread; the sink is thread-safe.

#include <QPlainTextEdit>

#include <memory>

namespace spdlog::sinks {
class sink;
}

namespace OncePay {

class LogPane : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LogPane(QWidget *parent = nullptr);
    ~LogPane() override;

public Q_SLOTS:
    void appendLine(const QString &line);

private:
    std::shared_ptr<spdlog::sinks::sink> m_sink;
};

} // namespace OncePay
