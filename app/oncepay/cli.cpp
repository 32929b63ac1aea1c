#include "cli.h"

#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace OncePay::Cli {

namespace {
QList<Command> &registry()
{
    static QList<Command> commands;
    return commands;
}
} // namespace

bool registerCommands(const QList<Command> &commands)
{
    registry() += commands;
    return true;
}

const QList<Command> &registeredCommands()
{
    return registry();
}

QString operatorId()
{
    // cron, systemd and `env -i` leave $USER unset; anyone can set it to anything.
    const uid_t uid = geteuid();
    const passwd *pw = getpwuid(uid);
    const QString name = pw && pw->pw_name && *pw->pw_name ? QString::fromLocal8Bit(pw->pw_name)
                                                           : QStringLiteral("uid%1").arg(uid);
    return QStringLiteral("cli:%1@%2").arg(name, QSysInfo::machineHostName());
}

int exitCodeFor(const Error &error)
{
    switch (error.code) {
    case ErrorCode::Unavailable: return Unavailable;
    case ErrorCode::Newer: return SchemaNewer;
    default: return Failed;
    }
}

int fail(Context &ctx, const Error &error)
{
    ctx.err << "oncepay: " << error.message << Qt::endl;
    return exitCodeFor(error);
}

const QList<ExitCodeMeaning> &exitCodeMeanings()
{
    static const QList<ExitCodeMeaning> meanings = {
        {Ok, "ok"},
        {Failed, "refused or failed: the request was refused (stale, not allowed, invalid) or "
                 "a check found a problem (e.g. audit verify found an altered row)"},
        {Usage, "usage: unknown command, unknown option or a bad or missing argument"},
        {ConfigError, "configuration: the configuration file or environment is malformed"},
        {Unavailable, "unavailable: a database or server could not be reached"},
        {SchemaNewer, "schema newer: a database was migrated by a newer OncePay; upgrade first"},
    };
    return meanings;
}

} // namespace OncePay::Cli
