#pragma once

// Stuck records (messages past their threshold, expired leases, dead letters, unfinished
// requests, refunds due, orders in flight) as a table; OrderIdRole gives the order to open on
// every cell (empty for a record that names none), SortRole each column's sort key (Tries and
// Age as numbers). The list arrives a page at a time: appendRows() adds one; canFetchMore()
// says whether the page holding it has more to read, and fetchMore() (what a view calls when
// it is scrolled to its end) asks for it through moreWanted(): the model never reads.
// Thread contract: GUI thread only.

#include "common/rowtablemodel.h"
#include "investigation/stuckquery.h"

namespace OncePay {

class StuckModel : public RowTableModel<StuckRecord> {
    Q_OBJECT
public:
    enum Column { Kind, Age, Order, Channel, Status, Attempts, Amount, Reference, LastError };
    explicit StuckModel(QObject *parent = nullptr);

    // Whether more rows wait to be read (set by the page after each load).
    void setMoreToFetch(bool more) { m_more = more; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void moreWanted();

private:
    bool m_more = false;
};

} // namespace OncePay
