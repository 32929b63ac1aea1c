#include "logging.h"

#include <QDir>

#include <QFileInfo>
#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace OncePay::Logging {

namespace {

// Formats each line once for people, keeps the newest kBacklogLines and hands each line to
// the listeners, all under one lock: a listener added with a copy of the backlog misses no
// line and gets none twice.
class LineFeed final : public spdlog::sinks::base_sink<std::mutex> {
public:
    LineFeed()
    {
        // No date, zone or thread (those are the file's): the time, the level, the message.
        formatter_ = std::make_unique<spdlog::pattern_formatter>(
            "%H:%M:%S %l %v", spdlog::pattern_time_type::local, std::string());
    }

    Subscription add(LineListener listener)
    {
        std::lock_guard lock(mutex_);
        const quint64 id = ++m_lastId;
        m_listeners.emplace_back(id, std::move(listener));
        return {id, linesLocked()};
    }

    void remove(quint64 id)
    {
        std::lock_guard lock(mutex_);
        std::erase_if(m_listeners, [id](const auto &l) { return l.first == id; });
    }

    QStringList lines()
    {
        std::lock_guard lock(mutex_);
        return linesLocked();
    }

protected:
    void sink_it_(const spdlog::details::log_msg &msg) override
    {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        const QString line = QString::fromUtf8(formatted.data(), qsizetype(formatted.size()));
        m_lines.push_back(line);
        while (m_lines.size() > size_t(kBacklogLines))
            m_lines.pop_front();
        for (const auto &l : m_listeners)
            l.second(line);
    }
    void flush_() override {}
    // The logger's pattern (set on all its sinks) is for the file and stderr: this one keeps
    // its own.
    void set_pattern_(const std::string &) override {}
    void set_formatter_(std::unique_ptr<spdlog::formatter>) override {}

private:
    QStringList linesLocked() const { return QStringList(m_lines.begin(), m_lines.end()); }

    std::deque<QString> m_lines;
    std::vector<std::pair<quint64, LineListener>> m_listeners;
    quint64 m_lastId = 0;
};

const std::shared_ptr<LineFeed> &feed()
{
    static const auto sink = std::make_shared<LineFeed>();
    return sink;
}

// Sinks that come and go while the program runs are never put into the logger's own sink
// list: spdlog reads that list on every thread without a lock, so changing it while a worker
// logs crashed (a window closing while its sign-out task logged). They hang off this one
// distributing sink instead, which adds and removes under its mutex.
const std::shared_ptr<spdlog::sinks::dist_sink_mt> &attached()
{
    static const auto sink = std::make_shared<spdlog::sinks::dist_sink_mt>();
    return sink;
}

// Without setup() (tests) the default logger lacks the program's own sinks. Its sink list is
// never changed (other threads may be reading it): a logger with the sinks added takes its
// place, and the old one is kept for calls still in it.
void ensureOnDefaultLogger()
{
    static std::mutex mutex;
    static std::vector<std::shared_ptr<spdlog::logger>> retired;
    std::lock_guard lock(mutex);
    auto current = spdlog::default_logger();
    std::vector<spdlog::sink_ptr> sinks = current->sinks();
    bool added = false;
    for (const spdlog::sink_ptr &own : {spdlog::sink_ptr(feed()), spdlog::sink_ptr(attached())})
        if (std::find(sinks.begin(), sinks.end(), own) == sinks.end()) {
            sinks.push_back(own);
            added = true;
        }
    if (!added)
        return;
    auto logger = std::make_shared<spdlog::logger>(current->name(), sinks.begin(), sinks.end());
    logger->set_level(current->level());
    logger->flush_on(current->flush_level());
    retired.push_back(current);
    spdlog::set_default_logger(logger);
}

} // namespace

bool isValidLevel(const QString &level)
{
    return spdlog::level::from_str(level.toStdString()) != spdlog::level::off || level == u"off";
}

bool setup(const Options &options, QString *error)
{
    std::vector<spdlog::sink_ptr> sinks;
    if (options.toStderr)
        sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    bool fileOk = true;
    if (!options.file.isEmpty()) {
        try {
            QDir().mkpath(QFileInfo(options.file).absolutePath());
            sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
                options.file.toStdString(), options.maxFileBytes, options.maxFiles));
        } catch (const spdlog::spdlog_ex &e) {
            fileOk = false;
            if (error)
                *error = QString::fromStdString(e.what());
        }
    }
    sinks.push_back(feed());
    sinks.push_back(attached());
    auto logger = std::make_shared<spdlog::logger>("oncepay", sinks.begin(), sinks.end());
    const auto level = spdlog::level::from_str(options.level.toStdString());
    logger->set_level(level);
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%l%$ [%t] %v");
    logger->flush_on(spdlog::level::warn);
    spdlog::set_default_logger(logger);
    spdlog::flush_every(std::chrono::seconds(2));
    return fileOk;
}

void addSink(const std::shared_ptr<spdlog::sinks::sink> &sink)
{
    ensureOnDefaultLogger();
    attached()->add_sink(sink);
}

void removeSink(const std::shared_ptr<spdlog::sinks::sink> &sink)
{
    attached()->remove_sink(sink);
}

QStringList backlog()
{
    ensureOnDefaultLogger();
    return feed()->lines();
}

Subscription addListener(LineListener listener)
{
    ensureOnDefaultLogger();
    return feed()->add(std::move(listener));
}

void removeListener(quint64 id)
{
    feed()->remove(id);
}

} // namespace OncePay::Logging
