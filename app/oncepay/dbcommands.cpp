// oncepay db migrate | db check

#include "cli.h"
#include "db/healthcheck.h"
#include "db/migrator.h"

namespace OncePay::Cli {

namespace {

int migrate(Context &ctx, const QCommandLineParser &)
{
    int rc = Ok;
    for (DbRole role : {DbRole::Orders, DbRole::Audit}) {
        const ConnectionProfile &profile = ctx.config.profile(role);
        auto c = Connection::open(profile, QStringLiteral("migrate"));
        if (!c)
            return fail(ctx, c.error());
        auto report = Migrator::migrate(*c);
        if (!report)
            return fail(ctx, report.error());
        ctx.out << roleName(role) << ": " << profile.describe() << ": schema " << report->before;
        if (report->applied.isEmpty())
            ctx.out << " (up to date)\n";
        else
            ctx.out << " -> " << report->after << " (applied "
                    << report->applied.join(QStringLiteral(", ")) << ")\n";
    }
    return rc;
}

int check(Context &ctx, const QCommandLineParser &)
{
    int rc = Ok;
    // As before: a missing SQLite file is created and reported as "migration pending".
    for (const RoleStatus &s :
         HealthCheck::checkAll(ctx.config, Connection::OpenMode::CreateIfMissing)) {
        ctx.out << roleName(s.role).leftJustified(9) << ' ';
        if (!s.reachable) {
            ctx.out << "UNREACHABLE  " << s.driver << "  " << s.target << "\n          " << s.error
                    << '\n';
            rc = Unavailable;
            continue;
        }
        ctx.out << "reachable  " << s.driver << "  " << s.target
                << (s.sharesOrders ? QStringLiteral("  (same database as orders)") : QString())
                << "\n          server " << s.serverVersion << ", schema " << s.schemaVersion
                << " of " << s.latestVersion;
        if (!s.error.isEmpty()) {
            ctx.out << "  (" << s.error << ')';
            if (s.schemaVersion > s.latestVersion)
                rc = SchemaNewer;
        }
        ctx.out << '\n';
    }
    return rc;
}

const bool registered = registerCommands({
    {{QStringLiteral("db"), QStringLiteral("migrate")},
     QStringLiteral("create or upgrade the orders and audit databases"),
     {},
     {},
     migrate},
    {{QStringLiteral("db"), QStringLiteral("check")},
     QStringLiteral("report driver, server and schema version of each database role"),
     {},
     {},
     check},
});

} // namespace

} // namespace OncePay::Cli
