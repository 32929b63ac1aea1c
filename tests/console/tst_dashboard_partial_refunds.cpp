// The dashboard (offscreen) over the console's demo-like day of payments: a partly refunded
// order stays paid, and the line under the orders by state says how many paid orders had part
// of their money refunded, and how much went back — "none" until one has.

#include "consolefixture.h"
#include "dashboard/dashboardpage.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

class TstDashboardPartialRefunds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
    }

    void aPartlyRefundedPaidOrderIsCountedUnderTheStates()
    {
        EngineFixture &f = *m_fixture;
        DashboardPage page(f.config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &DashboardPage::loaded);
        page.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QLabel *line = page.partialRefundsLine();
        QVERIFY(line && line->isVisible());
        QCOMPARE(line->text(), QStringLiteral("Paid orders with a partial refund: none"));

        // ord-paid (21.12 USD) has 5.00 of it refunded: it stays paid.
        StripeEvents::Params p =
            f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_part", "pi_paid");
        p.amountRefunded = 500;
        f.deliver(StripeEvents::chargeRefunded(p));
        f.drain();
        QCOMPARE(f.order("ord-paid").state, OrderState::Paid);

        page.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QCOMPARE(page.data().partlyRefundedOrders(), 1);
        QCOMPARE(
            line->text(),
            QStringLiteral("Paid orders with a partial refund: <b>1</b> (refunded: 5.00 USD)"));
        QVERIFY(!line->toolTip().isEmpty());
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = Error{};
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstDashboardPartialRefunds)
#include "tst_dashboard_partial_refunds.moc"
