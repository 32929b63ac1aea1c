#pragma once

// spdlog set-up shared by both programs: a rotating file plus stderr, extra sinks attached
// later, and the lines for people (the console's log pane) with a backlog of the newest ones.
// Secrets, card data and passwords are never logged — callers log references (callback ids,
// order ids, profiles without their password), not payloads.
// Thread contract: call setup() from main() before any other thread logs (the console calls
// it twice: with the defaults first, then with the configuration's level and file; the backlog
// lives on). Everything else may be called from any thread.

#include <QString>
#include <QStringList>

#include <functional>
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

// Lines for people, "14:03:07 info <message>": what the log pane shows. From setup() on (in a
// program without it, from the first addListener() or backlog()), the newest kBacklogLines
// are kept in memory, so a pane opened later starts with what was logged before it: the
// start, the profiles, the sign-in.
inline constexpr int kBacklogLines = 500;

// The kept lines, oldest first.
QStringList backlog();

// Called with each line as it is logged, on the thread that logs it and under the lock that
// orders the lines: it must be quick, must not wait for another thread and must not log.
using LineListener = std::function<void(const QString &line)>;

struct Subscription {
    quint64 id = 0;      // for removeListener()
    QStringList backlog; // the kept lines at the moment the listener was added
};

// The backlog and the listener together see every line exactly once: none is lost between
// them, none comes twice.
Subscription addListener(LineListener listener);
// Once this returns the listener is not running and is never called again.
void removeListener(quint64 id);

} // namespace OncePay::Logging
