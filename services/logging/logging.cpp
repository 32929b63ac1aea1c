#include "logging.h"

#include <QDir>

#include <QFileInfo>
#include <algorithm>

#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace OncePay::Logging {

namespace {

// Sinks that come and go while the program runs (a log pane per window) are never put into
// the logger's own sink list: spdlog reads that list on every thread without a lock, so
// changing it while a worker logs crashed (a window closing while its sign-out task logged).
// They hang off this one distributing sink instead, which adds and removes under its mutex.
const std::shared_ptr<spdlog::sinks::dist_sink_mt> &attached()
{
    static const auto sink = std::make_shared<spdlog::sinks::dist_sink_mt>();
    return sink;
}

bool hasAttached(const spdlog::logger &logger)
{
    const auto &sinks = logger.sinks();
    return std::find(sinks.begin(), sinks.end(), attached()) != sinks.end();
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
    // Without setup() (tests) the default logger lacks the distributing sink: it is added
    // once to that logger and never removed.
    if (auto logger = spdlog::default_logger(); !hasAttached(*logger))
        logger->sinks().push_back(attached());
    attached()->add_sink(sink);
}

void removeSink(const std::shared_ptr<spdlog::sinks::sink> &sink)
{
    attached()->remove_sink(sink);
}

} // namespace OncePay::Logging
