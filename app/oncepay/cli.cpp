#include "cli.h"

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

} // namespace OncePay::Cli
