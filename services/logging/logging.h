#pragma once

// spdlog set-up shared by both programs: a rotating file plus stderr, and extra sinks (the
// console's log pane) attached later. Secrets, card data and passwords are never logged —
// callers log references (callback ids, order ids), not payloads.
// Thread contract: call setup() once from main() before any other thread logs.

#include <QString>

#include <memory>

namespace spdlog::sinks {
class sink;
}

namespace OncePay::Logging {

struct Options {
    QString level = QStringLiteral("info"); // trace, debug, info, warn, error, off
    QString file;                           // rotating file; empty = no file
    bool toStderr = true;
    int maxFileBytes = 5 * 1024 * 1024;
    int maxFiles = 5;
};

// Returns false (and still logs to stderr) when the log file cannot be opened.
bool setup(const Options &options, QString *error = nullptr);

void addSink(const std::shared_ptr<spdlog::sinks::sink> &sink);
void removeSink(const std::shared_ptr<spdlog::sinks::sink> &sink);

bool isValidLevel(const QString &level);

} // namespace OncePay::Logging
