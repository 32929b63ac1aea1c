#pragma once

// Order investigation (DESIGN.md §6): one search box for any identifier; the order's state,
// version and the path it took through the state machine; a timeline of transitions (with
// versions and causes), refused attempts, callbacks, worker outcomes, ledger entries and
// refunds due, refused rows highlighted; tabs with the callbacks (raw body and headers), the
// payments and ledger, the requests, and — for roles that may read the audit trail — the
// audit rows. Every read runs on a pool thread; stale answers are dropped. "Export dossier…"
// writes the order as a PDF for a dispute on a pool thread and audits the export.
// Thread contract: GUI thread only.

#include "config/connectionprofile.h"
#include "core/actor.h"
#include "investigation/orderpicture.h"
#include "investigation/ordersearch.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTabWidget;

namespace OncePay {

class AuditRowModel;
class BusyIndicator;
class SelectableLabel;
class IdempotencyModel;
class LedgerModel;
class MessageModel;
class OrderHitModel;
class PaymentModel;
class RefundModel;
class SearchLookAhead;
class StateDiagram;
class StatePathLabel;
class TableColumnFitter;
class FulfilmentModel;
struct FixTargetRow;
enum class FixCover;
class TimelineModel;

class OrderPage : public QWidget {
    Q_OBJECT
public:
    OrderPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent = nullptr);

    OrderHitModel *hitModel() const { return m_hits; }
    TimelineModel *timelineModel() const { return m_timeline; }
    MessageModel *messageModel() const { return m_messages; }
    PaymentModel *paymentModel() const { return m_payments; }
    LedgerModel *ledgerModel() const { return m_ledger; }
    AuditRowModel *auditModel() const { return m_audit; }
    const OrderPicture &picture() const { return m_picture; }
    QString statusText() const;
    QTabWidget *tabs() const { return m_tabs; }
    StateDiagram *stateDiagram() const { return m_diagram; }
    QLineEdit *searchBox() const { return m_search; }
    // What the search box looked up as it was typed or pasted (searchlookahead.h).
    SearchLookAhead *lookAhead() const { return m_lookAhead; }
    QPushButton *exportButton() const { return m_export; }
    QPushButton *proposeButton() const { return m_propose; }

public Q_SLOTS:
    void search(const QString &term);
    void openOrder(const QString &orderId);
    // Opens exactly this order, its id in the search box: how other views hand an order over
    // (a search for the id could also match another order's customer reference).
    void showOrder(const QString &orderId);
    void focusSearch();
    // The Callbacks tab with the shown order's callback at `row` selected: its headers, body
    // and signature scheme below the list.
    void showCallback(int row);
    // Asks where to save (a file dialog) and exports the shown order's dossier there.
    void exportDossierAs();
    // Writes the shown order's dossier to `path` (PDF) off the GUI thread and audits it;
    // dossierExported or failed follows.
    void exportDossier(const QString &path);
    // Proposes a fix for the shown order (confirm or roll back) or for its messages that are
    // dead, failed or stuck (requeue, resolve) — whichever the menu entry says.
    void proposeOrderFix();
    void proposeMessageFix();

Q_SIGNALS:
    void searched(int hits);
    void orderLoaded(const QString &orderId);
    void failed(const QString &why);
    void dossierExported(const QString &path, const QString &sha256Hex);
    void fixesProposed(int count);

private:
    // The search's own read, answered as `generation`.
    void readSearch(quint64 generation, const QString &term);
    // A search's answer on the page: the hit list, the message, the single hit opened.
    void showHits(const QString &term, const Result<QList<OrderHit>> &answer);
    // What the page says for a search that found only callbacks naming orders that do not
    // exist (MatchKind::UnknownOrderCallback): one line a callback, its status and last error.
    static QString unknownOrderText(const QList<OrderHit> &hits);
    // The order asked for does not exist: says so, or — when callbacks name it — what they
    // are (unknownOrderText), as the answer to `generation`.
    void explainMissingOrder(quint64 generation, const QString &orderId, const Error &notFound);
    void showPicture(const OrderPicture &picture);
    void showMessage(int row);
    void setStatus(const QString &text, bool error = false);
    // A read starts: the busy bar, `text` in the status line and the export button disabled
    // follow if it has not answered within BusyIndicator::kShowAfterMs.
    void beginWait(const QString &text);
    void updateBusy();
    void setOrderActionsEnabled(bool on);
    void showNoOrder();
    // Proposes a fix for `rows` of the order shown: the dialog opens only if the page still
    // shows that order when the fix rule's setting has been read; afterwards the order is read
    // again unless the page has moved on.
    void proposeFor(const QList<FixTargetRow> &rows, FixCover cover);
    QWidget *buildHeader();
    QWidget *buildTabs();
    // Column widths of the tables on one tab, measured when the tab is first shown for the
    // order on screen (not for every tab at every load).
    void fitColumnsOf(int tab);
    // The timeline's columns in the width it has: Detail always on screen, taking what the
    // others leave; Event and Cause cut to a share of the width when they are longer.
    void fitTimelineColumns(const QList<int> &natural);

    ConnectionProfile m_orders;
    Actor m_actor;
    OrderPicture m_picture;
    QLineEdit *m_search = nullptr;
    QPushButton *m_go = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_propose = nullptr;
    QLabel *m_status = nullptr;
    bool m_statusIsError = false;
    // The busy bar shows while a read (search or order) or a dossier export is in flight:
    // whichever answers first does not hide the other's wait.
    bool m_reading = false;
    bool m_exporting = false;
    QString m_waitText;
    BusyIndicator *m_busy = nullptr;
    QTableView *m_hitTable = nullptr;
    SelectableLabel *m_title = nullptr;
    SelectableLabel *m_facts = nullptr;
    StatePathLabel *m_path = nullptr;
    StateDiagram *m_diagram = nullptr;
    QTabWidget *m_tabs = nullptr;
    QList<bool> m_tabFitted;
    QTableView *m_timelineTable = nullptr;
    TableColumnFitter *m_timelineFit = nullptr; // its widths from their contents, fitted
    QWidget *m_auditTab = nullptr;
    QTableView *m_messageTable = nullptr;
    QPlainTextEdit *m_raw = nullptr;
    OrderHitModel *m_hits = nullptr;
    TimelineModel *m_timeline = nullptr;
    MessageModel *m_messages = nullptr;
    PaymentModel *m_payments = nullptr;
    LedgerModel *m_ledger = nullptr;
    IdempotencyModel *m_requests = nullptr;
    RefundModel *m_refunds = nullptr;
    FulfilmentModel *m_fulfilment = nullptr;
    AuditRowModel *m_audit = nullptr;
    QWidget *m_detail = nullptr;
    QWidget *m_header = nullptr; // title, facts, path, diagram
    quint64 m_generation = 0;
    SearchLookAhead *m_lookAhead = nullptr;
};

} // namespace OncePay
