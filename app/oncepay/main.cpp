// oncepay — the command-line face of the engine. Parses arguments, loads the configuration,
// sets up logging and runs one subcommand.

#include "cli.h"
#include "logging/logging.h"

#include <QCoreApplication>

#include <algorithm>

#include <spdlog/spdlog.h>

using namespace OncePay;

namespace {

QList<Cli::Command> allCommands()
{
    QList<Cli::Command> all = Cli::registeredCommands();
    std::sort(all.begin(), all.end(), [](const Cli::Command &a, const Cli::Command &b) {
        return a.path < b.path;
    });
    return all;
}

QString commandName(const Cli::Command &c)
{
    return c.path.join(u' ');
}

void printOverview(QTextStream &out, const QList<Cli::Command> &commands)
{
    out << "Usage: oncepay [--config FILE] [--verbose] COMMAND [ARGS...]\n\n"
           "OncePay makes every payment take effect exactly once: signed channel callbacks,\n"
           "a local message table, a versioned order state machine, reconciliation and a\n"
           "hash-chained audit log.\n\nCommands:\n";
    for (const auto &c : commands)
        out << "  " << commandName(c).leftJustified(22) << c.summary << '\n';
    out << "\nGlobal options:\n"
           "  --config FILE         configuration file (default $XDG_CONFIG_HOME/oncepay/oncepay.ini,\n"
           "                        or $ONCEPAY_CONFIG)\n"
           "  --verbose             debug logging on stderr\n"
           "  --log-level LEVEL     trace, debug, info, warn, error, off\n"
           "  --version             print version and build\n"
           "  -h, --help            this help; `oncepay COMMAND --help` for a command\n"
           "\nExit codes: 0 ok, 1 refused or failed, 2 usage, 3 configuration, 4 database\n"
           "unavailable, 5 database schema newer than this program.\n";
    out.flush();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("oncepay"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ONCEPAY_VERSION));

    const QList<Cli::Command> commands = allCommands();
    Cli::Context ctx;

    // Global options stop at the first word that is not an option: the command.
    QStringList args = app.arguments();
    QString configPath;
    QString logLevel;
    bool verbose = false;
    int i = 1;
    for (; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == u"--config" || a == u"--log-level") {
            if (i + 1 >= args.size()) {
                ctx.err << "oncepay: " << a << " needs a value\n";
                return Cli::Usage;
            }
            (a == u"--config" ? configPath : logLevel) = args[++i];
        } else if (a.startsWith(QStringLiteral("--config="))) {
            configPath = a.mid(9);
        } else if (a == u"--verbose" || a == u"-v") {
            verbose = true;
        } else if (a == u"--version") {
            ctx.out << "oncepay " << ONCEPAY_VERSION << " (build " << ONCEPAY_GIT_ID
                    << ", Qt " << qVersion() << ")\n";
            return Cli::Ok;
        } else if (a == u"--help" || a == u"-h" || a == u"help") {
            printOverview(ctx.out, commands);
            return Cli::Ok;
        } else {
            break;
        }
    }
    const QStringList rest = args.mid(i);
    if (rest.isEmpty()) {
        printOverview(ctx.err, commands);
        return Cli::Usage;
    }

    // Longest command path that prefixes the remaining words.
    const Cli::Command *command = nullptr;
    for (const auto &c : commands) {
        if (rest.size() >= c.path.size() && rest.mid(0, c.path.size()) == c.path
            && (!command || c.path.size() > command->path.size()))
            command = &c;
    }
    if (!command) {
        ctx.err << "oncepay: unknown command '" << rest.join(u' ') << "' (see oncepay --help)\n";
        return Cli::Usage;
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(command->summary);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    parser.addHelpOption();
    if (command->addOptions)
        command->addOptions(parser);
    if (!command->usage.isEmpty())
        parser.addPositionalArgument(QStringLiteral("args"), QString(), command->usage);
    QStringList commandArgs{QStringLiteral("oncepay ") + commandName(*command)};
    commandArgs += rest.mid(command->path.size());
    if (!parser.parse(commandArgs)) {
        ctx.err << "oncepay " << commandName(*command) << ": " << parser.errorText() << '\n';
        return Cli::Usage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        ctx.out << parser.helpText();
        return Cli::Ok;
    }

    auto config = AppConfig::load(configPath);
    if (!config) {
        ctx.err << "oncepay: configuration: " << config.error().message << '\n';
        return Cli::ConfigError;
    }
    ctx.config = std::move(config).value();

    Logging::Options log;
    log.level = verbose ? QStringLiteral("debug") : (logLevel.isEmpty() ? ctx.config.logLevel : logLevel);
    if (!Logging::isValidLevel(log.level)) {
        ctx.err << "oncepay: unknown log level '" << log.level << "'\n";
        return Cli::Usage;
    }
    log.file = ctx.config.logFile;
    // Short commands answer in one clear line; their log goes to the file. Long-running
    // services (gateway, work) and --verbose also log to stderr.
    log.toStderr = verbose || !logLevel.isEmpty() || command->logsToStderr;
    QString logError;
    if (!Logging::setup(log, &logError))
        spdlog::warn("log file {} unavailable: {}", log.file.toStdString(), logError.toStdString());
    if (ctx.config.sourcePath.isEmpty())
        spdlog::debug("no configuration file; using embedded SQLite in {}",
                      ctx.config.dataDir.toStdString());

    const int rc = command->run(ctx, parser);
    ctx.out.flush();
    ctx.err.flush();
    spdlog::shutdown();
    return rc;
}
