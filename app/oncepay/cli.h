#pragma once

// The `oncepay` command: a table of subcommands, each a function over parsed arguments.
// Commands print results and turn service errors into words and exit codes; they hold no
// business rule (those live in services/).

#include "config/appconfig.h"
#include "core/actor.h"
#include "core/result.h"

#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace OncePay {
class Connection;
}

namespace OncePay::Cli {

// Documented in `oncepay --help`, oncepay(1) and README.md (all from exitCodeMeanings()).
enum ExitCode {
    Ok = 0,
    Failed = 1,      // the operation was refused or found a problem (verify failed, ...)
    Usage = 2,       // bad arguments
    ConfigError = 3, // configuration file or environment is malformed; a login lacks a grant
    Unavailable = 4, // a database or server could not be reached
    SchemaNewer = 5, // the database is newer than this program
    // a database server refused the login (wrong user or password, no such database)
    LoginRefused = 6,
};

// What `oncepay work` and `oncepay gateway` end with when starting them again would not help
// (a malformed setting, a newer schema, a refused login): their systemd units'
// RestartPreventExitStatus list exactly these (tst_worker_unit_file). Their other failures (1 an
// unexpected fault, 4 a missing SQL driver: installing it cures that) are restarted.
inline constexpr int kPermanentExitCodes[] = {ConfigError, SchemaNewer, LoginRefused};

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

// The first line of stdin, without its line end; empty at end of input. On a terminal,
// `prompt` goes to stderr first and the line is read without echo.
QString readStdinSecret(const char *prompt);

// Signs the staff account `user` in with its password, read from the first line of stdin
// (readStdinSecret), through StaffService::authenticate: Argon2id, the lock after repeated
// failures, and an audit row for the success or failure, which records `where`. Every command
// that acts for a staff account (fix --user, audit --as) signs in here. Refused: Invalid with
// no user or no password (nothing tried, nothing counted); Forbidden "sign-in refused for X
// (wrong password, locked or disabled)" for a wrong password, a locked, disabled or unknown
// account (one answer for all, as the console gives). The Actor carries the account's role.
Result<Actor> signInFromStdin(const Connection &c, const QString &user, const QString &where);

// Every exit code with its meaning, in order, for the help and the manual page.
struct ExitCodeMeaning {
    int code;
    const char *meaning;
};
const QList<ExitCodeMeaning> &exitCodeMeanings();

} // namespace OncePay::Cli
