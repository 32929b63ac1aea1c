#include "stuckpage.h"

#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/enginetext.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/tableviews.h"
#include "fixes/fixactions.h"
#include "investigation/stuckmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace OncePay {

StuckPage::StuckPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent)
    : QWidget(parent)
    , m_orders(orders)
    , m_actor(actor)
    , m_model(new StuckModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    setObjectName(QStringLiteral("stuckPage"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);

    auto *title = new QLabel(tr("<h2>Stuck records</h2>"), this);
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->addItem(tr("All kinds"), -1);
    for (StuckKind k : allStuckKinds())
        m_kind->addItem(Labels::stuckKind(k), int(k));
    m_age = new QComboBox(this);
    m_age->setObjectName(QStringLiteral("age"));
    m_age->addItem(tr("Any age past the threshold"), 0);
    m_age->addItem(tr("Older than 1 hour"), 3600);
    m_age->addItem(tr("Older than 1 day"), 86400);
    m_age->addItem(tr("Older than 7 days"), 7 * 86400);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &StuckPage::refresh);
    connect(m_age, &QComboBox::currentIndexChanged, this, &StuckPage::refresh);
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    connect(m_refresh, &QPushButton::clicked, this, &StuckPage::refresh);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_busy = new BusyIndicator(this);

    m_table = makeTable(this, m_proxy, QStringLiteral("stuck"));
    // The default order is the one the rows are loaded in (sorted on the pool thread); the
    // proxy sorts only when the person picks another column or order.
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionsClickable(true);
    header->setSortIndicatorShown(true);
    header->setSortIndicator(StuckModel::Age, Qt::DescendingOrder);
    connect(header, &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) {
                if (column == StuckModel::Age && order == Qt::DescendingOrder)
                    m_proxy->sort(-1); // back to the load order
                else
                    m_proxy->sort(column, order);
            });
    m_table->setToolTip(tr("Enter or double-click opens the order"));
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &StuckPage::updateActions);
    m_leaseEnds = new QTimer(this);
    m_leaseEnds->setSingleShot(true);
    connect(m_leaseEnds, &QTimer::timeout, this, &StuckPage::updateActions);
    m_propose = new QPushButton(tr("&Propose fix…"), this);
    m_propose->setObjectName(QStringLiteral("propose"));
    m_proposeHint = tr("Requeue or resolve the selected messages, or confirm or roll back the "
                       "selected order; a finance reviewer approves it");
    m_propose->setToolTip(m_proposeHint);
    const auto role = parseStaffRole(actor.role);
    m_propose->setVisible(role && can(*role, Action::ProposeFix));
    m_propose->setEnabled(false);
    connect(m_propose, &QPushButton::clicked, this, &StuckPage::proposeFix);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &i) {
        const QString order = i.data(OrderIdRole).toString();
        if (!order.isEmpty()) {
            m_note->hide();
            Q_EMIT openOrderRequested(order);
            return;
        }
        // A dead letter or message that names no order: the order search finds what its
        // callback reached (its transaction), or says nothing does.
        const StuckRecord &r = m_model->rowAt(m_proxy->mapToSource(i).row());
        if (!r.callbackId.isEmpty()) {
            m_note->setText(tr("This record names no order: searching the orders for its "
                               "callback %1.")
                                .arg(r.callbackId));
            m_note->show();
            Q_EMIT searchOrdersRequested(r.callbackId);
        } else {
            m_note->setText(tr("This record names no order."));
            m_note->show();
        }
    });
    m_more = new QPushButton(tr("Show &more"), this);
    m_more->setObjectName(QStringLiteral("more"));
    m_more->setToolTip(tr("Read the next records of the list (scrolling to its end does too)"));
    m_more->setVisible(false);
    connect(m_more, &QPushButton::clicked, this, &StuckPage::loadMore);
    connect(m_model, &StuckModel::moreWanted, this, &StuckPage::loadMore);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("note"));
    m_note->setWordWrap(true);
    m_note->hide(); // shown while it has something to say

    auto *bar = new QHBoxLayout;
    bar->addWidget(title);
    bar->addStretch(1);
    auto *kindLabel = new QLabel(tr("&Kind:"), this);
    kindLabel->setBuddy(m_kind);
    bar->addWidget(kindLabel);
    bar->addWidget(m_kind);
    auto *ageLabel = new QLabel(tr("A&ge:"), this);
    ageLabel->setBuddy(m_age);
    bar->addWidget(ageLabel);
    bar->addWidget(m_age);
    bar->addWidget(m_propose);
    bar->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
    auto *foot = new QHBoxLayout;
    foot->addStretch(1);
    foot->addWidget(m_more);
    layout->addLayout(foot);
}

namespace {

// What the stuck page's read hands to the GUI thread.
struct StuckLoad {
    StuckReport report;
    FixRuleSetting fix;
};

} // namespace

void StuckPage::refresh()
{
    const quint64 generation = ++m_generation;
    m_busy->setBusy(true);
    m_reading = true;
    m_note->hide();
    StuckFilter filter;
    if (m_kind->currentData().toInt() >= 0)
        filter.kinds = {StuckKind(m_kind->currentData().toInt())};
    filter.minAgeMs = m_age->currentData().toLongLong() * 1000;
    filter.pageSize = m_pageSize;
    const Actor actor = m_actor;
    runBackgroundQuery<StuckLoad>(
        this, m_orders, QStringLiteral("stuck"),
        [filter, actor](const Connection &c) -> Result<StuckLoad> {
            // The oldest page across the kinds, already in the table's default order.
            auto report = StuckQuery(c, Clock::system()).load(filter, actor);
            if (!report)
                return report.error();
            // What the fix offer judges leases with (the clock-skew allowance).
            auto setting = readFixRuleSetting(c);
            if (!setting)
                return setting.error();
            return StuckLoad{std::move(*report), *setting};
        },
        [this, generation, filter](const Result<StuckLoad> &loaded) {
            if (generation != m_generation)
                return;
            m_busy->setBusy(false);
            m_reading = false;
            if (!loaded)
                return showLoadFailure(loaded.error());
            m_fixSetting = loaded->fix;
            m_filter = filter;
            m_filter.atMs = loaded->report.now; // later pages: the same cut-offs and ages
            m_filter.withCounts = false;
            m_head = loaded->report;
            m_head.records.clear();
            m_cursors.clear();
            m_ended.clear();
            m_nextPageSize = 2 * filter.pageSize;
            m_model->setRows(loaded->report.records);
            takePage(loaded->report);
            m_table->resizeColumnsToContents();
            showSummary();
            updateActions();
            Q_EMIT this->loaded(m_model->rowCount());
        });
}

bool StuckPage::hasMore() const
{
    for (auto it = m_head.counts.cbegin(); it != m_head.counts.cend(); ++it)
        if (!m_ended.contains(it.key()))
            return true;
    return false;
}

void StuckPage::takePage(const StuckReport &page)
{
    m_cursors.insert(page.cursors); // each kind continues after its last record here
    for (StuckKind k : page.ended)
        if (!m_ended.contains(k))
            m_ended << k;
    m_model->setMoreToFetch(hasMore());
    m_more->setVisible(hasMore());
    m_more->setEnabled(true); // also after a refresh that overtook a read of more
}

void StuckPage::loadMore()
{
    if (m_reading || !hasMore())
        return;
    const quint64 generation = m_generation;
    m_reading = true;
    m_busy->setBusy(true);
    m_more->setEnabled(false);
    StuckFilter filter = m_filter;
    filter.after = m_cursors;
    // Each further page twice the one before (up to kMaxPageSize): the first screen comes
    // quickly, and a long list is read to its end in a few reads rather than one per 2,000
    // rows. On SQLite and PostgreSQL a read costs its own rows (migration 0021); on MariaDB a
    // read of orders in flight or waiting messages sorts what is left of its kind again, which
    // one read per 2,000 rows made 3.6 times the raw statements (tests/bench/README.md).
    filter.pageSize = m_nextPageSize;
    m_nextPageSize = qMin(2 * m_nextPageSize, kMaxPageSize);
    filter.kinds.clear();
    for (auto it = m_head.counts.cbegin(); it != m_head.counts.cend(); ++it)
        if (!m_ended.contains(it.key()))
            filter.kinds << it.key();
    const Actor actor = m_actor;
    runBackgroundQuery<StuckReport>(
        this, m_orders, QStringLiteral("stuck"),
        [filter, actor](const Connection &c) -> Result<StuckReport> {
            return StuckQuery(c, Clock::system()).load(filter, actor);
        },
        [this, generation](Result<StuckReport> &&page) {
            if (generation != m_generation)
                return; // a refresh started over
            m_busy->setBusy(false);
            m_reading = false;
            m_more->setEnabled(true);
            if (!page)
                return showLoadFailure(page.error());
            m_model->appendRows(std::move(page->records)); // kept as it came (rowtablemodel.h)
            takePage(*page); // (its cursors; the records are not read)
            showSummary();
            Q_EMIT moreLoaded(m_model->rowCount());
        });
}

void StuckPage::showLoadFailure(const Error &error)
{
    // Rows that could not be read again are not shown as if they were current: someone
    // would act on a list the database no longer holds. Nothing is left to fetch either.
    m_head = {};
    m_cursors.clear();
    m_ended.clear();
    m_model->setRows({});
    m_model->setMoreToFetch(false);
    m_more->setVisible(false);
    updateActions();
    Q_EMIT failed(showFailure(m_summary, error));
}

void StuckPage::showSummary()
{
    qint64 total = 0;
    for (qint64 n : m_head.counts)
        total += n;
    const qint64 shown = m_model->rowCount();
    QString text = tr("%n record(s) need attention.", nullptr, int(qMin<qint64>(total, INT_MAX)));
    if (hasMore())
        text += QLatin1Char(' ') + tr("Showing the oldest %L1; the other %L2 are read as the list "
                                      "is scrolled to its end (or with Show more).")
                                       .arg(shown)
                                       .arg(qMax<qint64>(0, total - shown));
    else if (shown != total)
        text += QLatin1Char(' ') + tr("%L1 shown: records changed while the list was read; "
                                      "refresh to count them again.")
                                       .arg(shown);
    text += QLatin1Char(' ') + tr("Thresholds from the operations settings: messages and "
                                  "orders after %1, requests after %2.")
                                   .arg(Labels::age(m_head.pendingThresholdMs),
                                        Labels::age(m_head.idempotencyThresholdMs));
    if (!m_fixSetting.problem.isEmpty())
        text +=
            QLatin1Char(' ') + tr("Expired leases are offered no fix until this is corrected: %1")
                                   .arg(Labels::engineText(m_fixSetting.problem));
    m_summary->setText(text);
    m_summary->setToolTip({});
}

namespace {

// What a stuck record is, as a fix target, with the status the query read (the message's
// or the order's, never one assumed from the kind); nothing for kinds no fix applies to.
// FixService decides in the end and refuses what no longer fits.
std::optional<FixTargetRow> fixTarget(const StuckRecord &r)
{
    switch (r.kind) {
    case StuckKind::DeadLetter:
    case StuckKind::ExpiredLease:
    case StuckKind::ProcessingMessage:
    case StuckKind::PendingMessage:
        return FixTargetRow{
            QStringLiteral("message"), r.callbackId, r.status, {}, r.currency, r.leaseUntilMs};
    case StuckKind::OrderInFlight:
        return FixTargetRow{QStringLiteral("order"), r.orderId, r.status, {}, r.currency};
    default: return std::nullopt;
    }
}

} // namespace

static QList<FixTargetRow> selectedTargets(const QTableView *table,
                                           const QSortFilterProxyModel *proxy,
                                           const StuckModel *model)
{
    QList<FixTargetRow> rows;
    for (const QModelIndex &i : table->selectionModel()->selectedRows()) {
        const auto t = fixTarget(model->rowAt(proxy->mapToSource(i).row()));
        if (!t || t->targetId.isEmpty())
            return {};
        rows.append(*t);
    }
    return rows;
}

void StuckPage::updateActions()
{
    const FixClock at{.nowMs = Clock::system().nowMs(), .leaseSkewMs = m_fixSetting.leaseSkewMs};
    const QList<FixTargetState> targets =
        fixTargetStates(selectedTargets(m_table, m_proxy, m_model));
    const bool offered = !fixKindsOffered(targets, at).isEmpty();
    m_propose->setEnabled(offered);
    const auto next = fixOfferChangesAt(targets, at);
    if (next)
        m_leaseEnds->start(int(std::min<qint64>(*next - at.nowMs, 24LL * 3600 * 1000)));
    else
        m_leaseEnds->stop();
    // Why a selected lease, listed as expired, is not offered a fix yet: the rule waits out
    // the clock-skew allowance (its worker's clock wrote the lease end).
    m_propose->setToolTip(
        !offered && next
            ? tr("A selected message may still be held by its worker: its lease end plus the "
                 "clock-skew allowance (fixes.lease_skew_ms) is not past yet. A fix is offered "
                 "from %1.")
                  .arg(Labels::time(*next))
            : m_proposeHint);
}

void StuckPage::proposeFix()
{
    const QList<FixTargetRow> rows = selectedTargets(m_table, m_proxy, m_model);
    QPointer<StuckPage> self(this);
    proposeFixes(this, m_orders, m_actor, rows, [self](int proposed) {
        if (!self)
            return;
        Q_EMIT self->fixesProposed(proposed);
        self->refresh();
    });
}

} // namespace OncePay
