#include "reconciliationpage.h"

#include "auth/permissions.h"
#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/tableviews.h"
#include "desk/reconciliationdesk.h"
#include "fixes/fixactions.h"
#include "fixes/fixlabels.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "fixes/fixtargets.h"
#include "reconciliation/reconciliationtypes.h"
#include "settlement/settlementline.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDateEdit>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

struct DeskData {
    QList<ReconciliationRunRow> runs;
    QList<DiscrepancyRow> exceptions;
    DeskSummary summary;
};

const QStringList kChannels = {QStringLiteral("stripe"), QStringLiteral("paypal"),
                               QStringLiteral("kakaopay"), QStringLiteral("fedapay")};

// The line's date named as the channel's statement means it (SettledAt, settlementline.h).
QString settledAtLabel(const SettlementSide &line)
{
    const QString at = Labels::time(line.settledAt);
    if (line.settledAtMeaning == SettledAt::FundsAvailable)
        return ReconciliationPage::tr("Available in the channel balance %1").arg(at);
    if (line.settledAtMeaning == SettledAt::Completed)
        return ReconciliationPage::tr("Completed %1").arg(at);
    if (line.settledAtMeaning == SettledAt::PayoutDate)
        return ReconciliationPage::tr("Payout date %1").arg(at);
    if (line.settledAtMeaning == SettledAt::Approved)
        return ReconciliationPage::tr("Approved %1").arg(at);
    if (line.settledAtMeaning == SettledAt::Refunded)
        return ReconciliationPage::tr("Refunded %1").arg(at);
    return ReconciliationPage::tr("Settled %1").arg(at);
}

QDate utcDay(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).date();
}

qint64 dayStart(const QDate &d)
{
    return QDateTime(d, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
}

} // namespace

ReconciliationPage::ReconciliationPage(const ConnectionProfile &orders, const Actor &actor,
                                       QWidget *parent)
    : QWidget(parent)
    , m_orders(orders)
    , m_actor(actor)
    , m_runs(new RunModel(this))
    , m_exceptions(new DiscrepancyDeskModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("reconciliationPage"));
    const auto role = parseStaffRole(actor.role);
    const bool finance = role && can(*role, Action::DecideFix);
    const bool mayPropose = role && can(*role, Action::ProposeFix);
    m_proxy->setSourceModel(m_exceptions);
    m_proxy->setSortRole(SortRole);

    auto *title = new QLabel(tr("<h2>Reconciliation</h2>"), this);
    m_run = new QPushButton(tr("R&un reconciliation…"), this);
    m_run->setObjectName(QStringLiteral("run"));
    m_run->setVisible(finance);
    m_cancel = new QPushButton(tr("&Cancel run"), this);
    m_cancel->setObjectName(QStringLiteral("cancel"));
    m_cancel->hide();
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progress"));
    m_progress->hide();
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    connect(m_refresh, &QPushButton::clicked, this, &ReconciliationPage::refresh);
    connect(m_run, &QPushButton::clicked, this, &ReconciliationPage::askRun);
    connect(m_cancel, &QPushButton::clicked, this, &ReconciliationPage::cancelRun);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    // The last run's outcome: refresh() rewrites m_summary, never this line.
    m_runNotice = new QLabel(this);
    m_runNotice->setObjectName(QStringLiteral("runNotice"));
    m_runNotice->setWordWrap(true);
    m_runNotice->setTextFormat(Qt::PlainText);
    m_runNotice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runNotice->hide();
    m_busy = new BusyIndicator(this);

    m_runTable = makeTable(this, m_runs, QStringLiteral("runs"));
    m_runTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runTable->setMaximumHeight(170);

    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->addItem(tr("Open exceptions"), QStringList{QStringLiteral("open")});
    m_status->addItem(tr("Corrected automatically"), QStringList{QStringLiteral("auto_fixed")});
    m_status->addItem(tr("Resolved or written off"),
                      QStringList{QStringLiteral("resolved"), QStringLiteral("written_off")});
    m_status->addItem(tr("All"), QStringList{});
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->addItem(tr("All kinds"), QString());
    for (const QString &k : DiscrepancyKind::all())
        m_kind->addItem(Labels::discrepancyKind(k), k);
    m_channel = new QComboBox(this);
    m_channel->setObjectName(QStringLiteral("channel"));
    m_channel->addItem(tr("All channels"), QString());
    for (const QString &c : kChannels)
        m_channel->addItem(c, c);
    m_age = new QComboBox(this);
    m_age->setObjectName(QStringLiteral("age"));
    m_age->addItem(tr("Any age"), 0);
    m_age->addItem(tr("Older than 1 day"), 86400);
    m_age->addItem(tr("Older than 7 days"), 7 * 86400);
    m_age->addItem(tr("Older than 30 days"), 30 * 86400);
    for (QComboBox *box : {m_status, m_kind, m_channel, m_age})
        connect(box, &QComboBox::currentIndexChanged, this, &ReconciliationPage::refresh);

    m_exceptionTable = makeTable(this, m_proxy, QStringLiteral("exceptions"));
    m_exceptionTable->setSortingEnabled(true);
    m_exceptionTable->sortByColumn(DiscrepancyDeskModel::Age, Qt::DescendingOrder);
    m_exceptionTable->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(m_exceptionTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ReconciliationPage::showSelected);

    // The matched pair, side by side, and the rule of an automatic correction.
    auto side = [this](const QString &name, const QString &heading, QLabel **label) {
        auto *box = new QGroupBox(heading, this);
        *label = new QLabel(box);
        (*label)->setObjectName(name);
        (*label)->setWordWrap(true);
        (*label)->setTextInteractionFlags(Qt::TextSelectableByMouse);
        (*label)->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        auto *l = new QVBoxLayout(box);
        l->addWidget(*label);
        return box;
    };
    auto *pair = new QHBoxLayout;
    pair->addWidget(side(QStringLiteral("lineSide"), tr("Settlement line"), &m_lineSide), 1);
    pair->addWidget(side(QStringLiteral("paymentSide"), tr("Our payment"), &m_paymentSide), 1);
    pair->addWidget(side(QStringLiteral("ruleSide"), tr("Rule and evidence"), &m_ruleSide), 1);

    m_propose = new QPushButton(tr("&Propose fix…"), this);
    m_propose->setObjectName(QStringLiteral("propose"));
    m_propose->setVisible(mayPropose);
    m_closePeriod = new QPushButton(tr("C&lose period of selected run…"), this);
    m_closePeriod->setObjectName(QStringLiteral("closePeriod"));
    m_closePeriod->setVisible(mayPropose);
    m_openOrder = new QPushButton(tr("Open &order"), this);
    connect(m_propose, &QPushButton::clicked, this, &ReconciliationPage::proposeForSelected);
    connect(m_closePeriod, &QPushButton::clicked, this, &ReconciliationPage::closeSelectedPeriod);
    connect(m_openOrder, &QPushButton::clicked, this, [this] {
        const QModelIndex i = m_exceptionTable->currentIndex();
        if (i.isValid() && !i.data(OrderIdRole).toString().isEmpty())
            Q_EMIT openOrderRequested(i.data(OrderIdRole).toString());
    });
    connect(m_exceptionTable, &QTableView::activated, this, [this](const QModelIndex &i) {
        if (!i.data(OrderIdRole).toString().isEmpty())
            Q_EMIT openOrderRequested(i.data(OrderIdRole).toString());
    });
    connect(m_runTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ReconciliationPage::showSelected);

    auto *bar = new QHBoxLayout;
    bar->addWidget(title);
    bar->addStretch(1);
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_cancel);
    bar->addWidget(m_run);
    bar->addWidget(m_refresh);
    auto *filters = new QHBoxLayout;
    for (auto [label, box] :
         {std::pair{tr("&Show:"), m_status}, std::pair{tr("&Kind:"), m_kind},
          std::pair{tr("C&hannel:"), m_channel}, std::pair{tr("A&ge:"), m_age}}) {
        auto *l = new QLabel(label, this);
        l->setBuddy(box);
        filters->addWidget(l);
        filters->addWidget(box);
    }
    filters->addStretch(1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_openOrder);
    actions->addStretch(1);
    actions->addWidget(m_closePeriod);
    actions->addWidget(m_propose);

    auto *lower = new QWidget(this);
    auto *ll = new QVBoxLayout(lower);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addLayout(filters);
    ll->addWidget(m_exceptionTable, 3);
    ll->addLayout(pair, 1);
    ll->addLayout(actions);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_busy);
    layout->addWidget(m_runNotice);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("<b>Runs</b>"), this));
    layout->addWidget(m_runTable);
    layout->addWidget(new QLabel(tr("<b>Exceptions</b>"), this));
    layout->addWidget(lower, 1);
    showSelected();
}

void ReconciliationPage::refresh()
{
    const quint64 generation = ++m_generation;
    m_busy->setBusy(true);
    DiscrepancyFilter filter;
    filter.statuses = m_status->currentData().toStringList();
    filter.kind = m_kind->currentData().toString();
    filter.channel = m_channel->currentData().toString();
    filter.minAgeMs = m_age->currentData().toLongLong() * 1000;
    const Actor actor = m_actor;
    runBackgroundQuery<DeskData>(
        this, m_orders, QStringLiteral("reconciliation"),
        [filter, actor](const Connection &c) -> Result<DeskData> {
            ReconciliationDesk desk(c, Clock::system());
            DeskData d;
            auto runs = desk.runs(actor);
            if (!runs)
                return runs.error();
            auto exceptions = desk.discrepancies(filter, actor);
            if (!exceptions)
                return exceptions.error();
            auto summary = desk.summary(actor);
            if (!summary)
                return summary.error();
            d.runs = *runs;
            d.exceptions = *exceptions;
            d.summary = *summary;
            return d;
        },
        [this, generation](const Result<DeskData> &r) {
            if (generation != m_generation)
                return;
            m_busy->setBusy(false);
            if (!r) {
                // Runs and exceptions that could not be read again are not shown as if they
                // were current: someone would propose a fix or close a period on them.
                m_runs->setRows({});
                m_exceptions->setRows({});
                showSelected();
                Q_EMIT failed(showFailure(m_summary, r.error()));
                return;
            }
            m_runs->setRows(r->runs);
            m_exceptions->setRows(r->exceptions);
            m_runTable->resizeColumnsToContents();
            m_exceptionTable->resizeColumnsToContents();
            QStringList byKind;
            for (auto it = r->summary.openByKind.cbegin(); it != r->summary.openByKind.cend(); ++it)
                byKind << QStringLiteral("%1 %2")
                              .arg(it.value())
                              .arg(Labels::discrepancyKind(it.key()));
            // The punctuation is the language's too (简体中文: "：", "，", "。" and no space
            // between sentences).
            QString text = tr("%n open exception(s)", nullptr, int(r->summary.open));
            if (!byKind.isEmpty())
                text = tr("%1: %2", "open exceptions: how many of each kind")
                           .arg(text, byKind.join(tr(", ", "list separator")));
            const auto sentence = [this](const QString &before, const QString &next) {
                return tr("%1 %2", "two sentences, one after the other").arg(before, next);
            };
            text = tr("%1. %2", "a sentence without its full stop, then another")
                       .arg(text, tr("%n corrected automatically under the minimal-intervention "
                                     "rule.",
                                     nullptr, int(r->summary.autoFixed)));
            // The stuck records and the dashboard count every refund owed; the desk only
            // those whose captured money a run has seen settle: say so when they differ.
            if (r->summary.refundsOwed != r->summary.openByKind.value(DiscrepancyKind::RefundDue))
                text = sentence(text, tr("%n refund(s) owed in all (Stuck records): one is a "
                                         "\"Refund due\" exception once a run has seen the "
                                         "channel settle the money captured.",
                                         nullptr, int(r->summary.refundsOwed)));
            if (!r->runs.isEmpty() && r->runs.first().coveragePpm)
                text = sentence(text, tr("Latest run covers %1 of eligible payments.")
                                          .arg(Labels::coverage(*r->runs.first().coveragePpm)));
            if (r->summary.overdue)
                text = sentence(
                    text, r->summary.lastFinishedAt
                              ? tr("A run is overdue: the last one finished %1 ago (cadence %2).")
                                    .arg(Labels::age(QDateTime::currentMSecsSinceEpoch() -
                                                     r->summary.lastFinishedAt),
                                         Labels::age(r->summary.cadenceMs))
                              : tr("No reconciliation has run yet."));
            m_summary->setText(text);
            m_summary->setToolTip({});
            if (m_proxy->rowCount() > 0 && !m_exceptionTable->currentIndex().isValid())
                m_exceptionTable->selectionModel()->setCurrentIndex(
                    m_proxy->index(0, 0),
                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            showSelected();
            Q_EMIT loaded(int(r->exceptions.size()));
        });
}

void ReconciliationPage::showSelected()
{
    const QModelIndex current = m_exceptionTable->selectionModel()->currentIndex();
    const bool has = current.isValid();
    m_openOrder->setEnabled(has && !current.data(OrderIdRole).toString().isEmpty());
    m_closePeriod->setEnabled(m_runTable->selectionModel()->currentIndex().isValid());
    if (!has) {
        m_propose->setEnabled(false);
        m_lineSide->setText(tr("Select an exception."));
        m_paymentSide->clear();
        m_ruleSide->clear();
        return;
    }
    const DiscrepancyRow &d = m_exceptions->rowAt(m_proxy->mapToSource(current).row());
    m_propose->setEnabled(d.status == u"open" && !d.openFixId);
    m_lineSide->setText(d.line.present
                            ? tr("Line #%1 (%2)<br>Gross %3<br>Fee %4<br>Net %5<br>%6",
                                 "%6: the line's date as the channel means it")
                                  .arg(d.line.lineId)
                                  .arg(Labels::settlementKind(d.line.kind).toHtmlEscaped(),
                                       Labels::money(d.line.grossMinor, d.line.currency),
                                       Labels::money(d.line.feeMinor, d.line.currency),
                                       Labels::money(d.line.netMinor, d.line.currency),
                                       settledAtLabel(d.line).toHtmlEscaped())
                        : d.kind == DiscrepancyKind::RefundNotSettled
                            ? tr("No refund line: the channel has not reported this refund.")
                            : tr("No settlement line: the channel has not settled this payment."));
    // The moment the channel made the charge (and fixed its fee), where it differs from the
    // line's date: the fee rule judges the fee at it.
    if (d.line.present && d.line.transactedAt && d.line.transactedAt != d.line.settledAt)
        m_lineSide->setText(m_lineSide->text() + QStringLiteral("<br>") +
                            tr("Made at the channel %1",
                               "when the channel made the charge or refund; %1 a date and time")
                                .arg(Labels::time(d.line.transactedAt)));
    m_paymentSide->setText(d.payment.present
                               ? tr("Order %1 (%2)<br>Captured %3<br>Status %4<br>At %5")
                                     .arg(d.payment.orderId.toHtmlEscaped(),
                                          Labels::orderState(d.payment.orderState),
                                          Labels::money(d.payment.amountMinor, d.payment.currency),
                                          Labels::paymentStatus(d.payment.status).toHtmlEscaped(),
                                          Labels::time(d.payment.capturedAt))
                               : tr("No payment with transaction %1 is known to OncePay.")
                                     .arg(d.channelTxnId.toHtmlEscaped()));
    if (d.payment.present && d.payment.refundedAt)
        m_paymentSide->setText(m_paymentSide->text() + QStringLiteral("<br>") +
                               tr("Refunded %1").arg(Labels::time(d.payment.refundedAt)));
    QString rule = Labels::discrepancyStatus(d.status);
    if (!d.ruleId.isEmpty())
        rule += QStringLiteral("<br>") + tr("Rule %1 version %2; fee schedule #%3 %4")
                                             .arg(d.ruleId.toHtmlEscaped())
                                             .arg(d.ruleVersion)
                                             .arg(d.feeScheduleId)
                                             .arg(d.feeScheduleNote.toHtmlEscaped());
    if (!d.evidenceSha256.isEmpty())
        rule += QStringLiteral("<br><small>") +
                tr("Evidence SHA-256 %1").arg(d.evidenceSha256.left(24)) +
                QStringLiteral("…</small>");
    if (!d.detail.isEmpty())
        rule += QStringLiteral("<br>") + Labels::engineText(d.detail).toHtmlEscaped();
    if (d.openFixId)
        rule += QStringLiteral("<br><i>") +
                tr("Fix #%1 is waiting for approval.").arg(d.openFixId) + QStringLiteral("</i>");
    m_ruleSide->setText(rule);
}

void ReconciliationPage::proposeForSelected()
{
    const QModelIndex current = m_exceptionTable->currentIndex();
    if (!current.isValid())
        return;
    const DiscrepancyRow &d = m_exceptions->rowAt(m_proxy->mapToSource(current).row());
    FixTargetRow row{QStringLiteral("discrepancy"), QString::number(d.id), d.status, d.kind,
                     d.currency.isEmpty() ? d.line.currency : d.currency};
    QPointer<ReconciliationPage> self(this);
    proposeFixes(this, m_orders, m_actor, {row}, [self](int) {
        if (self)
            self->refresh();
    });
}

void ReconciliationPage::closeSelectedPeriod()
{
    const QModelIndex current = m_runTable->currentIndex();
    if (!current.isValid())
        return;
    const ReconciliationRunRow &run = m_runs->rowAt(current.row());
    FixTargetRow row{QStringLiteral("period"),
                     FixTargets::periodTarget(run.periodFrom, run.periodTo), QStringLiteral("open"),
                     QString(), QString()};
    QPointer<ReconciliationPage> self(this);
    proposeFixes(this, m_orders, m_actor, {row}, [self](int) {
        if (self)
            self->refresh();
    });
}

void ReconciliationPage::askRun()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("runDialog"));
    dialog.setWindowTitle(tr("Run reconciliation"));
    const QDate today = QDateTime::currentDateTimeUtc().date();
    auto *from = new QDateEdit(QDate(today.year(), today.month(), 1).addMonths(-1), &dialog);
    auto *to = new QDateEdit(QDate(today.year(), today.month(), 1).addDays(-1), &dialog);
    for (QDateEdit *e : {from, to}) {
        e->setCalendarPopup(true);
        e->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    }
    if (!m_runs->rows().isEmpty()) { // default: the latest run's period again
        from->setDate(utcDay(m_runs->rows().first().periodFrom));
        to->setDate(utcDay(m_runs->rows().first().periodTo - 1));
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Run"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("&From (UTC):"), from);
    form->addRow(tr("&To, inclusive:"), to);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    // An inverted period goes to the service too: it refuses it, audited, and says why.
    startRun(dayStart(from->date()), dayStart(to->date().addDays(1)));
}

void ReconciliationPage::startRun(qint64 fromMs, qint64 toMs)
{
    m_cancelFlag = std::make_shared<std::atomic_bool>(false);
    auto cancel = m_cancelFlag;
    m_run->setEnabled(false);
    m_runNotice->hide(); // the last run's outcome stays until this one ends
    m_cancel->show();
    m_progress->setRange(0, 0);
    m_progress->show();
    QPointer<ReconciliationPage> self(this);
    ReconcileOptions options;
    options.fromMs = fromMs;
    options.toMs = toMs;
    options.progress = [cancel, self](qint64 done, qint64 total) {
        QMetaObject::invokeMethod(
            qApp,
            [self, done, total] {
                if (!self || total <= 0)
                    return;
                self->m_progress->setRange(0, 1000);
                self->m_progress->setValue(int(qMin<qint64>(1000, done * 1000 / total)));
            },
            Qt::QueuedConnection);
        return !cancel->load();
    };
    const Actor actor = m_actor;
    runBackgroundQuery<ReconcileReport>(
        this, m_orders, QStringLiteral("reconcile"),
        [options, actor](const Connection &c) {
            return ReconciliationDesk(c, Clock::system()).reconcile(options, actor);
        },
        [this](const Result<ReconcileReport> &r) {
            m_run->setEnabled(true);
            m_cancel->hide();
            m_progress->hide();
            QString status, message;
            if (!r) {
                // Refused (audited by the service; no run was started) or failed: said in the
                // interface language, the technical message in the tooltip and the log.
                status =
                    isRefusal(r.error()) ? QStringLiteral("refused") : QStringLiteral("failed");
                message = runErrorText(r.error());
                spdlog::warn("console: reconciliation run {}: {}", status.toStdString(),
                             r.error().toString().toStdString());
            } else {
                status = r->status;
                message =
                    r->status == u"cancelled"
                        ? tr("Run #%1 was cancelled; nothing it found was kept.").arg(r->runId)
                        : tr("Run #%1 finished: coverage %2, %3 corrected automatically, %4 new "
                             "exception(s).")
                              .arg(r->runId)
                              .arg(Labels::coverage(r->coveragePpm))
                              .arg(r->autoFixed)
                              .arg(r->opened);
            }
            m_runNotice->setStyleSheet(r ? QString()
                                         : QStringLiteral("QLabel { color: #b00020; }"));
            m_runNotice->setText(message);
            m_runNotice->setToolTip(r ? QString() : r.error().message);
            m_runNotice->show();
            refresh();
            Q_EMIT runFinished(status, message);
        });
}

QString ReconciliationPage::runErrorText(const Error &e)
{
    if (isRefusal(e))
        return tr("The run was not started. %1", "%1: why, a sentence of its own")
            .arg(actionErrorText(e));
    return tr("The run failed: %1").arg(actionErrorText(e));
}

void ReconciliationPage::cancelRun()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

} // namespace OncePay
