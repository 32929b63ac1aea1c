#pragma once

// The approvals queue (DESIGN.md §6): open fix proposals with age, amount, proposer and
// approvals; the selected one's change as before → after, its reason, its decisions and the
// evidence (the order's recent history, or the discrepancy); Approve and Reject for finance
// reviewers (never on their own proposal — the service refuses it anyway); the history of
// decided proposals through the status filter.
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "fixes/fixtypes.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace OncePay {

class BusyIndicator;
class ChangeModel;
class FixModel;
class TableColumnFitter;

class ApprovalsPage : public QWidget {
    Q_OBJECT
public:
    ApprovalsPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent = nullptr);

    FixModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QComboBox *statusFilter() const { return m_status; }
    QPushButton *approveButton() const { return m_approve; }
    QPushButton *rejectButton() const { return m_reject; }
    QLabel *summary() const { return m_summary; }
    // What became of the last decision made on this page (applied, or refused and why).
    QLabel *decisionNotice() const { return m_notice; }

    // Select the fix with this id (after a refresh has loaded it).
    bool select(qint64 fixId);
    // Decide the selected fix without asking (tests and keyboard users go through the
    // dialogs; this is what they call when accepted).
    void approveSelected(const QString &comment);
    void rejectSelected(const QString &reasonCode, const QString &comment);

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    void loaded(int rows);
    void decided(qint64 fixId, const QString &status, const QString &message);
    void openOrderRequested(const QString &orderId);
    void failed(const QString &why);

private:
    // The queue's columns in the width it has: every one on screen, Target cut first.
    void fitColumns(const QList<int> &natural);
    void fitChangeColumns(const QList<int> &natural);
    void showSelected();
    void loadEvidence(const FixRequest &fix);
    std::optional<FixRequest> selected() const;
    void decide(bool approve, const QString &reasonCode, const QString &comment);
    void askApprove();
    void askReject();

    ConnectionProfile m_orders;
    Actor m_actor;
    bool m_mayDecide = false;
    FixModel *m_model = nullptr;
    ChangeModel *m_change = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_kind = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_approve = nullptr;
    QPushButton *m_reject = nullptr;
    QPushButton *m_openOrder = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_notice = nullptr;
    QLabel *m_header = nullptr;
    QLabel *m_decisions = nullptr;
    QPlainTextEdit *m_evidence = nullptr;
    BusyIndicator *m_busy = nullptr;
    QTableView *m_table = nullptr;
    QTableView *m_changeTable = nullptr;
    TableColumnFitter *m_fit = nullptr;       // the queue's widths from their contents, fitted
    TableColumnFitter *m_changeFit = nullptr; // the change's Field, Before and After, fitted
    quint64 m_generation = 0;
    quint64 m_evidenceGeneration = 0;
};

} // namespace OncePay
