#pragma once

// The `oncepay` command: a table of subcommands, each a function over parsed arguments.
// Commands print results and turn service errors into words and exit codes; they hold no
// business rule (those live in services/).

#include "config/appconfig.h"
#include "core/result.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace OncePay::Cli {

// Documented in `oncepay --help`, oncepay(1) and README.md (all from exitCodeMeanings()).
enum ExitCode {
    Ok = 0,
    Failed = 1,      // the operation was refused or found a problem (verify failed, ...)
    Usage = 2,       // bad arguments
    ConfigError = 3, // configuration file or environment is malformed
    Unavailable = 4, // a database or server could not be reached
    SchemaNewer = 5, // the database is newer than this program
};

struct Context {
    AppConfig config;
    QTextStream out{stdout};
    QTextStream err{stderr};
};

struct Command {
    QStringList path; // {"db", "migrate"}
    QString summary;
    QString usage; // positional arguments as shown in help
    std::function<void(QCommandLineParser &)> addOptions;
    std::function<int(Context &, const QCommandLineParser &)> run;
    bool logsToStderr = false;  // long-running services log to stderr as well as the file
    QString argumentsHelp = {}; // what the positional arguments (usage) are, for the help
};

// Each *commands.cpp registers its commands at static-initialisation time:
//   static const bool registered = Cli::registerCommands(myCommands());
bool registerCommands(const QList<Command> &commands);
const QList<Command> &registeredCommands();

// Maps an error to its exit code and prints "oncepay: <message>".
int fail(Context &ctx, const Error &error);
int exitCodeFor(const Error &error);

// Who runs this command, for audit rows: "cli:<OS account>@<host>", the account from the
// system's user database (getpwuid(geteuid())), never $USER, which anyone sets to anything.
QString operatorId();

// Every exit code with its meaning, in order, for the help and the manual page.
struct ExitCodeMeaning {
    int code;
    const char *meaning;
};
const QList<ExitCodeMeaning> &exitCodeMeanings();

} // namespace OncePay::Cli
