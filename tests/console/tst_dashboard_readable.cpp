// The dashboard as read (offscreen, 1280×800, en_US): the default range ends now (the range up to
// the latest activity is a choice, and says where it ends and what came in since); a count past a
// million on a bar reads every digit; the time axis of a day reads hours, never elided; every
// value axis reads whole, distinct numbers, an empty chart too; stuck records that cannot be
// counted are said under their chart, the rest of the page loaded.

#include "consolefixture.h"
#include "dashboard/dashboardpage.h"

#include "common/errortext.h"
#include "common/labels.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kHour = 3600 * 1000;

// What the chart shows: its text items' words (title, axis labels, bar labels).
QStringList textsOf(QChartView *view)
{
    QStringList out;
    for (QGraphicsItem *item : view->scene()->items())
        if (auto *t = dynamic_cast<QGraphicsTextItem *>(item); t && t->isVisible())
            out << t->toPlainText();
    return out;
}

QStringList matching(const QStringList &texts, const QString &pattern)
{
    return texts.filter(QRegularExpression(QStringLiteral("^(%1)$").arg(pattern)));
}

void settle(QWidget &page)
{
    // A page laid out again (as a load's busy line and status do): the charts' axes lay
    // their labels out.
    page.hide();
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
    page.repaint();
}

// The value axis's labels of a chart whose counts run along `orientation`.
QValueAxis *valueAxis(QChartView *view)
{
    for (QAbstractAxis *a : view->chart()->axes())
        if (auto *v = qobject_cast<QValueAxis *>(a))
            return v;
    return nullptr;
}

} // namespace

class TstDashboardReadable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
    }

    void init()
    {
        m_page = std::make_unique<DashboardPage>(m_fixture->config.orders,
                                                 account("agent", StaffRole::Agent).actor());
        m_page->resize(1280, 800);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
    }
    void cleanup() { m_page.reset(); }

    // Nothing remembered: the last 30 days up to now. The range up to the latest activity is
    // there to choose.
    void theDefaultRangeEndsNow()
    {
        QComboBox *range = m_page->rangeSelector();
        QCOMPARE(range->currentText(), QStringLiteral("Last 30 days"));
        QCOMPARE(range->currentData().toLongLong(), 30 * 24 * kHour);
        QCOMPARE(range->findText(QStringLiteral("30 days up to the latest activity")), 4);
        QSignalSpy loaded(m_page.get(), &DashboardPage::loaded);
        m_page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QVERIFY(m_page->data().range.toMs > QDateTime::currentMSecsSinceEpoch());
        QVERIFY(!m_page->rangeEndLine()->isVisible());
    }

    // A range that ends before the load says where it ends and what reached the door since.
    void aRangeThatEndsBeforeNowSaysSo()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        DashboardData d;
        d.range = DashboardQuery::rangeEndingAt(now - 5 * 24 * kHour, 30 * 24 * kHour);
        d.bucketMs = DashboardQuery::bucketFor(d.range);
        d.loadedAt = now;
        d.sinceRangeEnd = CallbackBucket{d.range.toMs, 3, 1, 0, 0, 20};
        m_page->showData(d);
        QLabel *line = m_page->rangeEndLine();
        QVERIFY(line->isVisible());
        QCOMPARE(line->text(),
                 QStringLiteral("This range ends %1; since then: 3 received, 1 duplicates absorbed"
                                " at the door, <span style=\"color:#e15759\"><b>20</b></span>"
                                " refused at the door.")
                     .arg(Labels::time(d.range.toMs)));
        d.sinceRangeEnd = CallbackBucket{d.range.toMs, 0, 2, 0, 0, 0};
        m_page->showData(d);
        QCOMPARE(line->text(),
                 QStringLiteral("This range ends %1; since then: 0 received, 2 duplicates absorbed"
                                " at the door, 0 refused at the door.")
                     .arg(Labels::time(d.range.toMs)));
        d.sinceRangeEnd = CallbackBucket{d.range.toMs};
        m_page->showData(d);
        QCOMPARE(line->text(), QStringLiteral("This range ends %1; nothing reached the door since.")
                                   .arg(Labels::time(d.range.toMs)));
        d.range = DashboardQuery::rangeEndingAt(now, 30 * 24 * kHour);
        m_page->showData(d);
        QVERIFY(!line->isVisible());
    }

    // 1,237,272 orders paid: the bar's label reads every digit.
    void aCountPastAMillionReadsExactly()
    {
        DashboardData d;
        d.range = DashboardQuery::rangeEndingAt(QDateTime::currentMSecsSinceEpoch(), 24 * kHour);
        d.bucketMs = DashboardQuery::bucketFor(d.range);
        d.loadedAt = QDateTime::currentMSecsSinceEpoch();
        d.ordersByState = {{QStringLiteral("failed"), 3}, {QStringLiteral("paid"), 1237272}};
        m_page->showData(d);
        settle(*m_page);
        const QStringList texts = textsOf(m_page->orderStatesChart());
        QVERIFY2(texts.contains(QStringLiteral("1,237,272")), qPrintable(texts.join(u'|')));
        QVERIFY2(texts.contains(QStringLiteral("3")), qPrintable(texts.join(u'|')));
        QVERIFY2(texts.filter(QStringLiteral("e+")).isEmpty(), qPrintable(texts.join(u'|')));
        // Its axis: whole numbers, the same step between ticks.
        QValueAxis *x = valueAxis(m_page->orderStatesChart());
        QVERIFY(x);
        QCOMPARE(x->max(), 2000000.0);
        QVERIFY2(matching(texts, QStringLiteral("0|1,000,000|2,000,000")).size() == 3,
                 qPrintable(texts.join(u'|')));
    }

    // The last 24 hours: hours on the time axis, none elided; whole counts on the value axis.
    void aDaysAxesReadHours()
    {
        QSignalSpy loaded(m_page.get(), &DashboardPage::loaded);
        m_page->rangeSelector()->setCurrentIndex(1); // Last 24 hours
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        settle(*m_page);
        QChartView *view = m_page->callbacksChart();
        QDateTimeAxis *x = nullptr;
        for (QAbstractAxis *a : view->chart()->axes())
            if (auto *t = qobject_cast<QDateTimeAxis *>(a))
                x = t;
        QVERIFY(x);
        QCOMPARE(x->format(), QStringLiteral("HH:mm"));
        const QStringList texts = textsOf(view);
        QVERIFY2(texts.filter(QStringLiteral("…")).isEmpty(), qPrintable(texts.join(u'|')));
        QCOMPARE(matching(texts, QStringLiteral("\\d\\d:\\d\\d")).size(), x->tickCount());
        QValueAxis *y = valueAxis(view);
        QVERIFY(y);
        const qint64 top = qint64(y->max());
        QCOMPARE(qreal(top), y->max());
        QCOMPARE(top % (y->tickCount() - 1), 0);
        QVERIFY(top >= m_page->data().callbackTotals().received / 24); // the peak fits
        const QStringList counts = matching(texts, QStringLiteral("[\\d,]+"));
        QCOMPARE(counts.size(), y->tickCount());
        QCOMPARE(QSet<QString>(counts.begin(), counts.end()).size(), counts.size());
        m_page->rangeSelector()->setCurrentIndex(3);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
    }

    // An empty database: every value axis reads distinct whole numbers from 0.
    void emptyChartsReadWholeNumbers()
    {
        DashboardData d;
        d.range = DashboardQuery::rangeEndingAt(QDateTime::currentMSecsSinceEpoch(), 24 * kHour);
        d.bucketMs = DashboardQuery::bucketFor(d.range);
        d.loadedAt = QDateTime::currentMSecsSinceEpoch();
        for (qint64 at = d.range.fromMs; at < d.range.toMs; at += d.bucketMs)
            d.callbacks << CallbackBucket{at};
        m_page->showData(d);
        settle(*m_page);
        QStringList line = matching(textsOf(m_page->callbacksChart()), QStringLiteral("\\d+"));
        line.sort();
        QCOMPARE(line, QStringList({"0", "1", "2", "3", "4"}));
        QStringList bars = matching(textsOf(m_page->stuckChart()), QStringLiteral("\\d+"));
        bars.sort();
        QCOMPARE(bars, QStringList({"0", "1", "2"}));
    }

    // The stuck counts could not be read (a stored threshold refused): said under the chart,
    // never zeros; the rest of the page is shown.
    void stuckCountsThatFailAreSaid()
    {
        DashboardData d;
        d.range = DashboardQuery::rangeEndingAt(QDateTime::currentMSecsSinceEpoch(), 24 * kHour);
        d.bucketMs = DashboardQuery::bucketFor(d.range);
        d.loadedAt = QDateTime::currentMSecsSinceEpoch();
        d.ordersByState = {{QStringLiteral("paid"), 2}};
        const Error bad = makeError(ErrorCode::Invalid,
                                    QStringLiteral("ops setting stuck.pending_seconds is not a"
                                                   " whole number from 1 to 604800: 'soon'"),
                                    QStringLiteral("bad_setting"));
        d.stuckError = bad;
        m_page->showData(d);
        QLabel *line = m_page->stuckErrorLine();
        QVERIFY(line->isVisible());
        QCOMPARE(line->text(), "Stuck records could not be counted: " + errorText(bad));
        QCOMPARE(line->toolTip(), bad.message);
        QCOMPARE(m_page->stuckChart()->chart()->title(),
                 QStringLiteral("Stuck records by kind (now) — not counted"));
        for (QAbstractAxis *axis : m_page->stuckChart()->chart()->axes())
            QVERIFY(!axis->isVisible());
        d.stuckError.reset();
        d.stuckByKind = {{QStringLiteral("dead_letter"), 1}};
        m_page->showData(d);
        QVERIFY(!line->isVisible());
        QCOMPARE(m_page->stuckChart()->chart()->title(),
                 QStringLiteral("Stuck records by kind (now)"));

        // Over the database: the stuck counts fail, the page loads and says so.
        EngineFixture &f = *m_fixture;
        QVERIFY(Sql::exec(f.orders->db(),
                          "ALTER TABLE refund_obligations RENAME TO refund_obligations_gone")
                    .ok());
        QSignalSpy loaded(m_page.get(), &DashboardPage::loaded);
        m_page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QVERIFY(Sql::exec(f.orders->db(),
                          "ALTER TABLE refund_obligations_gone RENAME TO refund_obligations")
                    .ok());
        QVERIFY(line->isVisible());
        QVERIFY(line->text().startsWith(QStringLiteral("Stuck records could not be counted: ")));
        QVERIFY(!m_page->data().ordersByState.isEmpty());
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = Error{};
    std::unique_ptr<EngineFixture> m_fixture;
    std::unique_ptr<DashboardPage> m_page;
};

QTEST_MAIN(TstDashboardReadable)
#include "tst_dashboard_readable.moc"
