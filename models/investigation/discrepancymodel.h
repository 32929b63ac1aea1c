#pragma once

// Open reconciliation discrepancies per channel and currency, for the dashboard.
// Thread contract: GUI thread only.

#include "common/rowtablemodel.h"
#include "investigation/dashboardquery.h"

namespace OncePay {

class DiscrepancyTotalModel : public RowTableModel<DiscrepancyTotal> {
    Q_OBJECT
public:
    explicit DiscrepancyTotalModel(QObject *parent = nullptr);
};

} // namespace OncePay
