// oncepay simulate — a deterministic, hostile month of payments through the real engine.

#include "cli.h"
#include "simulator/simulator.h"

#include <QDir>
#include <QJsonDocument>

#include <spdlog/spdlog.h>

#include <cstdio>
#include <unistd.h>

namespace OncePay::Cli {

namespace {

void progressBar(qint64 done, qint64 total)
{
    if (!isatty(STDERR_FILENO) && done != total)
        return;
    const int width = 30;
    const int filled = total ? int(width * done / total) : width;
    std::fprintf(stderr, "\r[%s%s] %3d%% %lld/%lld orders", QByteArray(filled, '#').constData(),
                 QByteArray(width - filled, ' ').constData(), total ? int(100 * done / total) : 100,
                 static_cast<long long>(done), static_cast<long long>(total));
    if (done == total)
        std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

int simulate(Context &ctx, const QCommandLineParser &p)
{
    SimulationOptions o;
    bool ok = true;
    auto integer = [&](const char *name, auto &target, qint64 lo, qint64 hi) {
        if (!p.isSet(QLatin1String(name)))
            return;
        bool good = false;
        const qint64 v = p.value(QLatin1String(name)).toLongLong(&good);
        if (!good || v < lo || v > hi) {
            ctx.err << "oncepay simulate: --" << name << " must be a number from " << lo << " to "
                    << hi << '\n';
            ok = false;
            return;
        }
        target = std::remove_reference_t<decltype(target)>(v);
    };
    if (p.isSet(QStringLiteral("demo"))) {
        o.orders = 3000;
        o.days = 30;
        o.seed = 2026;
        o.outDir = QDir(ctx.config.dataDir).filePath(QStringLiteral("demo"));
        o.force = true;
        o.demoAccounts = true;
    }
    integer("orders", o.orders, 1, 10000000);
    integer("days", o.days, 1, 366);
    qint64 seed = qint64(o.seed);
    integer("seed", seed, 0, std::numeric_limits<qint64>::max());
    o.seed = quint64(seed);
    if (!ok)
        return Usage;
    // "Today" is read once; which starts are allowed is the simulator's rule.
    const ManualClock now(Clock::systemNowMs());
    if (p.isSet(QStringLiteral("start"))) {
        auto start = SimulationOptions::startOfDate(p.value(QStringLiteral("start")));
        Result<void> allowed;
        if (start) {
            o.startMs = *start;
            allowed = o.checkStart(now);
        }
        if (!start || !allowed) {
            const QString why = (start ? allowed.error() : start.error()).message;
            spdlog::warn("simulate refused, nothing created: {}", why.toStdString());
            return ctx.err << "oncepay simulate: " << why << '\n', Usage;
        }
    } else if (p.isSet(QStringLiteral("demo"))) {
        o.startMs = SimulationOptions::latestStart(o.days, now);
    }
    auto profile = FaultProfile::named(p.value(QStringLiteral("profile")));
    if (!profile)
        return ctx.err << "oncepay simulate: " << profile.error().message << '\n', Usage;
    o.faults = *profile;
    if (auto r = o.faults.applyOverrides(p.value(QStringLiteral("faults"))); !r)
        return ctx.err << "oncepay simulate: " << r.error().message << '\n', Usage;
    if (p.isSet(QStringLiteral("out")))
        o.outDir = p.value(QStringLiteral("out"));
    if (p.isSet(QStringLiteral("force")))
        o.force = true;
    if (!p.positionalArguments().isEmpty())
        return ctx.err << "oncepay simulate: unexpected argument '"
                       << p.positionalArguments().first() << "'\n",
               Usage;

    Simulator sim(ctx.config, o,
                  p.isSet(QStringLiteral("json")) ? Simulator::Progress{} : progressBar);
    auto summary = sim.run();
    if (!summary) {
        if (summary.error().code == ErrorCode::Conflict ||
            summary.error().code == ErrorCode::Invalid)
            return ctx.err << "oncepay simulate: " << summary.error().message << '\n', Usage;
        return fail(ctx, summary.error());
    }
    if (p.isSet(QStringLiteral("json")))
        ctx.out << QJsonDocument(summary->toJson()).toJson(QJsonDocument::Indented);
    else
        ctx.out << summary->toText();
    return summary->invariantFailures.isEmpty() ? Ok : Failed;
}

const bool registered = registerCommands({
    {{QStringLiteral("simulate")},
     QStringLiteral("drive the real engine through a simulated, hostile month of payments"),
     {},
     [](QCommandLineParser &p) {
         p.addOption({QStringLiteral("orders"),
                      QStringLiteral("Orders to simulate (default 1000)."), QStringLiteral("N")});
         p.addOption({QStringLiteral("days"),
                      QStringLiteral("Days of simulated time (default 30)."), QStringLiteral("D")});
         p.addOption({QStringLiteral("start"),
                      QStringLiteral("First day of simulated time, YYYY-MM-DD (00:00 UTC), from"
                                     " 2000-01-01; the period, its last retries and its last"
                                     " weekly statement (5 days after a 30-day period) must"
                                     " be over by today (default"
                                     " 2025-11-01, or with --demo the latest such start)."),
                      QStringLiteral("DATE")});
         p.addOption({QStringLiteral("seed"),
                      QStringLiteral("Seed; same seed, same story (default 1)."),
                      QStringLiteral("S")});
         p.addOption({QStringLiteral("profile"),
                      QStringLiteral("Fault profile: realistic (default), calm, hostile."),
                      QStringLiteral("NAME")});
         p.addOption(
             {QStringLiteral("faults"),
              QStringLiteral("Override rates, e.g. duplicateBurst=0.3,poison=0,auditOutage=0."),
              QStringLiteral("K=V,...")});
         p.addOption({QStringLiteral("out"),
                      QStringLiteral("Directory for settlement statements and fee schedule."),
                      QStringLiteral("DIR")});
         p.addOption(
             {QStringLiteral("force"), QStringLiteral("Write into a non-empty --out directory.")});
         p.addOption({QStringLiteral("json"), QStringLiteral("Print the summary as JSON.")});
         p.addOption(
             {QStringLiteral("demo"),
              QStringLiteral(
                  "The console's demo: 3000 orders over the latest 30 days whose settlements"
                  " are all in by today (the 30 days ending 5 days ago; --start and --days"
                  " choose others), seed 2026, statements in the"
                  " data directory's demo/, and demo staff accounts (agent, finance, finance2,"
                  " auditor, admin; password <user>-demo).")});
     },
     simulate},
});

} // namespace

} // namespace OncePay::Cli
