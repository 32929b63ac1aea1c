#pragma once

// What the program logs (spdlog's default logger) while a LogCapture lives, one
// "<level> <message>" line each; the previous logger is put back when it goes, and the whole
// capture is printed if the test function failed meanwhile.
// Thread contract: one at a time; the code under test may log from any thread while the test
// reads what was logged.

#include <QString>
#include <QStringList>
#include <QTest>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

namespace OncePay::Test {

class LogCapture {
public:
    LogCapture()
        : m_sink(std::make_shared<Sink>())
        , m_previous(spdlog::default_logger())
    {
        m_sink->set_pattern("%l %v");
        spdlog::set_default_logger(std::make_shared<spdlog::logger>("capture", m_sink));
    }
    // A test function that failed with it alive prints everything captured: QVERIFY2 keeps
    // only the first kilobyte of a message, and a log is what says why a pool or a page did
    // what it did.
    ~LogCapture()
    {
        spdlog::set_default_logger(m_previous);
        if (QTest::currentTestFailed())
            std::fprintf(stderr, "--- logged while %s ran ---\n%s--- end of log ---\n",
                         QTest::currentTestFunction(), m_sink->captured().c_str());
    }
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    // Everything logged so far (read under the lock the logging threads write under).
    QString text() const { return QString::fromStdString(m_sink->captured()); }
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
    // Appends each formatted line to a string; base_sink holds its mutex around sink_it_, and
    // captured() takes the same one.
    class Sink : public spdlog::sinks::base_sink<std::mutex> {
    public:
        std::string captured()
        {
            std::lock_guard<std::mutex> lock(this->mutex_);
            return m_text;
        }

    protected:
        void sink_it_(const spdlog::details::log_msg &msg) override
        {
            spdlog::memory_buf_t formatted;
            this->formatter_->format(msg, formatted);
            m_text.append(formatted.data(), formatted.size());
        }
        void flush_() override {}

    private:
        std::string m_text;
    };

    std::shared_ptr<Sink> m_sink;
    std::shared_ptr<spdlog::logger> m_previous;
};

} // namespace OncePay::Test
