#pragma once

// Open reconciliation discrepancies per channel and currency, for the dashboard, and their
// totals per currency as DashboardQuery computed them (never summed across currencies): these
// models only show lines, they total nothing.
// Thread contract: GUI thread only.

#include "common/rowtablemodel.h"
#include "investigation/dashboardquery.h"

namespace OncePay {

class DiscrepancyTotalModel : public RowTableModel<DiscrepancyTotal> {
    Q_OBJECT
public:
    explicit DiscrepancyTotalModel(QObject *parent = nullptr);
};

// A total line per currency, in the columns of DiscrepancyTotalModel (shown below its rows):
// "Total", the count, the amount at issue in that currency, bold ("too large to total" when
// DashboardQuery gave no amount).
class DiscrepancyCurrencyTotalModel : public RowTableModel<DiscrepancyCurrencyTotal> {
    Q_OBJECT
public:
    explicit DiscrepancyCurrencyTotalModel(QObject *parent = nullptr);
};

} // namespace OncePay
