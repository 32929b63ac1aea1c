#pragma once

// A simulated orders database of N orders for the console benchmark, on SQLite.
// Fast path (documented in tests/bench/README.md): the engine's migrations create the schema,
// then each table is filled by one INSERT … SELECT over a recursive counter inside one
// transaction — rows shaped like the engine writes them (order, its transitions with versions
// and causes, its payment attempt's idempotency record, the callback as stored in the
// message table, the payment and its ledger credit; a confirmation proposed for each order
// waiting in paid_unconfirmed). Driving a million orders through the real ingest and worker
// would take hours on this machine; the shape is checked instead by loading generated orders
// with the engine's own OrderRepository (see bench_console.cpp). The file is kept (per N) and
// reused by later runs (the fixes added to one generated before them).

#include "core/result.h"

#include <QString>

namespace OncePay::Bench {

struct ConsoleBenchData {
    QString ordersPath;
    qint64 orders = 0;
    qint64 now = 0; // the generator's "now": ages in the stuck list are real against it
    // One existing identifier of each kind, for the searches: those of generated order `pick`,
    // a paid order whose customer has three orders.
    qint64 pick = 0;
    QString orderId, customerRef, channelTxnId, callbackId, requestId;

    // The same identifiers of another order of that shape, `step` places on (order pick +
    // 300 * step: the same place in the generator's cycle of 100 orders and the first of its
    // customer's three), so that a search can be measured on texts not shown before.
    ConsoleBenchData shifted(qint64 step) const;
    // How many orders of that shape the database has: steps this far apart are the same order.
    qint64 places() const;
    void setPick(qint64 i);
};

// Generates (or reuses) `dir`/orders-N.db. Progress goes to stderr.
Result<ConsoleBenchData> prepareConsoleBenchData(const QString &dir, qint64 n);

} // namespace OncePay::Bench
