// Every console model over real engine data passes QAbstractItemModelTester, and shows what
// matters: refused rows flagged, money formatted exactly, the order of each row known.

#include "investigation/discrepancymodel.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "investigation/ordersearch.h"
#include "investigation/stuckmodel.h"
#include "scenario.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kFinance{QStringLiteral("fin"), QStringLiteral("finance")};

template <typename Model, typename Rows> void exercise(Rows rows)
{
    Model model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(rows);
    QCOMPARE(model.rowCount(), int(rows.size()));
    QVERIFY(model.columnCount() > 0);
    for (int c = 0; c < model.columnCount(); ++c)
        QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::BackgroundRole),
                             SortRole, RefusedRole, OrderIdRole})
                (void)model.data(model.index(r, c), role);
    QSortFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.setSortRole(SortRole);
    for (int c = 0; c < model.columnCount(); ++c)
        proxy.sort(c, Qt::DescendingOrder);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    model.setRows(rows);
}

} // namespace

class TstConsoleModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dbs.ok());
        m_fixture = std::make_unique<EngineFixture>(*m_dbs.value());
        buildScenario(*m_fixture);
    }

    void allModelsPassTheTester()
    {
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-rb", kFinance);
        QVERIFY(rb.ok());
        exercise<TimelineModel>(rb->timeline);
        exercise<MessageModel>(rb->messages);
        exercise<PaymentModel>(rb->payments);
        exercise<LedgerModel>(rb->ledger);
        exercise<IdempotencyModel>(rb->idempotency);
        exercise<AuditRowModel>(rb->audit);
        QVERIFY(!rb->refunds.isEmpty()); // the stale late success: money to refund
        exercise<RefundModel>(rb->refunds);
        auto paid = OrderPictureQuery(*m_fixture->orders).load("ord-paid", kFinance);
        QVERIFY(paid.ok());
        QCOMPARE(paid->fulfilment.size(), 2); // purchase and logistics orders
        exercise<FulfilmentModel>(paid->fulfilment);
        auto hits = OrderSearch(*m_fixture->orders).search("cust-ord-rb", kFinance);
        QVERIFY(hits.ok());
        exercise<OrderHitModel>(*hits);
        auto stuck = StuckQuery(*m_fixture->orders, m_fixture->clock).load({}, kFinance);
        QVERIFY(stuck.ok());
        QVERIFY(!stuck->records.isEmpty());
        exercise<StuckModel>(stuck->records);
        exercise<DiscrepancyTotalModel>(
            QList<DiscrepancyTotal>{{"stripe", "USD", 2, 12345}, {"paypal", "", 1, 7}});
        exercise<TimelineModel>(QList<TimelineEntry>{});
    }

    // The payments tab reads words, not the engine's codes: a captured payment that no
    // reconciliation has matched yet is "not settled yet", not "pending".
    void paymentsShowWordsNotCodes()
    {
        auto paid = OrderPictureQuery(*m_fixture->orders).load("ord-paid", kFinance);
        QVERIFY(paid.ok());
        QVERIFY(!paid->payments.isEmpty());
        QCOMPARE(paid->payments.first().settlementStatus, QStringLiteral("pending"));
        PaymentModel model;
        model.setRows(paid->payments);
        QHash<QString, QString> cell;
        for (int c = 0; c < model.columnCount(); ++c)
            cell.insert(model.headerData(c, Qt::Horizontal).toString(),
                        model.index(0, c).data().toString());
        QCOMPARE(cell.value("Status"), QStringLiteral("captured"));
        QCOMPARE(cell.value("Settlement"), QStringLiteral("not settled yet"));
    }

    void timelineShowsVersionsCausesAndRefusals()
    {
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-rb", kFinance);
        TimelineModel model;
        model.setRows(rb->timeline);
        int refused = 0;
        QStringList versions;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, 0).data(RefusedRole).toBool()) {
                ++refused;
                QVERIFY(model.index(r, 0).data(Qt::BackgroundRole).isValid());
            }
            const QString v = model.index(r, TimelineModel::Version).data().toString();
            if (v.startsWith(u'v'))
                versions << v;
        }
        QCOMPARE(refused, 3);
        QCOMPARE(versions, QStringList({"v2", "v3", "v4", "v5", "v6", "v7"}));
        bool sawStale = false;
        for (int r = 0; r < model.rowCount(); ++r)
            sawStale |=
                model.index(r, TimelineModel::Event).data().toString().startsWith(u"Refused:");
        QVERIFY(sawStale);
    }

    void moneyIsExact()
    {
        auto rb = OrderPictureQuery(*m_fixture->orders).load("ord-ref", kFinance);
        LedgerModel model;
        model.setRows(rb->ledger);
        QStringList amounts;
        for (int r = 0; r < model.rowCount(); ++r)
            amounts << model.index(r, 2).data().toString();
        QVERIFY2(amounts.contains(u"45000 KRW") || amounts.join(u',').contains(u"45000"),
                 qPrintable(amounts.join(u',')));
        QCOMPARE(model.index(0, 2).data(SortRole).toLongLong(), 45000);
    }

    void stuckRowsKnowTheirOrder()
    {
        auto stuck = StuckQuery(*m_fixture->orders, m_fixture->clock).load({}, kFinance);
        StuckModel model;
        model.setRows(stuck->records);
        QStringList orders;
        for (int r = 0; r < model.rowCount(); ++r)
            orders << model.index(r, StuckModel::Kind).data(OrderIdRole).toString();
        QVERIFY(orders.contains(u"ord-ghost"));
        QVERIFY(orders.contains(u"ord-rb"));
        QVERIFY(orders.contains(u"ord-wait"));
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstConsoleModels)
#include "tst_console_models.moc"
