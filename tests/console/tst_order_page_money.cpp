// The order page offscreen over data made by the real engine: what an agent investigating a
// dispute must see at once — money still owed back and reconciliation exceptions still open, in
// the header and on the timeline (closed ones not as open) — and a search that finds only a
// callback for an order that does not exist (a ghost order's dead letter) saying so.

#include "common/enginetext.h"
#include "common/labels.h"
#include "common/selectablelabel.h"
#include "consolefixture.h"
#include "fixes/fixlabels.h"
#include "investigation/ordermodels.h"
#include "orders/orderpage.h"
#include "orders/searchlookahead.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QString pageTr(const char *text, int n = -1)
{
    return QCoreApplication::translate("OncePay::OrderPage", text, nullptr, n);
}

} // namespace

class TstOrderPageMoney : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
        EngineFixture &f = *m_fixture;
        // ord-rb owes 5000 EUR back (its stale late success, scenario) and has an open fee
        // mismatch on its transaction; ord-paid had a refund obligation that was resolved and
        // an amount mismatch that was resolved.
        const QString insert = QStringLiteral(
            "INSERT INTO discrepancies (discrepancy_key, kind, channel, channel_txn_id, order_id,"
            " expected_minor, actual_minor, currency, status, first_run_id, last_run_id,"
            " opened_at) VALUES (?, ?, 'stripe', ?, ?, ?, ?, ?, ?, 1, 1, ?)");
        QVERIFY(Sql::exec(f.orders->db(), insert,
                          {"fee_mismatch:stripe:pi_rb2", "fee_mismatch", "pi_rb2", QVariant(), 175,
                           190, "EUR", "open", f.clock.nowMs()})
                    .ok());
        QVERIFY(Sql::exec(f.orders->db(), insert,
                          {"amount_mismatch:stripe:pi_paid", "amount_mismatch", "pi_paid",
                           "ord-paid", 2112, 2000, "USD", "resolved", f.clock.nowMs()})
                    .ok());
        QVERIFY(Sql::exec(f.orders->db(),
                          "INSERT INTO refund_obligations (callback_id, order_id, channel,"
                          " channel_txn_id, amount_minor, currency, reason, created_at,"
                          " resolved_at) VALUES ('stripe:evt_paid_refund_test', 'ord-paid',"
                          " 'stripe', 'pi_paid', 2112, 'USD', 'test', ?, ?)",
                          {f.clock.nowMs(), f.clock.nowMs()})
                    .ok());
    }

    void headerAndTimelineShowMoneyOwedAndOpenException()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        auto *facts = page.findChild<QLabel *>(QStringLiteral("orderFacts"));
        QVERIFY(facts);
        const QString text = facts->text();
        QVERIFY2(text.contains(pageTr("To refund: %1").arg(Labels::money(5000, "EUR"))),
                 qPrintable(text));
        QVERIFY2(text.contains(pageTr("%n open reconciliation exception(s) (%1)", 1)
                                   .arg(Labels::discrepancyKind("fee_mismatch"))),
                 qPrintable(text));

        // The open exception is a highlighted row of the timeline, with what was expected and
        // what the statement said.
        TimelineModel *t = page.timelineModel();
        int found = -1;
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->rowAt(r).kind == TimelineKind::Exception) {
                QCOMPARE(found, -1); // once
                found = r;
            }
        QVERIFY(found >= 0);
        const QString event = t->index(found, TimelineModel::Event).data().toString();
        QVERIFY2(event.contains(Labels::discrepancyKind("fee_mismatch")), qPrintable(event));
        QVERIFY2(event.contains(Labels::money(175, "EUR")), qPrintable(event));
        QVERIFY2(event.contains(Labels::money(190, "EUR")), qPrintable(event));
        QVERIFY(t->index(found, TimelineModel::Event).data(RefusedRole).toBool());
        // In time order with the rest.
        for (int r = 1; r < t->rowCount(); ++r)
            QVERIFY(t->rowAt(r).at >= t->rowAt(r - 1).at);
    }

    void resolvedObligationAndClosedExceptionAreNotShownAsOpen()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.openOrder("ord-paid");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QCOMPARE(page.picture().refunds.size(), 1);
        QCOMPARE(page.picture().discrepancies.size(), 1);
        // The header's title and facts: plain text the reader can select (selectablelabel.h),
        // the title naming the order, its state and version.
        auto *title = page.findChild<SelectableLabel *>(QStringLiteral("orderTitle"));
        QVERIFY(title);
        QVERIFY(page.findChild<SelectableLabel *>(QStringLiteral("orderFacts")));
        QCOMPARE(title->textFormat(), Qt::PlainText);
        QCOMPARE(title->text(), pageTr("Order %1 — %2, version %3")
                                    .arg("ord-paid", Labels::orderState("paid"))
                                    .arg(page.picture().order.version));
        QVERIFY(title->font().bold());
        const QString text = page.findChild<QLabel *>(QStringLiteral("orderFacts"))->text();
        QVERIFY2(!text.contains(pageTr("To refund: %1").arg(QString())), qPrintable(text));
        QVERIFY2(!text.contains(Labels::discrepancyKind("amount_mismatch")), qPrintable(text));
        for (int r = 0; r < page.timelineModel()->rowCount(); ++r)
            QVERIFY(page.timelineModel()->rowAt(r).kind != TimelineKind::Exception);
    }

    void searchForAGhostOrdersDeadLetterSaysSo_data()
    {
        QTest::addColumn<QString>("term");
        QTest::addColumn<bool>("typed"); // typed (looked up ahead) or pasted and searched
        QTest::newRow("callback id") << "stripe:evt_ghost" << false;
        QTest::newRow("event id typed") << "evt_ghost" << true;
        QTest::newRow("order ref") << "ord-ghost" << false;
    }
    void searchForAGhostOrdersDeadLetterSaysSo()
    {
        QFETCH(QString, term);
        QFETCH(bool, typed);
        auto stored = Sql::exec(m_fixture->orders->db(),
                                "SELECT attempts, last_error FROM callback_messages WHERE"
                                " callback_id = 'stripe:evt_ghost'");
        QVERIFY(stored.ok() && stored->next());
        const int attempts = stored->value(0).toInt();
        const QString lastError = stored->value(1).toString();
        QVERIFY(!lastError.isEmpty());

        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy searched(&page, &OrderPage::searched);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QLineEdit *box = page.searchBox();
        if (typed) {
            QSignalSpy lookedUp(page.lookAhead(), &SearchLookAhead::lookedUp);
            QTest::keyClicks(box, term);
            QTRY_VERIFY_WITH_TIMEOUT(
                !lookedUp.isEmpty() && lookedUp.last().first().toString() == term, 10000);
            QTest::keyClick(box, Qt::Key_Return);
        } else {
            page.search(term);
        }
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QCOMPARE(searched.first().first().toInt(), 0);
        const QString expected =
            pageTr("%1: %2 — last error: %3")
                .arg(pageTr("Callback %1 names order %2, which does not exist")
                         .arg(QStringLiteral("stripe:evt_ghost"), QStringLiteral("ord-ghost")),
                     pageTr("%1 after %n attempt(s)", attempts).arg(Labels::messageStatus("dead")),
                     Labels::engineText(lastError));
        QCOMPARE(page.statusText(), expected);
        QVERIFY(page.statusText().contains(Labels::messageStatus("dead")));
        QVERIFY(page.statusText() !=
                QCoreApplication::translate("OncePay::ErrorText", "Nothing was found."));
        QVERIFY(page.picture().order.orderId.isEmpty()); // no order opened
        QTest::qWait(50);
        QCOMPARE(loaded.count(), 0);
        QVERIFY(!page.exportButton()->isEnabled());
    }

    // A ghost order handed over from another view (a fix's "Open order", the stuck list): the
    // page says which callbacks name it; an order nothing names is still "Nothing was found."
    void aGhostOrderHandedOverSaysWhatNamesIt()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy failed(&page, &OrderPage::failed);
        page.showOrder("ord-ghost");
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY2(page.statusText().startsWith(
                     pageTr("Callback %1 names order %2, which does not exist")
                         .arg(QStringLiteral("stripe:evt_ghost"), QStringLiteral("ord-ghost"))),
                 qPrintable(page.statusText()));
        page.showOrder("ord-nobody-names");
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, 10000);
        QCOMPARE(page.statusText(),
                 QCoreApplication::translate("OncePay::ErrorText", "Nothing was found."));
    }

    void searchForNothingStillSaysNothingFound()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy searched(&page, &OrderPage::searched);
        for (const QString &term :
             {QStringLiteral("no-such-thing"), QStringLiteral("' OR 1=1 --")}) {
            searched.clear();
            page.search(term);
            QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
            QCOMPARE(searched.first().first().toInt(), 0);
            QCOMPARE(page.statusText(), pageTr("No order matches “%1”.").arg(term));
        }
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstOrderPageMoney)
#include "tst_order_page_money.moc"
