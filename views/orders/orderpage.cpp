// The order page built, its picture of one order shown (header, path, tabs, a callback's raw
// text), and what acts on it: the dossier export and fix proposals. Search: orderpage_search.cpp.

#include "orderpage.h"

#include "fixes/fixactions.h"
#include "fixes/fixlabels.h"

#include "auth/permissions.h"
#include "channels/channelregistry.h"
#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/columnfit.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/kepttabbar.h"
#include "common/labels.h"
#include "common/reasontext.h"
#include "common/selectablelabel.h"
#include "common/tableviews.h"
#include "investigation/dossier.h"
#include "investigation/dossieraudit.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "orders/searchlookahead.h"
#include "orders/statediagram.h"
#include "orders/statepathlabel.h"
#include "orders/textcelldelegate.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

namespace OncePay {

OrderPage::OrderPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent)
    : QWidget(parent)
    , m_orders(orders)
    , m_actor(actor)
    , m_hits(new OrderHitModel(this))
    , m_timeline(new TimelineModel(this))
    , m_messages(new MessageModel(this))
    , m_payments(new PaymentModel(this))
    , m_ledger(new LedgerModel(this))
    , m_requests(new IdempotencyModel(this))
    , m_refunds(new RefundModel(this))
    , m_fulfilment(new FulfilmentModel(this))
    , m_audit(new AuditRowModel(this))
{
    setObjectName(QStringLiteral("orderPage"));
    auto *title = new QLabel(tr("<h2>Order investigation</h2>"), this);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Order, customer, transaction, callback or request id"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaxLength(OrderSearch::kMaxTermLength);
    m_go = new QPushButton(tr("&Find"), this);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
    m_lookAhead = new SearchLookAhead(orders, actor, this);
    connect(m_search, &QLineEdit::textEdited, m_lookAhead, &SearchLookAhead::edited);
    connect(m_go, &QPushButton::clicked, this, [this] { search(m_search->text()); });
    m_export = new QPushButton(tr("&Export dossier…"), this);
    m_export->setObjectName(QStringLiteral("exportDossier"));
    m_export->setToolTip(tr("Save everything about this order as a PDF for a dispute"));
    m_export->setEnabled(false);
    connect(m_export, &QPushButton::clicked, this, &OrderPage::exportDossierAs);
    m_propose = new QPushButton(tr("&Propose fix"), this);
    m_propose->setObjectName(QStringLiteral("proposeFix"));
    m_propose->setToolTip(tr("Ask for a correction of this order or its messages; a finance "
                             "reviewer approves it"));
    {
        const auto role = parseStaffRole(actor.role);
        m_propose->setVisible(role && can(*role, Action::ProposeFix));
    }
    m_propose->setEnabled(false);
    auto *proposeMenu = new QMenu(m_propose);
    proposeMenu
        ->addAction(tr("Confirm or roll back this order…"), this, &OrderPage::proposeOrderFix)
        ->setObjectName(QStringLiteral("proposeOrder"));
    proposeMenu
        ->addAction(tr("Requeue or resolve its stuck messages…"), this,
                    &OrderPage::proposeMessageFix)
        ->setObjectName(QStringLiteral("proposeMessages"));
    m_propose->setMenu(proposeMenu);
    // New text for most orders ("29 events in the timeline."), measured in fewer layouts than a
    // QLabel's; an error said here can be selected and copied (selectablelabel.h).
    m_status = new SelectableLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_busy = new BusyIndicator(this);
    // What a read is waiting for is said only when the wait is long enough to be seen, with
    // the busy bar: a search or an order load answers in a millisecond or two, and saying
    // "Searching…" first cost a layout and a repaint of the status line and the export
    // button per read (~0.4 ms, while the pool thread waited for the CPU).
    connect(m_busy, &BusyIndicator::waitShown, this, [this] {
        setOrderActionsEnabled(false);
        setStatus(m_waitText);
    });

    m_hitTable = makeTable(this, m_hits, QStringLiteral("hits"));
    m_hitTable->setMaximumHeight(150);
    m_hitTable->hide();
    connect(m_hitTable, &QTableView::activated, this,
            [this](const QModelIndex &i) { openOrder(m_hits->rowAt(i.row()).order.orderId); });

    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(title);
    searchRow->addSpacing(16);
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_go);
    searchRow->addWidget(m_propose);
    searchRow->addWidget(m_export);

    m_detail = new QWidget(this);
    auto *detail = new QVBoxLayout(m_detail);
    detail->setContentsMargins(0, 0, 0, 0);
    m_header = buildHeader();
    detail->addWidget(m_header);
    detail->addWidget(buildTabs(), 1);
    m_detail->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(searchRow);
    layout->addWidget(m_busy);
    layout->addWidget(m_status);
    layout->addWidget(m_hitTable);
    layout->addWidget(m_detail, 1);
    layout->addStretch(); // with no order shown, the status line stays under the search box
    // Every table on the page draws and measures its text cells once-shaped (textcelldelegate.h).
    auto *cells = new TextCellDelegate(this);
    for (QTableView *table : findChildren<QTableView *>())
        table->setItemDelegate(cells);
    setStatus(tr("Search for an order by any of its identifiers."));
}

QWidget *OrderPage::buildHeader()
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    // The title and the facts are new text for every order, selectable to copy an id from
    // (selectablelabel.h). The title is in the font Qt gives an <h3>: bold, 1.2 times the size.
    m_title = new SelectableLabel(box);
    m_title->setObjectName(QStringLiteral("orderTitle"));
    QFont heading = m_title->font();
    heading.setBold(true);
    heading.setPointSizeF(heading.pointSizeF() * 1.2);
    m_title->setFont(heading);
    m_facts = new SelectableLabel(box);
    m_facts->setObjectName(QStringLiteral("orderFacts"));
    m_facts->setWordWrap(true);
    m_path = new StatePathLabel(box);
    m_path->setObjectName(QStringLiteral("statePath"));
    layout->addWidget(m_title);
    layout->addWidget(m_facts);
    layout->addWidget(m_path);
    m_diagram = new StateDiagram(box);
    layout->addWidget(m_diagram);
    return box;
}

QWidget *OrderPage::buildTabs()
{
    // Its tab bar keeps what it painted (kepttabbar.h): moved by a header of another height, it
    // was painted anew, 0.6–0.7 ms.
    m_tabs = new KeptTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("orderTabs"));
    // No pane frame (each table has its own): the frame was drawn anew whenever the header
    // above changed height and moved the tabs, 1.8 ms of such an order's page.
    m_tabs->setDocumentMode(true);
    m_timelineTable = makeTable(this, m_timeline, QStringLiteral("timeline"));
    // Detail, the longest text, takes the width the other columns leave (fitTimelineColumns).
    m_timelineTable->horizontalHeader()->setStretchLastSection(false);
    m_timelineTable->horizontalHeader()->setSectionResizeMode(TimelineModel::Detail,
                                                              QHeaderView::Stretch);
    m_timelineFit = new TableColumnFitter(
        m_timelineTable, [this](const QList<int> &natural) { fitTimelineColumns(natural); });
    m_tabs->addTab(m_timelineTable, tr("&Timeline"));

    auto *messages = new QSplitter(Qt::Vertical, this);
    m_messageTable = makeTable(messages, m_messages, QStringLiteral("messages"));
    m_raw = new QPlainTextEdit(messages);
    m_raw->setObjectName(QStringLiteral("rawCallback"));
    m_raw->setReadOnly(true);
    m_raw->setPlaceholderText(tr("Select a callback to see its body and headers as received."));
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    messages->addWidget(m_messageTable);
    messages->addWidget(m_raw);
    connect(m_messageTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &i) { showMessage(i.row()); });
    m_tabs->addTab(messages, tr("&Callbacks"));

    auto *money = new QWidget(this);
    auto *moneyLayout = new QVBoxLayout(money);
    moneyLayout->addWidget(new QLabel(tr("<b>Payments</b>"), money));
    moneyLayout->addWidget(makeTable(money, m_payments, QStringLiteral("payments")));
    moneyLayout->addWidget(new QLabel(tr("<b>Ledger</b>"), money));
    moneyLayout->addWidget(makeTable(money, m_ledger, QStringLiteral("ledger")));
    moneyLayout->addWidget(new QLabel(tr("<b>Refunds due</b>"), money));
    moneyLayout->addWidget(makeTable(money, m_refunds, QStringLiteral("refunds")));
    m_tabs->addTab(money, tr("&Payments and ledger"));
    m_tabs->addTab(makeTable(this, m_requests, QStringLiteral("requests")), tr("&Requests"));
    m_tabs->addTab(makeTable(this, m_fulfilment, QStringLiteral("fulfilment")),
                   tr("Purchase and &logistics"));

    // The audit trail is for finance and auditors (DESIGN.md §6); others do not get the tab
    // (and the service returns no rows to them anyway).
    connect(m_tabs, &QTabWidget::currentChanged, this, &OrderPage::fitColumnsOf);
    m_auditTab = makeTable(this, m_audit, QStringLiteral("audit"));
    if (require(m_actor, Action::ReadAudit))
        m_tabs->addTab(m_auditTab, tr("&Audit rows"));
    else
        m_auditTab->hide();
    return m_tabs;
}

void OrderPage::fitColumnsOf(int tab)
{
    if (tab < 0 || tab >= m_tabFitted.size() || m_tabFitted[tab])
        return;
    m_tabFitted[tab] = true;
    QWidget *page = m_tabs->widget(tab);
    if (auto *table = qobject_cast<QTableView *>(page))
        resizeColumnsToContents(table);
    for (QTableView *t : page->findChildren<QTableView *>())
        resizeColumnsToContents(t);
    if (page == m_timelineTable)
        m_timelineFit->remember();
}

void OrderPage::fitTimelineColumns(const QList<int> &n)
{
    QHeaderView *header = m_timelineTable->horizontalHeader();
    const int width = m_timelineTable->viewport()->width();
    const int rest =
        width - n[TimelineModel::Time] - n[TimelineModel::Version] - n[TimelineModel::Actor];
    // Detail keeps at least 45 % of what is left; Event and Cause share the rest when they need
    // more (cut with an ellipsis, whole in their tooltips), Event first.
    const int floor = 6 * fontMetrics().averageCharWidth();
    const int budget = qMax(2 * floor, rest - qMax(rest * 9 / 20, 2 * floor));
    int event = n[TimelineModel::Event];
    int cause = n[TimelineModel::Cause];
    if (event + cause > budget) {
        event = qMax(floor, qMin(event, qMax(budget * 11 / 20, budget - cause)));
        cause = qMax(floor, qMin(cause, budget - event));
    }
    for (int c : {int(TimelineModel::Time), int(TimelineModel::Version), int(TimelineModel::Actor)})
        header->resizeSection(c, n[c]);
    header->resizeSection(TimelineModel::Event, event);
    header->resizeSection(TimelineModel::Cause, cause);
}

QString OrderPage::statusText() const
{
    return m_status->text();
}

void OrderPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    if (error != m_statusIsError) { // a style sheet is parsed and applied anew on every set
        m_statusIsError = error;
        m_status->setStyleSheet(error ? QStringLiteral("color: #b31b1b;") : QString());
    }
}

// Export and propose act on the order shown: off while none is, so that neither reaches an
// order that is no longer on the page.
void OrderPage::setOrderActionsEnabled(bool on)
{
    m_export->setEnabled(on && !m_exporting); // one export at a time
    m_propose->setEnabled(on);
}

// No order on the page (no hit, several hits, a failed read): its detail goes, and with it
// what acts on it. showPicture() is the way back.
void OrderPage::showNoOrder()
{
    m_detail->hide();
    m_picture = {};
    setOrderActionsEnabled(false);
}

void OrderPage::beginWait(const QString &text)
{
    m_waitText = text;
    m_reading = true;
    updateBusy();
}

void OrderPage::updateBusy()
{
    m_busy->setBusy(m_reading || m_exporting);
}

void OrderPage::showCallback(int row)
{
    m_tabs->setCurrentWidget(m_messageTable->parentWidget());
    m_messageTable->setCurrentIndex(m_messages->index(row, 0));
}

void OrderPage::showPicture(const OrderPicture &p)
{
    // The order on the page read again (searched again, opened again from another view): a
    // table is set anew only if its rows changed, so the reader keeps their place (selection,
    // scroll, the callback open below the list) and an unchanged order costs no relayout or
    // repaint. The header's labels and the diagram already skip an unchanged text or path.
    const bool again = !m_detail->isHidden() && m_picture.order.orderId == p.order.orderId;
    bool tablesChanged = false;
    auto refill = [&](auto *model, const auto &rows) {
        if (again && model->rows() == rows)
            return false;
        model->setRows(rows);
        tablesChanged = true;
        return true;
    };
    m_timeline->setAuditRows(p.audit); // whose words an audit row's reason on the timeline is
    const bool messagesChanged = refill(m_messages, p.messages);
    refill(m_timeline, p.timeline);
    refill(m_payments, p.payments);
    refill(m_ledger, p.ledger);
    refill(m_requests, p.idempotency);
    refill(m_refunds, p.refunds);
    refill(m_fulfilment, p.fulfilment);
    refill(m_audit, p.audit);
    m_picture = p;
    const Order &o = p.order;
    const QString state = orderStateName(o.state);
    const QString title =
        tr("Order %1 — %2, version %3").arg(o.orderId, Labels::orderState(state)).arg(o.version);
    bool headerChanged = m_title->text() != title; // (it may take another height)
    m_title->setText(title);
    QStringList facts{tr("Amount: %1").arg(Labels::money(o.amountMinor, o.currency)),
                      tr("Customer: %1").arg(o.customerRef)};
    if (!o.currentRequestId.isEmpty())
        facts << tr("Current attempt: %1 on %2").arg(o.currentRequestId, o.channel);
    if (!o.channelTxnId.isEmpty())
        facts << tr("Transaction: %1").arg(o.channelTxnId);
    if (!o.stateReason.isEmpty())
        // An engine sentence in words; someone's own (a shop's rollback reason) quoted as
        // written, even when it reads like an engine sentence.
        facts << tr("Reason: %1").arg(Labels::orderReason(o.stateReason, p.transitions));
    // What is still to settle: money owed back, reconciliation exceptions still open.
    for (const auto &[currency, minor] : refundsOwed(p))
        facts << tr("To refund: %1").arg(Labels::money(minor, currency));
    if (const QList<OrderExceptionRow> open = openExceptions(p); !open.isEmpty()) {
        QStringList kinds;
        for (const OrderExceptionRow &d : open)
            if (const QString k = Labels::discrepancyKind(d.kind); !kinds.contains(k))
                kinds << k;
        facts << tr("%n open reconciliation exception(s) (%1)", nullptr, int(open.size()))
                     .arg(kinds.join(QStringLiteral(", ")));
    }
    facts << tr("Updated: %1").arg(Labels::time(o.updatedAt));
    const QString factsText = facts.join(QStringLiteral("   ·   "));
    headerChanged |= m_facts->text() != factsText;
    m_facts->setText(factsText);

    // The path through the state machine, rollbacks in amber, the current state in bold
    // (statepathlabel.h).
    using Part = StatePathLabel::Part;
    QList<Part> steps;
    if (!p.transitions.isEmpty())
        steps << Part{Labels::orderState(p.transitions.first().fromState), false, {}};
    for (const OrderTransition &t : p.transitions) {
        const bool rollback = isRollback(parseOrderState(t.fromState).value_or(OrderState::Paid),
                                         parseOrderState(t.toState).value_or(OrderState::Paid));
        const QString name = Labels::orderState(t.toState);
        steps << (rollback
                      ? Part{name + QStringLiteral(" ↺"), false, QColor(Labels::rollbackColour())}
                      : Part{name, false, {}});
    }
    if (steps.isEmpty())
        steps << Part{Labels::orderState(state), false, {}};
    steps.last().bold = true;
    const QString around = tr("Path: %1");
    const qsizetype at = around.indexOf(QStringLiteral("%1")); // (-1: the whole text before)
    QList<Part> path{Part{at < 0 ? around + QLatin1Char(' ') : around.left(at), false, {}}};
    for (qsizetype i = 0; i < steps.size(); ++i) {
        if (i > 0)
            path << Part{QStringLiteral(" → "), false, {}, false};
        path << steps[i];
    }
    if (const QString after = at < 0 ? QString() : around.mid(at + 2); !after.isEmpty())
        path << Part{after, false, {}, false};
    if (!p.rejections.isEmpty())
        path << Part{QStringLiteral(" "), false, {}, false}
             << Part{tr("%n refused attempt(s)", nullptr, int(p.rejections.size())), false,
                     QColor(Labels::refusedColour())};
    headerChanged |= m_path->parts() != path;
    m_path->setParts(path);
    QList<std::pair<QString, QString>> taken;
    for (const OrderTransition &t : p.transitions)
        taken.append({t.fromState, t.toState});
    m_diagram->setPath(taken, state);

    if (tablesChanged) {
        m_tabFitted = QList<bool>(m_tabs->count(), false);
        fitColumnsOf(m_tabs->currentIndex());
    }
    // The list was reset: no callback is selected any more (clearing an empty editor still
    // cost 70 µs).
    if (messagesChanged && !m_raw->document()->isEmpty())
        m_raw->clear();
    // A header of new text is laid out from the page down, each widget resized once. Left to
    // the posted layout requests, a header of another height (facts or path on more lines) was
    // first laid out inside its old height, the diagram squeezed, and painted so, before the
    // page gave the header its height and laid out and painted it all again (~1.5 ms). A text
    // set invalidates only the header's layout, so the layouts above it are told — before the
    // detail is shown (showing lays the page out) and whether or not the page is on screen.
    if (headerChanged) {
        m_header->updateGeometry();
        m_detail->updateGeometry();
    }
    m_detail->show();
    setOrderActionsEnabled(true);
    setStatus(tr("%n event(s) in the timeline.", nullptr, int(p.timeline.size())));
    if (headerChanged && isVisible())
        for (QWidget *w : {static_cast<QWidget *>(this), m_detail, m_header})
            w->layout()->activate();
}

void OrderPage::exportDossierAs()
{
    if (m_picture.order.orderId.isEmpty())
        return;
    const QString suggested =
        QDir::home().filePath(QStringLiteral("dossier-%1.pdf").arg(m_picture.order.orderId));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export dossier"), suggested,
                                                      tr("PDF documents (*.pdf)"));
    if (!path.isEmpty())
        exportDossier(path);
}

void OrderPage::exportDossier(const QString &path)
{
    if (m_picture.order.orderId.isEmpty())
        return;
    // The text is built here (translated words, the page's models); the PDF is laid out and
    // written on a pool thread, then the export is audited — or the file is removed.
    const QString html = Dossier::html(m_picture, m_actor.id, QDateTime::currentMSecsSinceEpoch());
    const QString orderId = m_picture.order.orderId;
    const qint64 version = m_picture.order.version;
    const Actor actor = m_actor;
    m_exporting = true;
    m_export->setEnabled(false);
    const QString writing = tr("Writing the dossier of order %1…").arg(orderId);
    m_waitText = writing;
    updateBusy();
    setStatus(writing);
    runBackgroundQuery<Dossier::WrittenFile>(
        this, m_orders, QStringLiteral("dossier"),
        [html, orderId, version, actor, path](const Connection &c) -> Result<Dossier::WrittenFile> {
            // The account as it is now, before a file exists: a refusal leaves nothing behind.
            if (auto allowed = DossierAudit(c, Clock::system()).authorizeExport(orderId, actor);
                !allowed)
                return allowed.error();
            auto file = Dossier::writePdf(html, orderId, path);
            if (!file)
                return file.error();
            DossierExportFacts facts{orderId, version, file->sha256Hex, file->bytes};
            if (auto audited = DossierAudit(c, Clock::system()).recordExport(facts, actor);
                !audited) {
                QFile::remove(path); // an export nobody can account for is not handed out
                return audited.error();
            }
            return file;
        },
        [this](const Result<Dossier::WrittenFile> &r) {
            // A search or an order started meanwhile keeps its busy bar; the export's outcome
            // is said now all the same (that read's answer says its own when it comes).
            m_exporting = false;
            updateBusy();
            m_export->setEnabled(!m_picture.order.orderId.isEmpty());
            if (!r) {
                setStatus(tr("The dossier was not exported: %1").arg(errorText(r.error())), true);
                Q_EMIT failed(m_status->text());
                return;
            }
            setStatus(tr("Dossier saved to %1 (%n page(s), SHA-256 %2).", nullptr, r->pages)
                          .arg(QDir::toNativeSeparators(r->path), r->sha256Hex.left(16)));
            Q_EMIT dossierExported(r->path, r->sha256Hex);
        });
}

void OrderPage::showMessage(int row)
{
    if (row < 0 || row >= m_picture.messages.size()) {
        m_raw->clear();
        return;
    }
    const CallbackMessageRow &m = m_picture.messages.at(row);
    // The body as the dossier shows it: every secret in it masked (the stored body, signed
    // evidence, is never changed).
    const QString body = Dossier::callbackBodyText(m.rawBody);
    // Headers one per line, as on the wire, each credential's value masked (the dossier's
    // lines: HeaderRedaction decides, for rows stored before ingest masked them too).
    const QString headers = Dossier::callbackHeaderLines(m.headers).join(u'\n') + u'\n';
    // Only a callback whose signature verified is ever stored as a message: the gateway answers
    // anything else with an error and keeps only a record of the refusal (reason, size, body
    // hash; ingest_rejections and a callback.rejected audit row). What it checked is the
    // channel's scheme.
    const QString scheme = Labels::engineText(ChannelRegistry::signatureScheme(m.channel));
    const QString signature =
        scheme.isEmpty()
            ? tr("Signature: verified by the gateway before the callback was stored.")
            : tr("Signature: verified by the gateway before the callback was stored — %1")
                  .arg(scheme);
    m_raw->setPlainText(
        tr("Callback %1 from %2\n%3\nUnsigned, wrongly signed or late requests are refused: only"
           " the refusal is recorded (reason, size, body hash), never the request.\n\nHeaders:"
           "\n%4\nBody:\n%5")
            .arg(m.callbackId, m.channel, signature, headers, body));
}

void OrderPage::proposeOrderFix()
{
    if (m_picture.order.orderId.isEmpty())
        return;
    proposeFor({{QStringLiteral("order"),
                 m_picture.order.orderId,
                 orderStateName(m_picture.order.state),
                 {},
                 m_picture.order.currency}},
               FixCover::EveryTarget);
}

void OrderPage::proposeMessageFix()
{
    // All the order's messages; the service's rule offers each kind for the ones it fits now
    // (a processing message only once its lease is past its end by the clock-skew allowance),
    // and a proposal covers only those.
    QList<FixTargetRow> rows;
    for (const CallbackMessageRow &m : m_picture.messages)
        rows.append({QStringLiteral("message"),
                     m.callbackId,
                     m.status,
                     {},
                     m.currency,
                     m.leaseUntil > 0 ? std::optional<qint64>(m.leaseUntil) : std::nullopt});
    proposeFor(rows, FixCover::EachTarget);
}

void OrderPage::proposeFor(const QList<FixTargetRow> &rows, FixCover cover)
{
    const QString orderId = m_picture.order.orderId;
    QPointer<OrderPage> self(this);
    const quint64 shown = m_generation;
    // Still this order: nothing read since (a search or a hand-over, even one still on its
    // way, is the page moving on).
    const auto stillShown = [self, shown] { return self && self->m_generation == shown; };
    proposeFixes(
        this, m_orders, m_actor, rows,
        [self, orderId, shown](int n) {
            if (!self)
                return;
            Q_EMIT self->fixesProposed(n);
            if (self->m_generation == shown) // not if the page has moved on meanwhile
                self->openOrder(orderId);
        },
        cover, stillShown);
}

} // namespace OncePay
