#pragma once

// The audit trail (DESIGN.md §5, §6), for finance and auditors: a filter bar (time range,
// actor, action, order, callback, entity), the rows in seq order loaded page by page as the
// table scrolls (keyset queries off the GUI thread), a detail pane with the row's before and
// after JSON, Verify (walks the chain and its seals in the background with progress and
// Cancel; names the first bad row and the seal coverage, and selects that row in the table,
// loading pages up to it), an amber line when audited events still wait in the outbox (shipped
// later, so not in the trail yet; counted again after every Verify and Export, which audit
// themselves) and Export as CSV, JSON or a PDF report (background, progress, Cancel; shows the
// file, its manifest and SHA-256, or the exporter's refusal, on a line of its own: Verify's
// result stays until the next Verify); Export's menu also verifies an export someone made. A
// database error names the database (audit or orders) it is about. The services check the rights
// again and audit refusals and exports. Thread contract: GUI thread only.

#include "audittask.h"
#include "config/appconfig.h"
#include "core/actor.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace OncePay {

class AuditTrailModel;
class BusyIndicator;
class TableColumnFitter;
struct AuditFilter;
struct AuditPage;

class AuditTrailPage : public QWidget {
    Q_OBJECT
public:
    AuditTrailPage(const AppConfig &config, const Actor &actor, QWidget *parent = nullptr);
    // A task still running (Verify, Export, the verification of an export) is cancelled: a
    // closed page writes no export nobody will see.
    ~AuditTrailPage() override;

    AuditTrailModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QLineEdit *fromEdit() const { return m_from; }
    QLineEdit *toEdit() const { return m_to; }
    QLineEdit *actorEdit() const { return m_actorFilter; }
    QLineEdit *actionEdit() const { return m_action; }
    QLineEdit *orderEdit() const { return m_order; }
    QLineEdit *callbackEdit() const { return m_callback; }
    QLineEdit *entityEdit() const { return m_entity; }
    QPlainTextEdit *detail() const { return m_detail; }
    QProgressBar *progress() const { return m_progress; }
    QLabel *summary() const { return m_summary; }
    // Amber, above the table: how many audited events still wait in the orders database's
    // outbox (not in the trail yet); hidden when none do.
    QLabel *unshippedBanner() const { return m_unshipped; }
    // Verify's result; stays until the next Verify.
    QLabel *result() const { return m_result; }
    // Export's result (the file, or why there is none), below Verify's.
    QLabel *exportResult() const { return m_exportResult; }
    QPushButton *verifyButton() const { return m_verify; }
    QPushButton *exportButton() const { return m_export; }
    QPushButton *cancelButton() const { return m_cancel; }

public Q_SLOTS:
    // Applies the filter bar and loads the first page.
    void refresh();
    void verifyChain();
    // Exports what the filter shows; `format` is csv, json or pdf. The Export button asks for
    // the file first.
    void exportTo(const QString &format, const QString &path);
    // Checks an export (its manifest, the file beside it, the export's own audit row and its
    // rows) in the background with progress and Cancel; the result on Export's line. The
    // Export menu's "Verify an export…" asks for the manifest first.
    void verifyExport(const QString &manifestPath);
    void cancelTask();

Q_SIGNALS:
    void loaded(int rows);
    // The outbox was counted (after each refresh); -1 when it could not be read.
    void unshippedCounted(qint64 count);
    void verified(bool ok, const QString &summary);
    // After a Verify that found a break: the table row (current, scrolled to) that shows the
    // row it named, once loaded.
    void brokenRowShown(qint64 seq, int row);
    void exported(const QString &path, const QString &manifestPath, const QString &sha256);
    // After a verification of an export that ran to its end (or failed to start): whether it
    // verifies, and the engine's summary.
    void exportVerified(bool ok, const QString &summary);
    void failed(const QString &why);
    void openOrderRequested(const QString &orderId);

private:
    bool readFilter(AuditFilter *filter);
    static QString filterErrorText(const AuditFilter &filter, const Error &error);
    void fetchPage(quint64 generation, qint64 afterSeq);
    void countUnshipped();
    // Selects and scrolls to the row with `seq` (the one Verify named), loading pages until it
    // is among the loaded rows; says so on Verify's line when the filter leaves it out or it is
    // too far down to load.
    void showBrokenRow(qint64 seq);
    void continueSeek();
    void setSeekNote(const QString &note);
    // An error as a sentence that names the database it is about (a schema, a server away).
    QString databaseErrorText(const Error &error, AuditTaskDatabase database) const;
    void showDetail();
    // The trail's columns in the width it has: Reason always on screen, taking what the others
    // leave; Entity, Order and Callback (long ids) cut in the middle first.
    void fitColumns(const QList<int> &natural); // the trail's rule (TableColumnFitter)
    void chooseExport(const QString &format);
    void chooseExportToVerify();
    void startTask(QLabel *line, const QString &what);
    void showProgress(qint64 done, qint64 total);
    void finishTask();
    void showError(const Error &error, AuditTaskDatabase database);

    AppConfig m_config;
    Actor m_actor;
    AuditTrailModel *m_model = nullptr;
    QLineEdit *m_from = nullptr;
    QLineEdit *m_to = nullptr;
    QLineEdit *m_actorFilter = nullptr;
    QLineEdit *m_action = nullptr;
    QLineEdit *m_order = nullptr;
    QLineEdit *m_callback = nullptr;
    QLineEdit *m_entity = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_verify = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    BusyIndicator *m_busy = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_unshipped = nullptr;
    QLabel *m_result = nullptr;
    QLabel *m_exportResult = nullptr;
    QLabel *m_taskLine = nullptr; // the running task's line (m_result or m_exportResult)
    QString m_verifyText;         // Verify's result, without a note on the row it named
    qint64 m_seekSeq = 0;         // the row being loaded to be shown; 0: none
    QTableView *m_table = nullptr;
    TableColumnFitter *m_fitter = nullptr; // the columns' widths from their contents
    QPlainTextEdit *m_detail = nullptr;
    AuditTaskHandle m_task;
    bool m_taskRunning = false;
    quint64 m_countGeneration = 0;
    quint64 m_unshippedGeneration = 0;
};

} // namespace OncePay
