// oncepay staff add | disable | enable | reset-password | set-role | list — the administrator's
// tool for staff accounts. Passwords come from stdin (first line; prompted without echo on a
// terminal), never from an argument, which other users could read in the process list.

#include "auth/staffservice.h"
#include "cli.h"
#include "db/migrator.h"

#include <QDateTime>
#include <QSysInfo>

#include <cstdio>
#include <unistd.h>

namespace OncePay::Cli {

namespace {

Actor operatorActor()
{
    // The operator on the server already holds the database credentials: the system role.
    return Actor::system(operatorId());
}

Result<QString> readPassword()
{
    const QString first = readStdinSecret("New password: ");
    if (isatty(STDIN_FILENO) && readStdinSecret("Again: ") != first)
        return makeError(ErrorCode::Invalid, QStringLiteral("the two passwords differ"));
    if (first.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("no password on stdin"));
    return first;
}

QString when(qint64 ms)
{
    return ms ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate)
              : QStringLiteral("-");
}

void printAccount(QTextStream &out, const StaffAccount &a)
{
    out << a.username.leftJustified(20) << ' ' << staffRoleName(a.role).leftJustified(8) << ' '
        << (a.disabled ? "disabled"
            : a.locked ? "locked  " // by the database's clock (StaffService::list)
                       : "active  ")
        << ' ' << when(a.createdAt) << ' ' << a.displayName << '\n';
}

// An account a command changed, as `staff list` would show it: read again, so that its lock is
// judged by the database's clock (StaffService::find) — the changed row itself says nothing
// of it. If the read fails, the row as the change returned it.
void printChanged(QTextStream &out, const Connection &c, const StaffAccount &a)
{
    const auto now = StaffService(c, Clock::system()).find(a.username);
    printAccount(out, now ? *now : a);
}

int oneUser(Context &ctx, const QCommandLineParser &p, const char *command, QString *user)
{
    if (p.positionalArguments().size() != 1) {
        ctx.err << "oncepay staff " << command << ": give exactly one USER\n";
        return Usage;
    }
    *user = p.positionalArguments().constFirst();
    return Ok;
}

int add(Context &ctx, const QCommandLineParser &p)
{
    QString user;
    if (int rc = oneUser(ctx, p, "add", &user); rc != Ok)
        return rc;
    const auto role = parseStaffRole(p.value(QStringLiteral("role")));
    if (!role)
        return ctx.err << "oncepay staff add: --role must be agent, finance, auditor or admin\n",
               Usage;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-staff"));
    if (!c)
        return fail(ctx, c.error());
    auto password = readPassword();
    if (!password)
        return fail(ctx, password.error());
    auto a = StaffService(*c, Clock::system())
                 .add({user, p.value(QStringLiteral("name")), *role}, *password, operatorActor());
    if (!a)
        return fail(ctx, a.error());
    ctx.out << "added ";
    printChanged(ctx.out, *c, *a);
    return Ok;
}

int disable(Context &ctx, const QCommandLineParser &p)
{
    QString user;
    if (int rc = oneUser(ctx, p, "disable", &user); rc != Ok)
        return rc;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-staff"));
    if (!c)
        return fail(ctx, c.error());
    // A refusal (unknown account, the last enabled administrator) is audited by the service
    // and exits 1, like set-role's. The reason is the service's rule too: a missing one goes
    // to the service (and is audited) and exits 2, as a missing required option does.
    auto a = StaffService(*c, Clock::system())
                 .disable(user, operatorActor(), p.value(QStringLiteral("reason")));
    if (!a && a.error().reason == u"reason_required")
        return ctx.err << "oncepay staff disable: --reason is required\n", Usage;
    if (!a)
        return fail(ctx, a.error());
    ctx.out << "disabled ";
    printChanged(ctx.out, *c, *a);
    return Ok;
}

int enable(Context &ctx, const QCommandLineParser &p)
{
    QString user;
    if (int rc = oneUser(ctx, p, "enable", &user); rc != Ok)
        return rc;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-staff"));
    if (!c)
        return fail(ctx, c.error());
    // As disable: a refusal (unknown account, enabled already) is audited by the service and
    // exits 1; a missing reason goes to the service too (audited) and exits 2.
    auto a = StaffService(*c, Clock::system())
                 .enable(user, operatorActor(), p.value(QStringLiteral("reason")));
    if (!a && a.error().reason == u"reason_required")
        return ctx.err << "oncepay staff enable: --reason is required\n", Usage;
    if (!a)
        return fail(ctx, a.error());
    ctx.out << "enabled ";
    printChanged(ctx.out, *c, *a);
    return Ok;
}

int resetPassword(Context &ctx, const QCommandLineParser &p)
{
    QString user;
    if (int rc = oneUser(ctx, p, "reset-password", &user); rc != Ok)
        return rc;
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-staff"));
    if (!c)
        return fail(ctx, c.error());
    StaffService staff(*c, Clock::system());
    if (auto exists = staff.find(user); !exists)
        return fail(ctx, exists.error());
    auto password = readPassword();
    if (!password)
        return fail(ctx, password.error());
    auto a = staff.resetPassword(user, *password, operatorActor());
    if (!a)
        return fail(ctx, a.error());
    ctx.out << "password reset and lock lifted for " << a->username << '\n';
    return Ok;
}

int setRole(Context &ctx, const QCommandLineParser &p)
{
    if (p.positionalArguments().size() != 2) {
        ctx.err << "oncepay staff set-role: give USER and ROLE\n";
        return Usage;
    }
    const QString user = p.positionalArguments().at(0);
    const QString role = p.positionalArguments().at(1);
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-staff"));
    if (!c)
        return fail(ctx, c.error());
    // The role and the reason go to the service even when they are none, so the refusal is
    // audited like any; each is still the caller's mistake (exit 2).
    auto a = StaffService(*c, Clock::system())
                 .setRole(user, role, operatorActor(), p.value(QStringLiteral("reason")));
    if (!a && a.error().reason == u"unknown_role")
        return ctx.err << "oncepay staff set-role: ROLE must be agent, finance, auditor or admin\n",
               Usage;
    if (!a && a.error().reason == u"reason_required")
        return ctx.err << "oncepay staff set-role: --reason is required\n", Usage;
    if (!a)
        return fail(ctx, a.error());
    ctx.out << "role set ";
    printChanged(ctx.out, *c, *a);
    return Ok;
}

int list(Context &ctx, const QCommandLineParser &)
{
    auto c = openMigrated(ctx.config.orders, QStringLiteral("cli-staff"));
    if (!c)
        return fail(ctx, c.error());
    auto all = StaffService(*c, Clock::system()).list(operatorActor());
    if (!all)
        return fail(ctx, all.error());
    for (const auto &a : *all)
        printAccount(ctx.out, a);
    return Ok;
}

void addPasswordStdin(QCommandLineParser &p)
{
    // Accepted for scripts that want to say so; stdin is where the password comes from anyway.
    p.addOption({QStringLiteral("password-stdin"),
                 QStringLiteral("Read the password from the first line of stdin.")});
}

const bool registered = registerCommands({
    {{QStringLiteral("staff"), QStringLiteral("add")},
     QStringLiteral("add a staff account (password from stdin)"),
     QStringLiteral("USER"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("role"), QStringLiteral("agent, finance, auditor or admin."),
                      QStringLiteral("ROLE")});
         p.addOption({QStringLiteral("name"),
                      QStringLiteral("Display name (default: the user name)."),
                      QStringLiteral("TEXT")});
         addPasswordStdin(p);
     },
     add},
    {{QStringLiteral("staff"), QStringLiteral("disable")},
     QStringLiteral("disable a staff account (the last enabled admin stays enabled)"),
     QStringLiteral("USER"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("reason"), QStringLiteral("Why (required; audited)."),
                      QStringLiteral("TEXT")});
     },
     disable},
    {{QStringLiteral("staff"), QStringLiteral("enable")},
     QStringLiteral("enable a disabled staff account again (clears failed sign-ins and a lock)"),
     QStringLiteral("USER"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("reason"), QStringLiteral("Why (required; audited)."),
                      QStringLiteral("TEXT")});
     },
     enable},
    {{QStringLiteral("staff"), QStringLiteral("reset-password")},
     QStringLiteral("set a new password (from stdin) and lift a lock"),
     QStringLiteral("USER"),
     addPasswordStdin,
     resetPassword},
    {{QStringLiteral("staff"), QStringLiteral("set-role")},
     QStringLiteral("change a staff account's role (the last enabled admin keeps theirs)"),
     QStringLiteral("USER ROLE"),
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("reason"), QStringLiteral("Why (required; audited)."),
                      QStringLiteral("TEXT")});
     },
     setRole,
     false,
     QStringLiteral("USER: the account's user name. ROLE: agent, finance, auditor or admin.")},
    {{QStringLiteral("staff"), QStringLiteral("list")},
     QStringLiteral("list staff accounts"),
     QString(),
     {},
     list},
});

} // namespace

} // namespace OncePay::Cli
