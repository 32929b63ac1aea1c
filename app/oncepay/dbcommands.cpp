// oncepay db migrate | db check

#include "cli.h"
#include "db/healthcheck.h"
#include "db/logingrants.h"
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

// What the configured login may do, against what the engine needs there (a server's database
// at the current schema; a SQLite file has no logins): the grants of an upgrade not applied
// are found here rather than by a worker stopping on them.
int checkGrants(Context &ctx, DbRole role)
{
    const ConnectionProfile &profile = ctx.config.profile(role);
    if (profile.dialect == Dialect::Sqlite)
        return Ok;
    auto c = Connection::open(profile, QStringLiteral("check"), Connection::OpenMode::ExistingOnly);
    auto missing = c ? LoginGrants::missingForEngine(*c) : Result<QStringList>(c.error());
    if (!missing) {
        ctx.out << "          grants not checked: " << missing.error().message << '\n';
        return Unavailable;
    }
    if (missing->isEmpty()) {
        ctx.out << "          grants: all the engine needs\n";
        return Ok;
    }
    if (LoginGrants::isAnotherRolesLogin(*c, *missing)) {
        ctx.out << "          grants: not checked: the login " << profile.user
                << " is not the engine's (it may not write the engine's tables)\n";
        return Ok;
    }
    const QString script = QStringLiteral("%1-%2-grants.sql")
                               .arg(profile.dialect == Dialect::Postgres ? "postgresql" : "mysql",
                                    Migrator::schemaFor(role));
    spdlog::error("db check: the {} login {} lacks {} of the grants the engine needs: {}",
                  roleName(role).toStdString(), profile.user.toStdString(), missing->size(),
                  missing->join(QStringLiteral(", ")).toStdString());
    ctx.out << "          GRANTS MISSING: the login " << profile.user
            << " may not: " << missing->join(QStringLiteral(", "))
            << "\n          apply this release's " << script
            << " (/usr/share/oncepay/sql/, packaging/sql/) as the owner\n";
    return ConfigError;
}

int check(Context &ctx, const QCommandLineParser &)
{
    // The exit code of the worst state found, whatever the roles' order: a refused login (no
    // outage to wait out) over a newer schema over a login lacking a grant over a database
    // away or missing.
    int rc = Ok;
    const auto worst = [&rc](int code) {
        constexpr int kRank[] = {Ok, Unavailable, ConfigError, SchemaNewer, LoginRefused};
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
        if (s.health() == Health::Ok && !s.sharesOrders)
            worst(checkGrants(ctx, s.role));
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
     QStringLiteral("report driver, server and schema version of each database role, and whether "
                    "a server login has the grants the engine needs"),
     {},
     {},
     check},
});

} // namespace

} // namespace OncePay::Cli
