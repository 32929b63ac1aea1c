#pragma once

// Data for the reconciliation benchmark: N orders with their payments written straight into
// a fresh SQLite orders database (set-up, not the thing measured), and the matching
// settlement statements in the four channels' layouts with a sprinkle of defects.

#include "db/connection.h"

#include <QStringList>

namespace OncePay::Bench {

struct BenchFiles {
    QList<std::pair<QString, QString>> statements; // (channel, path)
    qint64 lines = 0;
    qint64 bytes = 0;
};

Result<void> seedPayments(const Connection &c, qint64 n, qint64 startMs);
Result<BenchFiles> writeStatements(const QString &dir, qint64 n, qint64 startMs,
                                   int filesPerChannel);

} // namespace OncePay::Bench
