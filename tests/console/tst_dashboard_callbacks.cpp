// The dashboard's callbacks over time (offscreen, issue 8), over the console's day of payments:
// four lines — received, duplicates absorbed (the retry answered at the door and the re-report
// the worker skipped), refused as stale, refused at the door — each plotting its own count, and
// under the chart their legend: each line's colour and name with its total over the range.

#include "consolefixture.h"
#include "dashboard/dashboardpage.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

qint64 sumOf(const QLineSeries *series)
{
    qint64 n = 0;
    for (const QPointF &p : series->points())
        n += qint64(p.y());
    return n;
}

} // namespace

class TstDashboardCallbacks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
    }

    void theLinesAndTheirTotals()
    {
        DashboardPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &DashboardPage::loaded);
        page.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);

        QChart *chart = page.callbacksChart()->chart();
        QStringList names;
        QMap<QString, qint64> sums;
        for (QAbstractSeries *s : chart->series()) {
            auto *line = qobject_cast<QLineSeries *>(s);
            QVERIFY(line);
            names << line->name();
            sums[line->name()] = sumOf(line);
        }
        QCOMPARE(names, QStringList({"received", "duplicates absorbed", "refused as stale",
                                     "refused at the door"}));
        QCOMPARE(sums["received"], 9);
        QCOMPARE(sums["duplicates absorbed"], 2); // ord-paid: at the door, then by the worker
        QCOMPARE(sums["refused as stale"], 1);    // ord-rb's first attempt, late
        QCOMPARE(sums["refused at the door"], 1); // the forged request
        // The line under the chart is the legend: each line's colour, name and total.
        QVERIFY(!chart->legend()->isVisible());
        QLabel *totals = page.callbackTotalsLine();
        QVERIFY(totals && totals->isVisible());
        const auto swatch = [](const char *colour) {
            return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;")
                .arg(QLatin1String(colour));
        };
        const QString dot = QStringLiteral(" &nbsp;·&nbsp; ");
        QCOMPARE(totals->text(),
                 "In this range: " + swatch("#4e79a7") + "<b>9</b> received" + dot +
                     swatch("#f28e2b") +
                     "<b>2</b> duplicates absorbed (1 at the door, 1 skipped by the worker)" + dot +
                     swatch("#b07aa1") + "<b>1</b> refused as stale" + dot + swatch("#e15759") +
                     "<b>1</b> refused at the door");
        for (QAbstractSeries *s : chart->series())
            QVERIFY(totals->text().contains(
                swatch(qPrintable(qobject_cast<QLineSeries *>(s)->color().name()))));
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = Error{};
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstDashboardCallbacks)
#include "tst_dashboard_callbacks.moc"
