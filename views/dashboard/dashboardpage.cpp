#include "dashboardpage.h"

#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/errortext.h"
#include "common/labels.h"
#include "common/tableviews.h"
#include "investigation/discrepancymodel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QConcatenateTablesProxyModel>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <limits>

namespace OncePay {

namespace {

constexpr qint64 kHour = 3600 * 1000;

QChartView *makeChartView(QWidget *parent, const QString &name)
{
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *view = new QChartView(chart, parent);
    view->setObjectName(name);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

QString stateLabel(const QString &code)
{
    return Labels::orderState(code);
}

QString statusLabel(const QString &code)
{
    return Labels::messageStatus(code);
}

QString stuckLabel(const QString &code)
{
    return Labels::stuckKindFromCode(code);
}

// The top of a value axis of counts that must show `need` with `ticks` ticks: a step of 1, 2
// or 5 × 10^k between ticks, so that every tick is a whole number, exact, however small the
// counts (an empty chart reads 0 … ticks − 1, never "1, 1, 0, 0").
qint64 integerAxisTop(qint64 need, int ticks)
{
    const qint64 intervals = qMax(1, ticks - 1);
    const qint64 minStep = qMax<qint64>(1, (need + intervals - 1) / intervals);
    for (qint64 magnitude = 1; magnitude < std::numeric_limits<qint64>::max() / 50; magnitude *= 10)
        for (qint64 m : {1, 2, 5})
            if (m * magnitude >= minStep)
                return m * magnitude * intervals;
    return need;
}

// Counts as the locale writes whole numbers, on the axes and the bars' labels: 1,237,272, never
// 1.23727e+06.
QValueAxis *countAxis(QChart *chart, qint64 need, int ticks)
{
    auto *axis = new QValueAxis(chart);
    axis->setRange(0, qreal(integerAxisTop(need, ticks)));
    axis->setTickCount(ticks);
    axis->setMinorTickCount(0);
    // With the chart's numbers localized Qt reads only "%.<precision><conversion>"; any
    // other format leaves the labels empty.
    axis->setLabelFormat(QStringLiteral("%.0f"));
    return axis;
}

} // namespace

DashboardPage::DashboardPage(const ConnectionProfile &orders, const Actor &actor, QWidget *parent)
    : QWidget(parent)
    , m_orders(orders)
    , m_actor(actor)
    , m_discrepancies(new DiscrepancyTotalModel(this))
    , m_discrepancyTotals(new DiscrepancyCurrencyTotalModel(this))
{
    setObjectName(QStringLiteral("dashboardPage"));
    auto *title = new QLabel(tr("<h2>Dashboard</h2>"), this);
    m_range = new QComboBox(this);
    m_range->setObjectName(QStringLiteral("range"));
    m_range->addItem(tr("Last hour"), 1 * kHour);
    m_range->addItem(tr("Last 24 hours"), 24 * kHour);
    m_range->addItem(tr("Last 7 days"), 7 * 24 * kHour);
    m_range->addItem(tr("Last 30 days"), 30 * 24 * kHour);
    // Negative: the same span, ending at the database's latest activity (an older or simulated
    // database), chosen, never the default: a range that ends before now hides what came after.
    m_range->addItem(tr("30 days up to the latest activity"), -30 * 24 * kHour);
    m_range->setCurrentIndex(qBound(
        0, QSettings().value(QStringLiteral("dashboard/range"), 3).toInt(), m_range->count() - 1));
    m_range->setToolTip(tr("Time range of the callback chart and the message statuses"));
    connect(m_range, &QComboBox::currentIndexChanged, this, [this](int index) {
        QSettings().setValue(QStringLiteral("dashboard/range"), index);
        refresh();
    });
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    connect(m_refresh, &QPushButton::clicked, this, &DashboardPage::refresh);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_busy = new BusyIndicator(this);

    auto *bar = new QHBoxLayout;
    bar->addWidget(title);
    bar->addStretch(1);
    bar->addWidget(m_status);
    bar->addWidget(new QLabel(tr("Range:"), this));
    bar->addWidget(m_range);
    bar->addWidget(m_refresh);

    m_callbacks = makeChartView(this, QStringLiteral("callbacksChart"));
    m_statuses = makeChartView(this, QStringLiteral("statusChart"));
    m_states = makeChartView(this, QStringLiteral("stateChart"));
    m_stuck = makeChartView(this, QStringLiteral("stuckChart"));
    m_rangeEnd = new QLabel(this);
    m_rangeEnd->setObjectName(QStringLiteral("rangeEnd"));
    m_rangeEnd->setWordWrap(true);
    m_rangeEnd->hide();
    m_callbackTotals = new QLabel(this);
    m_callbackTotals->setObjectName(QStringLiteral("callbackTotals"));
    m_callbackTotals->setWordWrap(true);
    auto *note = new QLabel(
        tr("Payment results only (successes, failures, refunds). “Duplicates absorbed”: a"
           " channel's redeliveries answered “already received” at the door, and received"
           " callbacks the worker skipped because the payment was already applied or its outcome"
           " already decided. “Refused as stale”: callbacks of a superseded payment attempt;"
           " money they report captured is flagged for refund. “Refused at the door”: bad"
           " signature, malformed, too large."),
        this);
    note->setWordWrap(true);
    note->setObjectName(QStringLiteral("duplicatesNote"));
    QFont small = note->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    note->setFont(small);
    auto *noteBox = new QWidget(this);
    auto *noteLayout = new QVBoxLayout(noteBox);
    noteLayout->setContentsMargins(0, 0, 0, 0);
    noteLayout->setSpacing(2);
    noteLayout->addWidget(m_rangeEnd);
    noteLayout->addWidget(m_callbackTotals);
    noteLayout->addWidget(note);

    // A partly refunded order stays paid: said under the states, not as a state of its own
    // (the bars would count it twice).
    auto *statesBox = new QWidget(this);
    auto *statesLayout = new QVBoxLayout(statesBox);
    statesLayout->setContentsMargins(0, 0, 0, 0);
    statesLayout->setSpacing(2);
    m_states->setParent(statesBox);
    statesLayout->addWidget(m_states, 1);
    m_partialRefunds = new QLabel(statesBox);
    m_partialRefunds->setObjectName(QStringLiteral("partialRefunds"));
    m_partialRefunds->setWordWrap(true);
    m_partialRefunds->setContentsMargins(8, 0, 8, 0);
    m_partialRefunds->setToolTip(
        tr("An order stays paid until its refunds reach what was captured; these paid orders had"
           " part of their money refunded (the ledger's refund debits)."));
    statesLayout->addWidget(m_partialRefunds);

    auto *stuckBox = new QWidget(this);
    auto *stuckLayout = new QVBoxLayout(stuckBox);
    stuckLayout->setContentsMargins(0, 0, 0, 0);
    stuckLayout->setSpacing(2);
    m_stuck->setParent(stuckBox);
    stuckLayout->addWidget(m_stuck, 1);
    m_stuckError = new QLabel(stuckBox);
    m_stuckError->setObjectName(QStringLiteral("stuckError"));
    m_stuckError->setWordWrap(true);
    m_stuckError->setTextFormat(Qt::PlainText); // an engine's sentence, shown as it is
    m_stuckError->setContentsMargins(8, 0, 8, 0);
    m_stuckError->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_stuckError->hide();
    stuckLayout->addWidget(m_stuckError);

    // One table: a row per channel and currency, then a total line per currency.
    auto *discrepancyLines = new QConcatenateTablesProxyModel(this);
    discrepancyLines->addSourceModel(m_discrepancies);
    discrepancyLines->addSourceModel(m_discrepancyTotals);
    m_discrepancyTable = makeTable(this, discrepancyLines, QStringLiteral("discrepancies"));
    m_discrepancyTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_discrepancyTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_discrepancyTable->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    auto *discBox = new QWidget(this);
    auto *discLayout = new QVBoxLayout(discBox);
    discLayout->setContentsMargins(0, 0, 0, 0);
    m_discrepancyTitle = new QLabel(tr("<b>Open discrepancies by channel</b>"), discBox);
    discLayout->addWidget(m_discrepancyTitle);
    discLayout->addWidget(m_discrepancyTable);

    // The four charts two by two; the open discrepancies in a column of their own, as wide as
    // their lines and the page's whole height, so that every line and its totals are seen at
    // once (the bar charts keep the room their labels need).
    auto *grid = new QGridLayout;
    grid->addWidget(m_callbacks, 0, 0);
    grid->addWidget(m_statuses, 0, 1);
    grid->addWidget(noteBox, 1, 0, 1, 2);
    grid->addWidget(statesBox, 2, 0);
    grid->addWidget(stuckBox, 2, 1);
    grid->addWidget(discBox, 0, 2, 3, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 0);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_busy);
    layout->addLayout(grid, 1);
}

void DashboardPage::refresh()
{
    const quint64 generation = ++m_generation;
    m_busy->setBusy(true);
    m_status->setText(tr("Loading…"));
    const qint64 span = m_range->currentData().toLongLong();
    const Actor actor = m_actor;
    runBackgroundQuery<DashboardData>(
        this, m_orders, QStringLiteral("dashboard"),
        [span, actor](const Connection &c) -> Result<DashboardData> {
            DashboardQuery query(c, Clock::system());
            qint64 end = Clock::systemNowMs();
            if (span < 0) {
                auto latest = query.latestActivityMs();
                if (!latest)
                    return latest.error();
                if (*latest > 0)
                    end = *latest;
            }
            return query.load(DashboardQuery::rangeEndingAt(end, qAbs(span)), actor);
        },
        [this, generation](const Result<DashboardData> &r) {
            if (generation != m_generation)
                return; // a newer refresh is on its way
            m_busy->setBusy(false);
            if (!r) {
                Q_EMIT failed(showFailure(m_status, r.error()));
                return;
            }
            showData(*r);
            Q_EMIT loaded();
        });
}

void DashboardPage::showData(const DashboardData &data)
{
    m_data = data;
    m_status->setText(tr("Updated %1").arg(Labels::time(data.loadedAt)));
    m_status->setToolTip({});
    showCallbacks(data);
    showCounts(m_statuses, tr("Messages by status (range)"), data.messageStatuses, statusLabel,
               QStringLiteral("#4e79a7"));
    showCounts(m_states, tr("Orders by state (now)"), data.ordersByState, stateLabel,
               QStringLiteral("#59a14f"));
    showPartialRefunds(data);
    showStuck(data);
    m_discrepancies->setRows(data.openDiscrepancies);
    m_discrepancyTotals->setRows(data.openDiscrepancyTotals);
    m_discrepancyTitle->setText(data.openDiscrepancies.isEmpty()
                                    ? tr("<b>Open discrepancies by channel</b> — none open")
                                    : tr("<b>Open discrepancies by channel</b>"));
    m_discrepancyTable->resizeColumnsToContents();
    // As wide as its columns, with room for a scroll bar should its lines outgrow the page.
    m_discrepancyTable->setMinimumWidth(
        m_discrepancyTable->horizontalHeader()->length() + 2 * m_discrepancyTable->frameWidth() +
        m_discrepancyTable->style()->pixelMetric(QStyle::PM_ScrollBarExtent));
}

void DashboardPage::showStuck(const DashboardData &data)
{
    if (!data.stuckError) {
        m_stuckError->hide();
        showCounts(m_stuck, tr("Stuck records by kind (now)"), data.stuckByKind, stuckLabel,
                   QStringLiteral("#e15759"));
        return;
    }
    // Not zeros: the counts are unknown, and the page says why.
    showCounts(m_stuck, tr("Stuck records by kind (now)"), {}, stuckLabel,
               QStringLiteral("#e15759"));
    m_stuck->chart()->setTitle(tr("Stuck records by kind (now) — not counted"));
    for (QAbstractAxis *axis : m_stuck->chart()->axes())
        axis->hide(); // no scale for counts that are not there
    m_stuckError->setText(
        tr("Stuck records could not be counted: %1").arg(errorText(*data.stuckError)));
    m_stuckError->setToolTip(data.stuckError->message);
    m_stuckError->show();
}

void DashboardPage::showRangeEnd(const DashboardData &data)
{
    if (data.range.toMs >= data.loadedAt) {
        m_rangeEnd->hide();
        return;
    }
    const CallbackBucket &s = data.sinceRangeEnd;
    const QLocale locale;
    const QString end = Labels::time(data.range.toMs);
    if (s.received + s.duplicatesAtDoor + s.rejected == 0)
        m_rangeEnd->setText(tr("This range ends %1; nothing reached the door since.").arg(end));
    else
        // What the range hides that matters most, refusals at the door, in their line's colour.
        m_rangeEnd->setText(
            tr("This range ends %1; since then: %2 received, %3 duplicates absorbed at the door,"
               " %4 refused at the door.")
                .arg(end, locale.toString(s.received), locale.toString(s.duplicatesAtDoor),
                     s.rejected > 0
                         ? QStringLiteral("<span style=\"color:#e15759\"><b>%1</b></span>")
                               .arg(locale.toString(s.rejected))
                         : locale.toString(s.rejected)));
    m_rangeEnd->show();
}

void DashboardPage::showPartialRefunds(const DashboardData &data)
{
    const qint64 orders = data.partlyRefundedOrders();
    if (orders == 0) {
        m_partialRefunds->setText(tr("Paid orders with a partial refund: none"));
        return;
    }
    QStringList amounts;
    for (const PartialRefundTotal &t : data.partlyRefunded)
        amounts << (t.refundedMinor ? Labels::money(*t.refundedMinor, t.currency)
                                    : tr("too much to total in %1").arg(t.currency));
    m_partialRefunds->setText(tr("Paid orders with a partial refund: <b>%1</b> (refunded: %2)")
                                  .arg(orders)
                                  .arg(amounts.join(QStringLiteral(", ")).toHtmlEscaped()));
}

void DashboardPage::showCallbacks(const DashboardData &data)
{
    QChart *chart = m_callbacks->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes())
        chart->removeAxis(axis);
    chart->setTitle(tr("Callbacks over time"));
    // Four names do not fit the chart's legend at the page's width (Qt elides them): the line
    // under the chart is the legend, each name in its line's colour with its total.
    chart->legend()->hide();

    struct Line {
        QString name;
        const char *colour;
        qint64 (*count)(const CallbackBucket &);
        QString total; // the legend's words, with the range's total
    };
    const CallbackBucket t = data.callbackTotals();
    const QLocale locale;
    const auto n = [&locale](qint64 v) { return locale.toString(v); };
    const Line lines[] = {
        {tr("received"), "#4e79a7", [](const CallbackBucket &b) { return b.received; },
         tr("<b>%1</b> received").arg(n(t.received))},
        {tr("duplicates absorbed"), "#f28e2b",
         [](const CallbackBucket &b) { return b.duplicatesAbsorbed(); },
         tr("<b>%1</b> duplicates absorbed (%2 at the door, %3 skipped by the worker)")
             .arg(n(t.duplicatesAbsorbed()), n(t.duplicatesAtDoor), n(t.duplicatesSkipped))},
        {tr("refused as stale"), "#b07aa1", [](const CallbackBucket &b) { return b.stale; },
         tr("<b>%1</b> refused as stale").arg(n(t.stale))},
        {tr("refused at the door"), "#e15759", [](const CallbackBucket &b) { return b.rejected; },
         tr("<b>%1</b> refused at the door").arg(n(t.rejected))},
    };
    qint64 peak = 0;
    QStringList legend;
    for (const Line &line : lines) {
        auto *series = new QLineSeries(chart);
        series->setName(line.name);
        series->setColor(QColor(QLatin1String(line.colour)));
        for (const CallbackBucket &b : data.callbacks) {
            series->append(qreal(b.startMs + data.bucketMs / 2), qreal(line.count(b)));
            peak = std::max(peak, line.count(b));
        }
        chart->addSeries(series);
        legend << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                      .arg(QLatin1String(line.colour), line.total);
    }
    m_callbackTotals->setText(tr("In this range:") + u' ' +
                              legend.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    showRangeEnd(data);

    // Hours over a few days, days beyond: a date and a time on every tick do not fit the
    // chart's width (Qt elides them all alike).
    const qint64 span = data.range.toMs - data.range.fromMs;
    auto *x = new QDateTimeAxis(chart);
    x->setFormat(span <= 3 * 24 * kHour ? QStringLiteral("HH:mm") : QStringLiteral("MM-dd"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(data.range.fromMs),
                QDateTime::fromMSecsSinceEpoch(data.range.toMs));
    x->setTickCount(span <= kHour                ? 7   // every 10 minutes
                    : span <= 3 * 24 * kHour     ? 5   // every 6 hours over a day
                    : span <= 7 * 24 * kHour + 1 ? 8   // every day over a week
                                                 : 7); // every 5 days over 30
    chart->setLocalizeNumbers(true);
    QValueAxis *y = countAxis(chart, peak + (peak + 9) / 10, 5);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

void DashboardPage::showCounts(QChartView *view, const QString &title,
                               const QList<KeyCount> &counts, QString (*label)(const QString &),
                               const QString &colour)
{
    QChart *chart = view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes())
        chart->removeAxis(axis);
    chart->setTitle(title);

    auto *set = new QBarSet(title, chart);
    set->setColor(QColor(colour));
    set->setLabelColor(Qt::black);
    QStringList categories;
    qint64 peak = 0;
    for (const KeyCount &k : counts) {
        categories << label(k.key);
        *set << qreal(k.count);
        peak = qMax(peak, k.count);
    }
    auto *series = new QHorizontalBarSeries(chart);
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    // Every digit of a count (a double holds them exactly to 2^53): Qt's default of 6
    // significant digits writes 1237272 as 1.23727e+06.
    series->setLabelsPrecision(16);
    chart->setLocalizeNumbers(true);
    chart->addSeries(series);
    auto *y = new QBarCategoryAxis(chart);
    y->append(categories);
    // Room past the longest bar for its label.
    QValueAxis *x = countAxis(chart, peak + (3 * peak + 9) / 10, 3);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    series->attachAxis(y);
    if (counts.isEmpty())
        chart->setTitle(tr("%1 — none").arg(title));
}

} // namespace OncePay
