// The stuck-records view (offscreen) as operations use it: a refresh that cannot read the
// database leaves no rows on the page — nothing stale to act on; and clicking Amount orders
// amounts within their currency on the page itself (Labels::moneySortKey, c9f7c9b: minor units
// of two currencies are no measure of one another).

#include "enginefixture.h"
#include "investigation/stuckmodel.h"
#include "stuck/stuckpage.h"

#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};

// The orders in flight as the table shows them, top to bottom: "amount currency".
QStringList shownAmounts(const StuckPage &page)
{
    QStringList out;
    for (int r = 0; r < page.proxy()->rowCount(); ++r) {
        const StuckRecord &rec =
            page.model()->rowAt(page.proxy()->mapToSource(page.proxy()->index(r, 0)).row());
        if (rec.kind == StuckKind::OrderInFlight)
            out << QStringLiteral("%1 %2").arg(rec.amountMinor).arg(rec.currency);
    }
    return out;
}

} // namespace

class TstStuckSortRefresh : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void amountSortsWithinItsCurrency()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        const QList<std::tuple<const char *, qint64, const char *>> orders = {
            {"o-usd-big", 900000, "USD"}, // 9,000.00 USD
            {"o-krw", 1300000, "KRW"},    // about 900 USD
            {"o-usd", 1474, "USD"},       // 14.74 USD
            {"o-jpy", 1200, "JPY"},       {"o-eur", 934, "EUR"},
        };
        for (const auto &[id, amount, currency] : orders) {
            const Order o = f.createOrder(QLatin1String(id), amount, QLatin1String(currency));
            f.pay(o.orderId, o.version, QStringLiteral("att-") + QLatin1String(id));
        }

        StuckPage page(dbs->orders(), amy);
        page.resize(1000, 600);
        page.show();
        QSignalSpy loaded(&page, &StuckPage::loaded);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(shownAmounts(page).size(), 5);

        page.table()->horizontalHeader()->setSortIndicator(StuckModel::Amount, Qt::AscendingOrder);
        QCOMPARE(shownAmounts(page),
                 (QStringList{"934 EUR", "1200 JPY", "1300000 KRW", "1474 USD", "900000 USD"}));
        page.table()->horizontalHeader()->setSortIndicator(StuckModel::Amount, Qt::DescendingOrder);
        QCOMPARE(shownAmounts(page),
                 (QStringList{"900000 USD", "1474 USD", "1300000 KRW", "1200 JPY", "934 EUR"}));
    }

    void aFailedRefreshLeavesNoStaleRows()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        {
            EngineFixture f(*dbs);
            const Order o = f.createOrder(QStringLiteral("o-1"), 2500);
            f.pay(o.orderId, o.version, QStringLiteral("att-1"));
        }
        StuckPage page(dbs->orders(), amy);
        page.resize(1000, 600);
        page.show();
        QSignalSpy loaded(&page, &StuckPage::loaded);
        QSignalSpy failed(&page, &StuckPage::failed);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 1);
        page.table()->selectRow(0);

        // The database file goes away (moved, unmounted): the next read fails.
        const QString path = dbs->orders().path;
        QVERIFY(QFile::rename(path, path + QStringLiteral(".away")));
        QFile::remove(path + QStringLiteral("-wal"));
        QFile::remove(path + QStringLiteral("-shm"));
        page.refresh();
        QVERIFY(failed.wait(20000));
        QCOMPARE(page.model()->rowCount(), 0);
        QCOMPARE(page.proxy()->rowCount(), 0);
        QVERIFY(!page.proposeButton()->isEnabled());
        QVERIFY(!QFile::exists(path)); // and no empty database made in its place
    }
};

QTEST_MAIN(TstStuckSortRefresh)
#include "tst_stuck_sort_refresh.moc"
