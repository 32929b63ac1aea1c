#pragma once

// What the program logs (spdlog's default logger) while a LogCapture lives, one
// "<level> <message>" line each; the previous logger is put back when it goes.
// Thread contract: one at a time; the code under test may log from any thread.

#include <QString>
#include <QStringList>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>

namespace OncePay::Test {

class LogCapture {
public:
    LogCapture()
        : m_previous(spdlog::default_logger())
    {
        auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(m_captured);
        sink->set_pattern("%l %v");
        spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", sink));
    }
    ~LogCapture() { spdlog::set_default_logger(m_previous); }
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    // Everything logged so far.
    QString text() const
    {
        spdlog::default_logger()->flush();
        return QString::fromStdString(m_captured.str());
    }
    // The messages logged at `level` ("error", "warning", "info", ...).
    QStringList lines(const QString &level) const
    {
        QStringList out;
        for (const QString &line : text().split(u'\n'))
            if (line.startsWith(level + u' '))
                out << line.mid(level.size() + 1);
        return out;
    }

private:
    std::ostringstream m_captured;
    std::shared_ptr<spdlog::logger> m_previous;
};

} // namespace OncePay::Test
