// The console's shared column fitting (views/common/columnfit): a cell cut in the middle; the
// natural widths remembered once and the page's rule applied again at every viewport resize,
// never with widths measured for other columns. And the pages that use it at the console's
// default size (1280 × 800): the approvals queue and the order timeline keep every column on
// screen, the long target cut in the middle, whole in its tooltip, also after the window
// shrinks. With ONCEPAY_GRAB_DIR set, the two pages are saved there as PNGs for a look.

#include "approvals/approvalspage.h"
#include "common/columnfit.h"
#include "consolefixture.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "investigation/ordermodels.h"
#include "longproposalsupport.h"
#include "orders/orderpage.h"
#include "shell/mainwindow.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

class ColumnFitOption : public TableMiddleElideDelegate {
public:
    using TableMiddleElideDelegate::TableMiddleElideDelegate;
    QStyleOptionViewItem optionFor(const QModelIndex &index) const
    {
        QStyleOptionViewItem o;
        o.textElideMode = Qt::ElideRight; // as a view hands it over
        initStyleOption(&o, index);
        return o;
    }
};

// The sections of `table` that are not wholly within its viewport.
QString columnFitOffScreen(const QTableView *table)
{
    const QHeaderView *h = table->horizontalHeader();
    QStringList off;
    for (int c = 0; c < table->model()->columnCount(); ++c) {
        const int left = h->sectionViewportPosition(c);
        if (h->isSectionHidden(c) || left < 0 ||
            left + h->sectionSize(c) > table->viewport()->width())
            off << table->model()->headerData(c, Qt::Horizontal).toString();
    }
    return off.join(QStringLiteral(", "));
}

QString columnFitWidths(const QTableView *table)
{
    QStringList w;
    for (int c = 0; c < table->model()->columnCount(); ++c)
        w << QString::number(table->horizontalHeader()->sectionSize(c));
    return w.join(u' ');
}

// Event and Cause together get their contents' width, or their share of what Time, Version
// and Actor leave when that is less (the rule in OrderPage::fitTimelineColumns).
QString columnFitEventCauseShort(const QTableView *table, const QWidget *page)
{
    const QHeaderView *h = table->horizontalHeader();
    const auto natural = [&](int c) {
        return qMax(static_cast<const QAbstractItemView *>(table)->sizeHintForColumn(c),
                    h->sectionSizeHint(c));
    };
    const int rest = table->viewport()->width() - natural(TimelineModel::Time) -
                     natural(TimelineModel::Version) - natural(TimelineModel::Actor);
    const int floor = 6 * page->fontMetrics().averageCharWidth();
    const int budget = qMax(2 * floor, rest - qMax(rest * 9 / 20, 2 * floor));
    const int want = qMin(natural(TimelineModel::Event) + natural(TimelineModel::Cause), budget);
    const int got = h->sectionSize(TimelineModel::Event) + h->sectionSize(TimelineModel::Cause);
    if (got >= want - 2)
        return {};
    return QStringLiteral("Event + Cause %1, expected %2").arg(got).arg(want);
}

void columnFitGrab(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("ONCEPAY_GRAB_DIR");
    if (!dir.isEmpty())
        w->grab().save(dir + u'/' + name + QStringLiteral(".png"));
}

} // namespace

class TstColumnFit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
        EngineFixture &f = *m_fixture;
        const QString notProposed = proposeLongRequeues(f);
        QVERIFY2(notProposed.isEmpty(), qPrintable(notProposed));
    }

    void middleElide()
    {
        QStandardItemModel model(1, 1);
        model.setItem(0, 0, new QStandardItem(QStringLiteral("stripe:evt_0123456789")));
        ColumnFitOption delegate;
        QCOMPARE(delegate.optionFor(model.index(0, 0)).textElideMode, Qt::ElideMiddle);
        QCOMPARE(delegate.optionFor(model.index(0, 0)).text,
                 QStringLiteral("stripe:evt_0123456789"));
    }

    // The rule sees the widths measured from the contents, at every resize of the viewport,
    // and not at all while they were measured for other columns.
    void fitterRemembersAndRefits()
    {
        QStandardItemModel model(2, 3);
        for (int c = 0; c < 3; ++c)
            model.setItem(0, c, new QStandardItem(QString(10 * (c + 1), u'x')));
        QTableView table;
        table.setModel(&model);
        table.resize(600, 300);
        QList<QList<int>> seen;
        int viewport = 0;
        auto *fitter = new TableColumnFitter(&table, [&](const QList<int> &natural) {
            seen << natural;
            viewport = table.viewport()->width();
        });
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QVERIFY(seen.isEmpty()); // not measured yet: nothing to fit
        fitter->measure();
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen.first().size(), 3);
        QVERIFY(seen.first()[0] < seen.first()[1] && seen.first()[1] < seen.first()[2]);
        const QList<int> natural = seen.first();
        table.horizontalHeader()->resizeSection(2, 5); // the rule's own doing, say
        table.resize(400, 300);
        QTRY_VERIFY(seen.size() >= 2);
        QCOMPARE(seen.last(), natural); // the remembered widths, not the present ones
        QCOMPARE(viewport, table.viewport()->width());
        fitter->setNatural(1, 999);
        QCOMPARE(fitter->natural()[1], 999);
        model.setColumnCount(4); // measured for three columns: no fit until measured again
        const qsizetype before = seen.size();
        table.resize(500, 300);
        QTest::qWait(50);
        QCOMPARE(seen.size(), before);
        fitter->measure();
        QCOMPARE(seen.last().size(), 4);
    }

    // Columns sized to their contents as QTableView sizes them, but for a stretched one: its
    // text is never measured, and it takes the room the others leave.
    void stretchedColumnsAreNotMeasured()
    {
        QStandardItemModel model(3, 3);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                model.setItem(r, c, new QStandardItem(QString(8 * (c + 1) + r, u'x')));
        class Counting : public QStyledItemDelegate {
        public:
            QSize sizeHint(const QStyleOptionViewItem &o, const QModelIndex &i) const override
            {
                ++asked[i.column()];
                return QStyledItemDelegate::sizeHint(o, i);
            }
            mutable QMap<int, int> asked;
        };
        QTableView expected, table;
        Counting counting;
        table.setItemDelegate(&counting);
        for (QTableView *t : {&expected, &table}) {
            t->setModel(&model);
            t->horizontalHeader()->setStretchLastSection(false);
            t->resize(700, 200);
            t->show();
            QVERIFY(QTest::qWaitForWindowExposed(t));
        }
        expected.resizeColumnsToContents();
        table.horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
        counting.asked.clear();
        resizeColumnsToContents(&table);
        QCOMPARE(counting.asked.value(1), 0);
        QVERIFY(counting.asked.value(0) > 0 && counting.asked.value(2) > 0);
        for (int c : {0, 2})
            QCOMPARE(table.columnWidth(c), expected.columnWidth(c));
        QCOMPARE(table.columnWidth(1),
                 table.viewport()->width() - table.columnWidth(0) - table.columnWidth(2));
    }

    // A stretched last column (every makeTable table's) fitted beside a stretched one is still
    // cut to the room left when the table narrows, as after QTableView's own pass: not kept at
    // its contents' width and scrolled out of sight.
    void aStretchedLastColumnStillNarrows()
    {
        QStandardItemModel model(2, 4);
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 4; ++c)
                model.setItem(r, c, new QStandardItem(QString(c == 3 ? 120 : 10, u'x')));
        QTableView table;
        table.setModel(&model);
        table.horizontalHeader()->setStretchLastSection(true);
        table.horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
        table.resize(1600, 200);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        resizeColumnsToContents(&table);
        table.resize(500, 200);
        QTRY_VERIFY(table.horizontalHeader()->length() <= table.viewport()->width());
        QVERIFY(!table.horizontalScrollBar()->isVisible());
    }

    // The approvals queue at the default size and narrower: every column on screen, the
    // target cut in the middle (its delegate), the reason a few words wide.
    void approvalsColumnsFit()
    {
        MainWindow window(m_fixture->config, account("finance", StaffRole::Finance));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ApprovalsPage *page = window.approvalsPage();
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        window.showView(QStringLiteral("approvals"));
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        QTableView *table = page->table();
        QTRY_VERIFY(table->isVisible());
        QCoreApplication::processEvents();
        qInfo("approvals at 1280 (%d): %s", table->viewport()->width(),
              qPrintable(columnFitWidths(table)));
        columnFitGrab(&window, QStringLiteral("approvals"));
        QVERIFY2(columnFitOffScreen(table).isEmpty(), qPrintable(columnFitOffScreen(table)));
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        window.resize(1000, 800);
        QTRY_VERIFY(table->viewport()->width() < 900);
        QCoreApplication::processEvents();
        qInfo("approvals at 1000 (%d): %s", table->viewport()->width(),
              qPrintable(columnFitWidths(table)));
        QVERIFY2(columnFitOffScreen(table).isEmpty(), qPrintable(columnFitOffScreen(table)));
        QVERIFY(table->horizontalHeader()->sectionSize(FixModel::Reason) >=
                10 * table->fontMetrics().averageCharWidth());
        QVERIFY(dynamic_cast<TableMiddleElideDelegate *>(
            table->itemDelegateForColumn(FixModel::Target)));
    }

    // The order timeline: Detail on screen taking what the others leave, also narrower.
    void timelineColumnsFit()
    {
        MainWindow window(m_fixture->config, account("finance", StaffRole::Finance));
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(window.orderPage(), &OrderPage::orderLoaded);
        window.openOrder(QStringLiteral("ord-rb"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        auto *table = window.orderPage()->findChild<QTableView *>(QStringLiteral("timeline"));
        QVERIFY(table);
        QTRY_VERIFY(table->isVisible());
        QCoreApplication::processEvents();
        qInfo("timeline at 1280 (%d): %s", table->viewport()->width(),
              qPrintable(columnFitWidths(table)));
        columnFitGrab(&window, QStringLiteral("timeline"));
        QVERIFY2(columnFitOffScreen(table).isEmpty(), qPrintable(columnFitOffScreen(table)));
        QVERIFY2(columnFitEventCauseShort(table, window.orderPage()).isEmpty(),
                 qPrintable(columnFitEventCauseShort(table, window.orderPage())));
        window.resize(900, 800);
        QTRY_VERIFY(table->viewport()->width() < 800);
        QCoreApplication::processEvents();
        qInfo("timeline at 900 (%d): %s", table->viewport()->width(),
              qPrintable(columnFitWidths(table)));
        QVERIFY2(columnFitOffScreen(table).isEmpty(), qPrintable(columnFitOffScreen(table)));
        QVERIFY2(columnFitEventCauseShort(table, window.orderPage()).isEmpty(),
                 qPrintable(columnFitEventCauseShort(table, window.orderPage())));
        // Detail keeps (about) 45 % of what Time, Version and Actor leave.
        const QHeaderView *h = table->horizontalHeader();
        const int rest = table->viewport()->width() - h->sectionSize(TimelineModel::Time) -
                         h->sectionSize(TimelineModel::Version) -
                         h->sectionSize(TimelineModel::Actor);
        QVERIFY2(h->sectionSize(TimelineModel::Detail) >= rest * 2 / 5,
                 qPrintable(QStringLiteral("Detail %1 of %2")
                                .arg(h->sectionSize(TimelineModel::Detail))
                                .arg(rest)));
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstColumnFit)
#include "tst_column_fit.moc"
