#pragma once

// Shared helpers for the benchmarks: fresh databases per run, timing, medians.

#include "enginefixture.h"

#include <QElapsedTimer>

#include <algorithm>
#include <functional>
#include <vector>

namespace OncePay::Bench {

struct Sample {
    QString name;
    std::vector<double> perSecond;

    double median() const
    {
        std::vector<double> v = perSecond;
        std::sort(v.begin(), v.end());
        return v.empty()
                   ? 0
                   : (v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2);
    }
};

// Runs `body` on fresh scratch databases `runs` times; `body` returns (items, elapsed ns)
// for the measured part only.
inline Sample
measure(const QString &name, Dialect dialect, int runs,
        const std::function<std::pair<qint64, qint64>(Test::ScratchDatabases &)> &body)
{
    Sample s{name, {}};
    for (int i = 0; i < runs; ++i) {
        auto dbs = Test::ScratchDatabases::create(dialect);
        if (!dbs)
            qFatal("%s", qPrintable(dbs.error().message));
        const auto [items, ns] = body(**dbs);
        s.perSecond.push_back(double(items) * 1e9 / double(std::max<qint64>(ns, 1)));
    }
    return s;
}

QList<Sample> ingestBenchmarks(Dialect dialect, int runs, int n);
// Per channel: program batched, raw batched, verify+parse alone (three samples each).
QList<Sample> ingestPerChannelBenchmarks(Dialect dialect, int runs, int n);
QList<Sample> workerBenchmarks(Dialect dialect, int runs, int n);

} // namespace OncePay::Bench
