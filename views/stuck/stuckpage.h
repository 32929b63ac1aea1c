#pragma once

// Stuck records (DESIGN.md §6) with the ops_settings thresholds: filter by kind and minimum
// age (the query runs again, off the GUI thread), sort by any column, open the order of a
// row with Enter or a double click (a record that names no order: the order search for its
// callback id). Rows arrive oldest first, a page at a time, already in the default order
// (age, descending): the first page with the counts, the next when the table is scrolled to
// its end (the model's fetchMore) or "Show more" is pressed, each read off the GUI thread and
// appended, until every kind is shown to its last record. Only a click on another column
// sorts on the GUI thread.
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
    QPushButton *moreButton() const { return m_more; }
    // Whether records are left to read (what the model's canFetchMore answers).
    bool hasMore() const;
    // Rows of the first read (2000 unless set; from the next refresh); each further read asks
    // for twice the one before, up to 32,000.
    void setPageSize(int rows) { m_pageSize = qMax(1, rows); }

public Q_SLOTS:
    void refresh();
    // Proposes a fix for the selected rows (requeue or resolve several messages at once;
    // confirm or roll back one order), through the dialog and FixService.
    void proposeFix();
    // Reads the next page of the list and appends it (nothing while one is being read, or
    // when every kind is shown to its end).
    void loadMore();

Q_SIGNALS:
    void loaded(int rows);     // the first page (a refresh), `rows` in the table
    void moreLoaded(int rows); // a further page appended, `rows` now in the table
    void searchOrdersRequested(const QString &term); // a record that names no order
    void openOrderRequested(const QString &orderId);
    void failed(const QString &why);
    void fixesProposed(int count);

private:
    void updateActions();
    void showSummary();
    void showLoadFailure(const Error &error);
    // Appends a page: the cursors move to each kind's last row, ended kinds are noted.
    void takePage(const StuckReport &page);

    ConnectionProfile m_orders;
    Actor m_actor;
    StuckModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_age = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_propose = nullptr;
    QPushButton *m_more = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_note = nullptr; // what an activated row could not open
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
    // The list being shown, read as of its first page: the filter (with that page's `now`),
    // the counts and thresholds it reported, where each kind continues, which kinds ended.
    StuckFilter m_filter;
    StuckReport m_head;
    QMap<StuckKind, StuckCursor> m_cursors;
    QList<StuckKind> m_ended;
    bool m_reading = false;
    int m_pageSize = StuckFilter().pageSize;
    // The size of the next further page: doubles from 2 × m_pageSize with each read.
    int m_nextPageSize = 2 * StuckFilter().pageSize;
    static constexpr int kMaxPageSize = 32000;
};

} // namespace OncePay
