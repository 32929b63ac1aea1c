#pragma once

// The raw side of the console benchmark (bench_console.cpp): the statements each measured
// operation needs, written out as a raw client would run them against the same database —
// kept identical to what the services run (OrderSearch, OrderPictureQuery, StuckQuery,
// DashboardQuery); when a service's SQL changes, its statements here change with it.
// Thread contract: pure functions, except those taking a database (its thread).

#include "consolebenchdata.h"
#include "core/result.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

#include <utility>

namespace OncePay::Bench {

using Statements = QList<std::pair<QString, QVariantList>>;

// Runs the statements the way a raw client would: prepared, bound, every row stepped; the
// elapsed milliseconds. A statement that fails ends the benchmark (die).
double rawMs(const QSqlDatabase &db, const Statements &statements);

// The raw statements, failing loudly.
Statements orDie(const Result<Statements> &statements);

// The stuck list's statements as the stuck page runs them (StuckQuery with thresholds 300 s
// and 600 s, the ops_settings defaults, and the fix rule's setting): per kind a COUNT and,
// with `rows`, the oldest 10,000.
Statements stuckStatements(qint64 now, bool rows);

// The dashboard's statements as DashboardQuery runs them for the page's default range (the
// 30 days up to the latest callback, read here first): the latest callback, the callbacks per
// bucket, the door's duplicates per bucket, the rejections per bucket, message statuses in the
// range, orders by state, paid orders partly refunded (refund debits by order), the stuck counts
// (settings + 7 COUNTs) and the open discrepancies.
Result<Statements> dashboardStatements(const QSqlDatabase &db);

// A search through the page's box, and what a raw client that knows the kind of the term runs
// for it.
struct ConsoleBenchSearch {
    QString kind;
    QString term;
    QString rawLabel;
    Statements statements;
};
QList<ConsoleBenchSearch> searchStatements(const ConsoleBenchData &data);

// An order's channel transactions as OrderPictureQuery qualifies its reads by them: the
// order's own (channel, transaction) and its payments', in capture order, each once — read
// before the timing (a raw client has them from the order's and its payments' rows, which it
// reads anyway).
using ChannelTxns = QList<std::pair<QString, QString>>;
Result<ChannelTxns> orderTransactions(const QSqlDatabase &db, const QString &orderId);

// The statements the order page needs for one order (OrderPictureQuery's reads and the fixes
// proposed for it), in the order the page runs them: 13 SELECTs (the worker attempts of its
// callbacks after the callbacks).
Statements orderPageStatements(const QString &orderId, const ChannelTxns &txns);

} // namespace OncePay::Bench
