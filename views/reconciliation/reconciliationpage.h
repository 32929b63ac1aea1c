#pragma once

// The reconciliation desk (DESIGN.md §4, §6): runs and their coverage; exceptions by kind,
// channel, age and amount; the settlement line beside the payment it was matched against;
// automatic corrections with the rule and fee change that allowed them; a run for a period
// started from here (background, progress, cancel); fixes proposed from the selected
// exception (adjust fee, write off) or run (close the period).
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "core/result.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QDateEdit;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace OncePay {

class BusyIndicator;
class DiscrepancyDeskModel;
class RunModel;

class ReconciliationPage : public QWidget {
    Q_OBJECT
public:
    ReconciliationPage(const ConnectionProfile &orders, const Actor &actor,
                       QWidget *parent = nullptr);

    RunModel *runs() const { return m_runs; }
    DiscrepancyDeskModel *exceptions() const { return m_exceptions; }
    QTableView *exceptionTable() const { return m_exceptionTable; }
    QTableView *runTable() const { return m_runTable; }
    QComboBox *statusFilter() const { return m_status; }
    QComboBox *kindFilter() const { return m_kind; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progress() const { return m_progress; }
    QLabel *summary() const { return m_summary; }
    // What became of the last run started here (its summary, or why it did not run or failed),
    // on a line of its own that a refresh does not overwrite; hidden until a run ends.
    QLabel *runNotice() const { return m_runNotice; }

    // The sentence for a run that did not happen: refused by the service (its reason, or the
    // database refusing this console's login) or failed.
    static QString runErrorText(const Error &e);

    // Starts a run for [from, to) without asking (the Run button asks for the period first).
    void startRun(qint64 fromMs, qint64 toMs);

public Q_SLOTS:
    void refresh();
    void cancelRun();

Q_SIGNALS:
    void loaded(int exceptions);
    void runFinished(const QString &status, const QString &message);
    void openOrderRequested(const QString &orderId);
    void failed(const QString &why);

private:
    void showSelected();
    void askRun();
    void proposeForSelected();
    void closeSelectedPeriod();

    ConnectionProfile m_orders;
    Actor m_actor;
    RunModel *m_runs = nullptr;
    DiscrepancyDeskModel *m_exceptions = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_runTable = nullptr;
    QTableView *m_exceptionTable = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_channel = nullptr;
    QComboBox *m_age = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_propose = nullptr;
    QPushButton *m_closePeriod = nullptr;
    QPushButton *m_openOrder = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_runNotice = nullptr;
    QLabel *m_lineSide = nullptr;
    QLabel *m_paymentSide = nullptr;
    QLabel *m_ruleSide = nullptr;
    BusyIndicator *m_busy = nullptr;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancelFlag;
};

} // namespace OncePay
