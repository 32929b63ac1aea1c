#pragma once

// The dashboard (DESIGN.md §6): callbacks over time, message statuses, orders by state (with
// a line under them for the paid orders partly refunded), stuck records by kind and open
// discrepancies (with a total per currency), for a chosen time range. Loads on a pool thread;
// a newer refresh makes an older answer stale, and it is dropped.
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "investigation/dashboardquery.h"

#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace OncePay {

class BusyIndicator;
class DiscrepancyCurrencyTotalModel;
class DiscrepancyTotalModel;

class DashboardPage : public QWidget {
    Q_OBJECT
public:
    DashboardPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent = nullptr);

    const DashboardData &data() const { return m_data; }
    DiscrepancyTotalModel *discrepancyModel() const { return m_discrepancies; }
    // The total line per currency shown below the channels' lines.
    DiscrepancyCurrencyTotalModel *discrepancyTotals() const { return m_discrepancyTotals; }
    QTableView *discrepancyTable() const { return m_discrepancyTable; }
    QComboBox *rangeSelector() const { return m_range; }
    // The callbacks chart's totals over the range, under it.
    QLabel *callbackTotalsLine() const { return m_callbackTotals; }
    QChartView *callbacksChart() const { return m_callbacks; }
    // The line under the orders by state: the paid orders with a partial refund.
    QLabel *partialRefundsLine() const { return m_partialRefunds; }
    QChartView *orderStatesChart() const { return m_states; }
    QChartView *stuckChart() const { return m_stuck; }
    // Under the stuck chart: why the stuck records could not be counted (hidden otherwise).
    QLabel *stuckErrorLine() const { return m_stuckError; }
    // Above the callbacks' totals: where a range that ends before now ends, and what came in
    // since (hidden otherwise).
    QLabel *rangeEndLine() const { return m_rangeEnd; }

    // Shows a loaded answer: what refresh() does with its result.
    void showData(const DashboardData &data);

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    void loaded();
    void failed(const QString &why);

private:
    void showRangeEnd(const DashboardData &data);
    void showStuck(const DashboardData &data);
    void showCallbacks(const DashboardData &data);
    void showPartialRefunds(const DashboardData &data);
    void showCounts(QChartView *view, const QString &title, const QList<KeyCount> &counts,
                    QString (*label)(const QString &), const QString &colour);

    ConnectionProfile m_orders;
    Actor m_actor;
    DashboardData m_data;
    QComboBox *m_range = nullptr;
    QPushButton *m_refresh = nullptr;
    QLabel *m_status = nullptr;
    BusyIndicator *m_busy = nullptr;
    QChartView *m_callbacks = nullptr;
    QLabel *m_callbackTotals = nullptr;
    QChartView *m_statuses = nullptr;
    QChartView *m_states = nullptr;
    QLabel *m_partialRefunds = nullptr;
    QChartView *m_stuck = nullptr;
    QLabel *m_stuckError = nullptr;
    QLabel *m_rangeEnd = nullptr;
    QTableView *m_discrepancyTable = nullptr;
    QLabel *m_discrepancyTitle = nullptr;
    DiscrepancyTotalModel *m_discrepancies = nullptr;
    DiscrepancyCurrencyTotalModel *m_discrepancyTotals = nullptr;
    quint64 m_generation = 0;
};

} // namespace OncePay
