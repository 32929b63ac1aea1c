// The stuck-records view (offscreen) as operations use it: the list is read a page at a time
// and scrolling it to its end reads the next until every record is shown, the summary saying
// what is shown and what is left; a bad stuck threshold shows its sentence, no rows; Tries
// sorts as numbers; every cell opens the row's order, and a record that names no order asks
// for the order search with its callback id.

#include "db/sql.h"
#include "enginefixture.h"
#include "investigation/stuckmodel.h"
#include "stuck/stuckpage.h"

#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};

// `n` failed messages, received a minute apart from an hour before the fixture's clock.
void insertWaiting(const EngineFixture &f, int n, const QVariant &orderRef)
{
    const qint64 t0 = f.clock.nowMs() - 3600 * 1000;
    for (int i = 0; i < n; ++i) {
        auto r = Sql::exec(f.orders->db(),
                           "INSERT INTO callback_messages (callback_id, channel, event_kind,"
                           " order_ref, raw_body, headers, status, attempts, next_attempt_at,"
                           " received_at, updated_at) VALUES (?, 'stripe', 'payment_succeeded',"
                           " ?, '{}', '{}', 'failed', ?, ?, ?, ?)",
                           {QStringLiteral("stripe:evt_%1").arg(i, 3, 10, QChar('0')), orderRef,
                            i + 1, t0, t0 + i * 60000, t0 + i * 60000});
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
    }
}

QString summaryOf(const StuckPage &page)
{
    return page.findChild<QLabel *>(QStringLiteral("summary"))->text();
}

StuckRecord record(int attempts, const QString &order, bool amount)
{
    StuckRecord r;
    r.kind = StuckKind::PendingMessage;
    r.reference = QString::number(attempts);
    r.callbackId = QStringLiteral("stripe:evt_%1").arg(attempts);
    r.orderId = order;
    r.status = QStringLiteral("failed");
    r.attempts = attempts;
    r.hasAmount = amount;
    r.amountMinor = amount ? 1500 : 0;
    r.currency = amount ? QStringLiteral("USD") : QString();
    return r;
}

} // namespace

class TstStuckViewPaging : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void scrollingToTheEndReadsTheRest()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        insertWaiting(f, 100, QStringLiteral("o-1"));
        const Order o = f.createOrder(QStringLiteral("o-fl"), 2500);
        f.pay(o.orderId, o.version, QStringLiteral("att-fl"));
        f.clock.advance(3600 * 1000); // the stuck page reads with the system clock: all old

        StuckPage page(dbs->orders(), amy);
        page.setPageSize(20);
        page.resize(1000, 300); // 20 rows overflow it: nothing more is read until scrolled
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(&page, &StuckPage::loaded);
        QSignalSpy more(&page, &StuckPage::moreLoaded);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QTest::qWait(100);
        QCOMPARE(page.model()->rowCount(), 20);
        QVERIFY2(summaryOf(page).startsWith(u"101 record"), qPrintable(summaryOf(page)));
        QVERIFY(page.hasMore());
        QVERIFY(page.proxy()->canFetchMore({}));
        QVERIFY(page.moreButton()->isVisibleTo(&page));
        QVERIFY2(summaryOf(page).contains(u"need attention. Showing the oldest 20; "
                                          u"the other 81 are read as the list is scrolled to its "
                                          u"end"),
                 qPrintable(summaryOf(page)));

        // Scrolled to its end, the table asks for the next page (the model's fetchMore), twice
        // the first one's size.
        page.table()->scrollToBottom();
        QVERIFY(more.wait(20000));
        QCOMPARE(page.model()->rowCount(), 60);
        QVERIFY(summaryOf(page).contains(u"Showing the oldest 60; the other 41"));
        // The button reads the last one (twice again: 80 asked, 41 left).
        page.moreButton()->click();
        QVERIFY(more.wait(20000));
        QCOMPARE(page.model()->rowCount(), 101);
        QVERIFY(!page.hasMore());
        QVERIFY(!page.proxy()->canFetchMore({}));
        QVERIFY(!page.moreButton()->isVisibleTo(&page));
        QVERIFY2(!summaryOf(page).contains(u"Showing"), qPrintable(summaryOf(page)));
        QVERIFY2(summaryOf(page).startsWith(u"101 record"), qPrintable(summaryOf(page)));
        QVERIFY(summaryOf(page).contains(u"need attention. Thresholds"));
        page.table()->scrollToBottom();
        QTest::qWait(200);
        QCOMPARE(more.count(), 2); // nothing left to read
        QCOMPARE(page.table()->verticalScrollBar()->value(),
                 page.table()->verticalScrollBar()->maximum());

        // Every record once, oldest first down the table.
        QSet<QString> refs;
        for (int r = 0; r < page.proxy()->rowCount(); ++r) {
            const StuckRecord &rec =
                page.model()->rowAt(page.proxy()->mapToSource(page.proxy()->index(r, 0)).row());
            refs << stuckKindName(rec.kind) + rec.reference;
            if (r > 0)
                QVERIFY(page.model()
                            ->rowAt(page.proxy()->mapToSource(page.proxy()->index(r - 1, 0)).row())
                            .sinceMs <= rec.sinceMs);
        }
        QCOMPARE(refs.size(), 101);

        // A refresh starts over at the first page — also one that overtakes a read of more,
        // after which Show more works again.
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 20);
        QVERIFY(page.hasMore());
        page.table()->scrollToTop(); // the view asks for no more by itself
        QTest::qWait(200);
        const int reads = int(more.count());
        page.moreButton()->click();
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QTest::qWait(200);
        QCOMPARE(int(more.count()), reads); // the overtaken read's rows were dropped
        QCOMPARE(page.model()->rowCount(), 20);
        QVERIFY(page.moreButton()->isEnabled());
        page.moreButton()->click();
        QVERIFY(more.wait(20000));
        QCOMPARE(page.model()->rowCount(), 60);
    }

    void aBadThresholdIsShownNotReplaced()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        insertWaiting(f, 3, QStringLiteral("o-1"));
        QVERIFY(Sql::update(f.orders->db(),
                            "UPDATE ops_settings SET setting_value = 'abc' WHERE setting_key ="
                            " 'stuck.pending_seconds'")
                    .ok());
        StuckPage page(dbs->orders(), amy);
        QSignalSpy failed(&page, &StuckPage::failed);
        page.refresh();
        QVERIFY(failed.wait(20000));
        QCOMPARE(page.model()->rowCount(), 0);
        QVERIFY(!page.hasMore());
        QVERIFY2(summaryOf(page).contains(u"ops setting stuck.pending_seconds is not a whole "
                                          u"number from 10 to 604800: 'abc'"),
                 qPrintable(summaryOf(page)));
        QVERIFY(!summaryOf(page).contains(u"Thresholds from the operations settings"));
    }

    void triesSortAsNumbers()
    {
        StuckModel model;
        model.setRows({record(100, "o-1", true), record(12, "o-2", true), record(3, "o-3", true),
                       record(9, "o-4", true)});
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SortRole);
        proxy.sort(StuckModel::Attempts, Qt::AscendingOrder);
        QStringList shown;
        for (int r = 0; r < proxy.rowCount(); ++r)
            shown << proxy.index(r, StuckModel::Attempts).data().toString();
        QCOMPARE(shown, (QStringList{"3", "9", "12", "100"}));
    }

    void everyCellOpensTheOrder()
    {
        StuckModel model;
        model.setRows({record(1, "o-1", true), record(2, "o-2", false)});
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < model.columnCount(); ++c)
                QCOMPARE(model.index(r, c).data(OrderIdRole).toString(),
                         QStringLiteral("o-%1").arg(r + 1));
    }

    void aRecordNamingNoOrderAsksForTheSearch()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        insertWaiting(f, 1, QVariant(QMetaType::fromType<QString>())); // order_ref NULL
        StuckPage page(dbs->orders(), amy);
        QSignalSpy loaded(&page, &StuckPage::loaded);
        QSignalSpy open(&page, &StuckPage::openOrderRequested);
        QSignalSpy search(&page, &StuckPage::searchOrdersRequested);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 1);
        Q_EMIT page.table()->activated(page.proxy()->index(0, StuckModel::Amount));
        QCOMPARE(open.count(), 0);
        QCOMPARE(search.count(), 1);
        QCOMPARE(search.first().first().toString(), QStringLiteral("stripe:evt_000"));
        const QLabel *note = page.findChild<QLabel *>(QStringLiteral("note"));
        QVERIFY(note->text().contains(u"names no order"));
        QVERIFY(note->isVisibleTo(&page));
    }
};

QTEST_MAIN(TstStuckViewPaging)
#include "tst_stuck_view_paging.moc"
