#pragma once

// Open reconciliation discrepancies per channel and currency, for the dashboard, and their
// totals per currency (never summed across currencies).
// Thread contract: GUI thread only.

#include "common/rowtablemodel.h"
#include "investigation/dashboardquery.h"

#include <optional>

namespace OncePay {

class DiscrepancyTotalModel : public RowTableModel<DiscrepancyTotal> {
    Q_OBJECT
public:
    explicit DiscrepancyTotalModel(QObject *parent = nullptr);
};

// One currency's open discrepancies over every channel. No amount when the sum would not fit
// in 64 bits: a total is exact or not shown.
struct DiscrepancyCurrencyTotal {
    QString currency; // empty: rows that name no currency
    qint64 count = 0;
    std::optional<qint64> amountMinor;

    bool operator==(const DiscrepancyCurrencyTotal &) const = default;
};

// A total line per currency, in the columns of DiscrepancyTotalModel (shown below its rows):
// "Total", the count, the amount at issue in that currency, bold.
class DiscrepancyCurrencyTotalModel : public RowTableModel<DiscrepancyCurrencyTotal> {
    Q_OBJECT
public:
    explicit DiscrepancyCurrencyTotalModel(QObject *parent = nullptr);
    // Per currency, by currency code.
    static QList<DiscrepancyCurrencyTotal> totals(const QList<DiscrepancyTotal> &rows);
};

} // namespace OncePay
