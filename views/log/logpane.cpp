#include "logpane.h"

#include "logging/logging.h"

#include <QMetaObject>
#include <QPointer>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <mutex>

namespace OncePay {

namespace {

class PaneSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit PaneSink(LogPane *pane)
        : m_pane(pane)
    {}
    void detach()
    {
        std::lock_guard lock(mutex_);
        m_pane = nullptr;
    }

protected:
    void sink_it_(const spdlog::details::log_msg &msg) override
    {
        if (!m_pane)
            return;
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        const QString line =
            QString::fromUtf8(formatted.data(), qsizetype(formatted.size())).trimmed();
        QMetaObject::invokeMethod(m_pane, "appendLine", Qt::QueuedConnection, Q_ARG(QString, line));
    }
    void flush_() override {}

private:
    QPointer<LogPane> m_pane;
};

} // namespace

LogPane::LogPane(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(2000);
    setObjectName(QStringLiteral("logPane"));
    auto sink = std::make_shared<PaneSink>(this);
    sink->set_pattern("%H:%M:%S %l %v");
    m_sink = sink;
    Logging::addSink(m_sink);
}

LogPane::~LogPane()
{
    Logging::removeSink(m_sink);
    static_cast<PaneSink *>(m_sink.get())->detach();
}

void LogPane::appendLine(const QString &line)
{
    appendPlainText(line);
}

} // namespace OncePay
