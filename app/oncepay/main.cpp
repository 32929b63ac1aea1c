// oncepay — the command-line face of the engine. Parses arguments, loads the configuration,
// sets up logging and runs one subcommand.

#include "buildinfo.h"
#include "cli.h"
#include "logging/logging.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QSqlDatabase>

#include <algorithm>
#include <memory>

#include <spdlog/spdlog.h>

using namespace OncePay;

namespace {

constexpr int kHelpWidth = 79;

QList<Cli::Command> allCommands()
{
    QList<Cli::Command> all = Cli::registeredCommands();
    std::sort(all.begin(), all.end(),
              [](const Cli::Command &a, const Cli::Command &b) { return a.path < b.path; });
    return all;
}

QString commandName(const Cli::Command &c)
{
    return c.path.join(u' ');
}

// `text` wrapped at kHelpWidth: the first line starts with `lead`, the others with
// `indent`; no trailing newline.
QString wrapped(const QString &text, const QString &lead = {}, const QString &indent = {})
{
    QStringList lines;
    QString line = lead;
    bool empty = true;
    for (const QString &word : text.split(u' ', Qt::SkipEmptyParts)) {
        if (!empty && line.size() + 1 + word.size() > kHelpWidth) {
            lines << line;
            line = indent;
            empty = true;
        }
        if (!empty)
            line += u' ';
        line += word;
        empty = false;
    }
    lines << line;
    return lines.join(u'\n');
}

// "  term      description", the description wrapped at kHelpWidth and continued under
// itself. The manual page generator (docs/man/genman.cmake) reads this layout: at least
// two spaces after the term, continuation lines indented deeper than the term.
void printEntry(QTextStream &out, const QString &term, const QString &description, int column)
{
    QString lead = QStringLiteral("  ") + term;
    lead = lead.size() + 2 <= column ? lead.leftJustified(column) : lead + QStringLiteral("  ");
    out << wrapped(description, lead, QString(column, u' ')) << '\n';
}

struct GlobalOption {
    const char *term;
    const char *description;
};

const GlobalOption kGlobalOptions[] = {
    {"--config FILE", "Configuration file. Default: $ONCEPAY_CONFIG, else "
                      "$XDG_CONFIG_HOME/oncepay/oncepay.ini; without one, the embedded SQLite "
                      "databases in $XDG_DATA_HOME/oncepay are used."},
    {"-v, --verbose", "Debug logging, copied to stderr."},
    {"--log-level LEVEL", "trace, debug, info, warn, error or off (overrides [log] level); "
                          "also copies the log to stderr."},
    {"--version", "Print version and build, then exit."},
    {"-h, --help", "This help. `oncepay COMMAND --help` (or `oncepay help COMMAND`) shows a "
                   "command's options."},
};

void printOverview(QTextStream &out, const QList<Cli::Command> &commands)
{
    int column = 24;
    for (const auto &c : commands)
        column = std::max(column, int(commandName(c).size()) + 4);
    column = std::min(column, 32);

    out << "Usage: oncepay [GLOBAL OPTIONS] COMMAND [ARGS...]\n"
           "       oncepay COMMAND --help\n"
           "       oncepay --version\n\n"
           "OncePay makes every payment take effect exactly once: signed channel callbacks,\n"
           "a local message table, a versioned order state machine, reconciliation and a\n"
           "hash-chained audit log. This is the headless engine; oncepay-console is the\n"
           "desktop console.\n\nCommands:\n";
    for (const auto &c : commands)
        printEntry(out, commandName(c), c.summary, column);
    out << "\nGlobal options:\n";
    for (const auto &o : kGlobalOptions)
        printEntry(out, QString::fromLatin1(o.term), QString::fromLatin1(o.description), column);
    out << "\nExit codes:\n";
    for (const auto &e : Cli::exitCodeMeanings())
        printEntry(out, QString::number(e.code), QString::fromLatin1(e.meaning), column);
    out << "\nConfiguration keys, environment variables and files: man oncepay.\n";
    out.flush();
}

// QCommandLineParser's help names argv[0]; the usage line names the command instead, and a
// footer points at the global options and lists the exit codes.
void printCommandHelp(QTextStream &out, const QCommandLineParser &parser,
                      const Cli::Command &command)
{
    QString text = parser.helpText();
    const qsizetype firstLineEnd = text.indexOf(u'\n');
    QString usage =
        QStringLiteral("Usage: oncepay ") + commandName(command) + QStringLiteral(" [options]");
    if (!command.usage.isEmpty())
        usage += u' ' + command.usage;
    text.replace(0, firstLineEnd, usage);
    QStringList codes;
    for (const auto &e : Cli::exitCodeMeanings())
        codes << QStringLiteral("%1 %2").arg(e.code).arg(
            QString::fromLatin1(e.meaning).section(u':', 0, 0));
    out << text << '\n'
        << wrapped(QStringLiteral("Global options (--config FILE, --verbose, --log-level LEVEL) "
                                  "go before the command. Exit codes: ") +
                   codes.join(QStringLiteral(", ")) + QStringLiteral(" (see oncepay --help)."))
        << '\n';
    out.flush();
}

void printVersion(QTextStream &out)
{
    out << "oncepay " << ONCEPAY_VERSION << '\n'
        << "build " << ONCEPAY_BUILD_ID << ", " << ONCEPAY_BUILD_DATE << '\n'
        << "Qt " << qVersion() << " (built with " << QT_VERSION_STR
        << "), SQL drivers: " << QSqlDatabase::drivers().join(u' ') << '\n';
    out.flush();
}

// `audit export --format pdf` draws its report with QtGui (models/audit/auditpdfwriter.h),
// which needs a QGuiApplication; that one command gets it on the offscreen platform, so no
// display is needed. Every other command runs on a plain QCoreApplication.
std::unique_ptr<QCoreApplication> makeApplication(int &argc, char *argv[])
{
    bool audit = false, exportCommand = false, pdf = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        audit = audit || a == "audit";
        exportCommand = exportCommand || (audit && a == "export");
        pdf = pdf || a == "--format=pdf" ||
              (a == "pdf" && i > 1 && qstrcmp(argv[i - 1], "--format") == 0);
    }
    if (audit && exportCommand && pdf) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return std::make_unique<QGuiApplication>(argc, argv);
    }
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace

int main(int argc, char *argv[])
{
    const std::unique_ptr<QCoreApplication> application = makeApplication(argc, argv);
    QCoreApplication &app = *application;
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
        } else if (a.startsWith(QStringLiteral("--log-level="))) {
            logLevel = a.mid(12);
        } else if (a == u"--verbose" || a == u"-v") {
            verbose = true;
        } else if (a == u"--version") {
            printVersion(ctx.out);
            return Cli::Ok;
        } else if (a == u"--help" || a == u"-h" || (a == u"help" && i + 1 == args.size())) {
            printOverview(ctx.out, commands);
            return Cli::Ok;
        } else if (a.startsWith(u'-')) {
            ctx.err << "oncepay: unknown global option '" << a << "' (see oncepay --help)\n";
            return Cli::Usage;
        } else {
            break;
        }
    }
    QStringList rest = args.mid(i);
    // `oncepay help db migrate` is `oncepay db migrate --help`.
    if (rest.size() > 1 && rest.first() == u"help") {
        rest.removeFirst();
        rest << QStringLiteral("--help");
    }
    if (rest.isEmpty()) {
        printOverview(ctx.err, commands);
        return Cli::Usage;
    }

    // Longest command path that prefixes the remaining words.
    const Cli::Command *command = nullptr;
    for (const auto &c : commands) {
        if (rest.size() >= c.path.size() && rest.mid(0, c.path.size()) == c.path &&
            (!command || c.path.size() > command->path.size()))
            command = &c;
    }
    if (!command) {
        // `oncepay db` names the commands that start with it.
        QStringList completions;
        for (const auto &c : commands)
            if (c.path.size() > 1 && c.path.first() == rest.first())
                completions << commandName(c);
        if (!completions.isEmpty())
            ctx.err << "oncepay: '" << rest.first()
                    << "' needs a subcommand: " << completions.join(QStringLiteral(", ")) << '\n';
        else
            ctx.err << "oncepay: unknown command '" << rest.join(u' ')
                    << "' (see oncepay --help)\n";
        return Cli::Usage;
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(command->summary);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    // Not addHelpOption(): its --help-all lists Qt options that mean nothing here.
    parser.addOption(
        {{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help.")});
    if (command->addOptions)
        command->addOptions(parser);
    // The usage line names the positional arguments; an "Arguments:" block only when the
    // command explains them.
    if (!command->argumentsHelp.isEmpty())
        parser.addPositionalArgument(command->usage, command->argumentsHelp, command->usage);
    QStringList commandArgs{QStringLiteral("oncepay ") + commandName(*command)};
    commandArgs += rest.mid(command->path.size());
    if (!parser.parse(commandArgs)) {
        ctx.err << "oncepay " << commandName(*command) << ": " << parser.errorText() << '\n';
        return Cli::Usage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        printCommandHelp(ctx.out, parser, *command);
        return Cli::Ok;
    }

    auto config = AppConfig::load(configPath);
    if (!config) {
        ctx.err << "oncepay: configuration: " << config.error().message << '\n';
        return Cli::ConfigError;
    }
    // A file named by --config or $ONCEPAY_CONFIG that is not there is a typo or a missing
    // mount, never "use the defaults": migrating, simulating or serving an empty local SQLite
    // database instead of the servers it names would answer 200 for callbacks that go nowhere
    // it should. Only the default path may be absent (the embedded databases).
    const bool named = !configPath.isEmpty() || !qEnvironmentVariableIsEmpty("ONCEPAY_CONFIG");
    if (named && !config->fromFile) {
        ctx.err << "oncepay: configuration: " << config->sourcePath << " does not exist (named by "
                << (configPath.isEmpty() ? "$ONCEPAY_CONFIG" : "--config")
                << "); nothing was done\n";
        return Cli::ConfigError;
    }
    ctx.config = std::move(config).value();

    Logging::Options log;
    log.level =
        verbose ? QStringLiteral("debug") : (logLevel.isEmpty() ? ctx.config.logLevel : logLevel);
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
    if (!ctx.config.fromFile)
        spdlog::debug("no configuration file; using embedded SQLite in {}",
                      ctx.config.dataDir.toStdString());

    const int rc = command->run(ctx, parser);
    ctx.out.flush();
    ctx.err.flush();
    spdlog::shutdown();
    return rc;
}
