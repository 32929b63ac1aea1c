// oncepay_bench [--engine sqlite|postgresql|mariadb] [--runs R] [--n N]
//               [--suites ingest,channels,worker]
// Prints each benchmark's median rate and the program's ratio to its raw-SQL baseline,
// measured side by side in the same process on the same kind of fresh database.

#include "benchcommon.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <spdlog/spdlog.h>

#include <cstdio>

using namespace OncePay;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOption({"engine", "sqlite, postgresql or mariadb", "E", "sqlite"});
    p.addOption({"runs", "runs per benchmark (median reported)", "R", "5"});
    p.addOption({"n", "callbacks per run", "N", "2000"});
    p.addOption(
        {"suites", "comma-separated: ingest, channels, worker", "S", "ingest,channels,worker"});
    p.addHelpOption();
    p.process(app);
    spdlog::set_level(spdlog::level::warn);

    Dialect dialect = Dialect::Sqlite;
    if (p.value("engine") == "postgresql")
        dialect = Dialect::Postgres;
    else if (p.value("engine") == "mariadb")
        dialect = Dialect::MySql;
    QString why;
    if (!Test::engineConfigured(dialect, &why)) {
        std::printf("skipped %s: %s\n", qPrintable(p.value("engine")), qPrintable(why));
        return 0;
    }
    const int runs = p.value("runs").toInt();
    const int n = p.value("n").toInt();

    auto report = [&](const QList<Bench::Sample> &pair, const char *goal) {
        const double program = pair[0].median(), baseline = pair[1].median();
        for (const auto &s : pair)
            std::printf("  %-44s %10.0f /s (median of %d)\n", qPrintable(s.name), s.median(), runs);
        // Program and baseline alternate run by run; the ratio within each pair of runs
        // cancels slow drift in the machine's load, so its median is printed too.
        Bench::Sample ratios{QString(), {}};
        for (size_t i = 0; i < std::min(pair[0].perSecond.size(), pair[1].perSecond.size()); ++i)
            ratios.perSecond.push_back(pair[0].perSecond[i] / pair[1].perSecond[i]);
        std::printf("  %-44s %9.1f %%   (goal %s)\n", "ratio program / baseline",
                    100.0 * program / baseline, goal);
        std::printf("  %-44s %9.1f %%\n\n", "median of the per-run ratios",
                    100.0 * ratios.median());
    };

    std::printf("engine %s, %d callbacks per run, %d runs\n\n", qPrintable(p.value("engine")), n,
                runs);
    const QStringList suites = p.value("suites").split(u',');
    if (suites.contains("ingest")) {
        const auto ingest = Bench::ingestBenchmarks(dialect, runs, n);
        std::printf("ingest (stripe), one callback per transaction\n");
        report({ingest[0], ingest[1]}, ">= 80 %");
        std::printf("ingest (stripe), batched (50 per transaction)\n");
        report({ingest[2], ingest[3]}, ">= 80 %");
        std::printf(
            "ingest (stripe), batched as the gateway runs it (verify on the request thread,\n"
            "GroupCommitter storing up to 50 per transaction on its own thread)\n");
        report({ingest[4], ingest[5]}, ">= 80 %");
    }
    if (suites.contains("channels")) {
        const auto perChannel = Bench::ingestPerChannelBenchmarks(dialect, runs, n);
        for (qsizetype i = 0; i + 2 < perChannel.size(); i += 3) {
            std::printf("ingest per channel, batched (50 per transaction)\n");
            report({perChannel[i], perChannel[i + 1]}, ">= 80 %");
            std::printf("  %-44s %10.0f /s (median of %d)\n\n", qPrintable(perChannel[i + 2].name),
                        perChannel[i + 2].median(), runs);
        }
    }
    if (suites.contains("worker")) {
        std::printf("worker\n");
        report(Bench::workerBenchmarks(dialect, runs, n), ">= 70 %");
    }
    return 0;
}
