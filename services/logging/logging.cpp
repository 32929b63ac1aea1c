#include "logging.h"

#include <QDir>
#include <QFileInfo>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace OncePay::Logging {

bool isValidLevel(const QString &level)
{
    return spdlog::level::from_str(level.toStdString()) != spdlog::level::off
           || level == u"off";
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
    spdlog::default_logger()->sinks().push_back(sink);
}

void removeSink(const std::shared_ptr<spdlog::sinks::sink> &sink)
{
    auto &sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());
}

} // namespace OncePay::Logging
