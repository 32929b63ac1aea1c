// oncepay db migrate | db check

#include "cli.h"
#include "db/healthcheck.h"
#include "db/migrator.h"

#include <algorithm>
#include <iterator>
#include <spdlog/spdlog.h>

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
    // The exit code of the worst state found, whatever the roles' order: a refused login (no
    // outage to wait out) over a newer schema over a database away or missing.
    int rc = Ok;
    const auto worst = [&rc](int code) {
        constexpr int kRank[] = {Ok, Unavailable, SchemaNewer, LoginRefused};
        const auto rank = [&](int c) {
            return int(std::find(std::begin(kRank), std::end(kRank), c) - std::begin(kRank));
        };
        if (rank(code) > rank(rc))
            rc = code;
    };
    // A check changes nothing: a missing SQLite file is reported, never created.
    for (const RoleStatus &s : HealthCheck::checkAll(ctx.config)) {
        ctx.out << roleName(s.role).leftJustified(9) << ' ';
        if (s.fileMissing) {
            spdlog::warn("db check: the {} database file {} does not exist",
                         roleName(s.role).toStdString(), s.path.toStdString());
            ctx.out << "MISSING      " << s.driver << "  " << s.target
                    << (s.sharesOrders ? QStringLiteral("  (same database as orders)") : QString())
                    << "\n          the " << roleName(s.role) << " database file " << s.path
                    << " does not exist; run `oncepay db migrate` to create it\n";
            worst(Unavailable);
            continue;
        }
        if (!s.reachable) {
            ctx.out << (s.loginRefused  ? "REFUSED      "
                        : s.wrongSchema ? "WRONG DB     "
                                        : "UNREACHABLE  ")
                    << s.driver << "  " << s.target << "\n          " << s.error << '\n';
            worst(s.loginRefused ? LoginRefused : Unavailable);
            continue;
        }
        ctx.out << "reachable  " << s.driver << "  " << s.target
                << (s.sharesOrders ? QStringLiteral("  (same database as orders)") : QString())
                << "\n          server " << s.serverVersion << ", schema " << s.schemaVersion
                << " of " << s.latestVersion;
        if (!s.error.isEmpty()) {
            ctx.out << "  (" << s.error << ')';
            if (s.schemaVersion > s.latestVersion)
                worst(SchemaNewer);
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
