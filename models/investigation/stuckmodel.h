#pragma once

// Stuck records (messages past their threshold, expired leases, dead letters, unfinished
// requests, refunds due, orders in flight) as a table; OrderIdRole gives the order to open.
// Thread contract: GUI thread only.

#include "common/rowtablemodel.h"
#include "investigation/stuckquery.h"

namespace OncePay {

class StuckModel : public RowTableModel<StuckRecord> {
    Q_OBJECT
public:
    enum Column { Kind, Age, Order, Channel, Status, Attempts, Amount, Reference, LastError };
    explicit StuckModel(QObject *parent = nullptr);
};

} // namespace OncePay
