#pragma once

// Stuck records (DESIGN.md §6) with the ops_settings thresholds: filter by kind and minimum
// age (the query runs again, off the GUI thread), sort by any column, open the order of a
// row with Enter or a double click. Rows arrive oldest first, already in the default order
// (age, descending), so a reload of tens of thousands of rows does not sort on the GUI
// thread; only a click on another column sorts there.
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "fixes/fixactions.h"
#include "investigation/stuckquery.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace OncePay {

class BusyIndicator;
class StuckModel;

class StuckPage : public QWidget {
    Q_OBJECT
public:
    StuckPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent = nullptr);

    StuckModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QComboBox *kindFilter() const { return m_kind; }
    QComboBox *ageFilter() const { return m_age; }
    QTableView *table() const { return m_table; }
    QPushButton *proposeButton() const { return m_propose; }

public Q_SLOTS:
    void refresh();
    // Proposes a fix for the selected rows (requeue or resolve several messages at once;
    // confirm or roll back one order), through the dialog and FixService.
    void proposeFix();

Q_SIGNALS:
    void loaded(int rows);
    void openOrderRequested(const QString &orderId);
    void failed(const QString &why);
    void fixesProposed(int count);

private:
    void updateActions();

    ConnectionProfile m_orders;
    Actor m_actor;
    StuckModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_age = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_propose = nullptr;
    QLabel *m_summary = nullptr;
    BusyIndicator *m_busy = nullptr;
    QTableView *m_table = nullptr;
    // Asks again when the earliest lease among the selected rows becomes expired for a fix
    // (past its end by the clock-skew allowance, fixOfferChangesAt): what the rule offers for
    // a processing message changes then, with no click and no reload.
    QTimer *m_leaseEnds = nullptr;
    // The fix rule's setting (fixes.lease_skew_ms) as read with the rows.
    FixRuleSetting m_fixSetting;
    QString m_proposeHint; // the propose button's tooltip while nothing makes it wait
    quint64 m_generation = 0;
};

} // namespace OncePay
