// The order page's search offscreen over data made by the real engine: search by each kind of
// identifier, the look-ahead of what is typed or pasted and what Return reads again, the
// status line and busy bar while a read waits, a search for nothing, an order handed over by
// its id, and a transaction id that two channels carry.

#include "common/backgroundquery.h"
#include "common/busyindicator.h"
#include "common/taskpool.h"
#include "consolefixture.h"
#include "investigation/ordermodels.h"
#include "orders/orderpage.h"
#include "orders/searchlookahead.h"

#include <QClipboard>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>
#include <thread>

using namespace OncePay;
using namespace OncePay::Test;

class TstOrderPageSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(setUpConsoleTest(m_dbs, m_fixture)); }

    // A read that answers at once changes nothing on the page before its answer; one that
    // waits says so (status line, busy bar, export button off) once the wait can be seen.
    void orderPageSaysItWaitsOnlyForSlowReads()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy searched(&page, &OrderPage::searched);
        page.openOrder("ord-rb");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        const QString shown = page.statusText();
        QVERIFY(page.exportButton()->isEnabled());

        // Every pool thread held: the search waits.
        auto hold = std::make_shared<QSemaphore>();
        QObject holders;
        for (int i = 0; i < kConsoleTaskThreads; ++i)
            runBackgroundQuery<int>(
                &holders, m_fixture->config.orders, QStringLiteral("hold"),
                [hold](const Connection &) -> Result<int> {
                    hold->acquire();
                    return 0;
                },
                [](const Result<int> &) {});
        auto stop = std::make_shared<QSemaphore>();
        std::thread releaser([hold, stop] { // a hung test shows as a failure, not a hang
            stop->tryAcquire(1, 5000);
            hold->release(kConsoleTaskThreads);
        });
        page.search("ord-paid");
        QCOMPARE(page.statusText(), shown); // nothing said yet
        QVERIFY(page.exportButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(page.statusText(),
                                  QCoreApplication::translate("OncePay::OrderPage", "Searching…"),
                                  BusyIndicator::kShowAfterMs * 8);
        QVERIFY(!page.exportButton()->isEnabled());
        QVERIFY(page.findChild<BusyIndicator *>()->isVisible());
        stop->release();
        releaser.join();
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QCOMPARE(searched.first().first().toInt(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QCOMPARE(loaded.last().first().toString(), QStringLiteral("ord-paid"));
        QVERIFY(page.exportButton()->isEnabled());
        QVERIFY(page.findChild<BusyIndicator *>()->isHidden());
    }

    void searchByEachKindOfIdentifier_data()
    {
        QTest::addColumn<QString>("term");
        QTest::newRow("order") << "ord-rb";
        QTest::newRow("customer") << "cust-ord-rb";
        QTest::newRow("transaction") << "pi_rb2";
        QTest::newRow("callback") << "stripe:evt_rb_late";
        QTest::newRow("event id") << "evt_rb_ok";
        QTest::newRow("request") << "req-rb-1";
    }
    void searchByEachKindOfIdentifier()
    {
        QFETCH(QString, term);
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QLineEdit *box = page.searchBox();
        box->setText(term);
        QTest::keyClick(box, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QCOMPARE(loaded.first().first().toString(), QStringLiteral("ord-rb"));
        QCOMPARE(page.picture().order.version, 7);
    }

    // The text typed into the box is looked up before Return, one lookup at a time (the
    // letters typed while one is on its way make one more, for the latest text): Return then
    // answers within the key press and opens the order, and uses that answer once.
    void returnShowsWhatWasLookedUpAsTyped()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy ahead(page.lookAhead(), &SearchLookAhead::lookedUp);
        QSignalSpy searched(&page, &OrderPage::searched);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QLineEdit *box = page.searchBox();
        QElapsedTimer sinceTyped; // at least as long as since "pi_rb2" was asked for
        sinceTyped.start();
        QTest::keyClicks(box, QStringLiteral("pi_rb2")); // six edits before any answer
        QTRY_COMPARE_WITH_TIMEOUT(ahead.count(), 2, 10000);
        QCOMPARE(ahead.at(0).first().toString(), QStringLiteral("p"));
        QCOMPARE(ahead.at(1).first().toString(), QStringLiteral("pi_rb2"));
        QCOMPARE(searched.count(), 0); // looking up shows nothing

        const bool fresh = sinceTyped.elapsed() < SearchLookAhead::kFreshMs;
        QTest::keyClick(box, Qt::Key_Return);
        if (fresh) {
            QCOMPARE(searched.count(), 1); // within the key press: no read was waited for
        } else { // a machine so loaded that the lookups took longer than their freshness
            qWarning("lookups took %lld ms: Return read again, as it must",
                     qint64(sinceTyped.elapsed()));
            QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        }
        QCOMPARE(searched.first().first().toInt(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QCOMPARE(loaded.first().first().toString(), QStringLiteral("ord-rb"));

        QTest::keyClick(box, Qt::Key_Return); // searched again: read anew
        QCOMPARE(searched.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 2, 10000);
        QCOMPARE(searched.last().first().toInt(), 1);
        // ... and its order read anew (handing another over before that read is back would
        // drop it, rightly: the page shows the order asked for last).
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);

        // Text the program puts in the box (another view handing an order over) is not.
        page.showOrder(QStringLiteral("ord-paid"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 3, 10000);
        QCOMPARE(ahead.count(), 2);
    }

    // Return pressed with the paste, the lookup still on its way: the search waits for that
    // lookup and shows its answer once (no read of its own); if the page moves on before the
    // answer (another order handed over), the answer is dropped.
    void returnWithThePasteWaitsForItsLookup()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy searched(&page, &OrderPage::searched);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        int searchedWhenLookedUp = -1;
        connect(page.lookAhead(), &SearchLookAhead::lookedUp, &page,
                [&] { searchedWhenLookedUp = int(searched.count()); });
        QSignalSpy ahead(page.lookAhead(), &SearchLookAhead::lookedUp);
        QLineEdit *box = page.searchBox();
        QGuiApplication::clipboard()->setText(QStringLiteral("evt_rb_ok"));
        QTest::keySequence(box, QKeySequence::Paste);
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(searched.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(ahead.count(), 1, 10000);
        QCOMPARE(searchedWhenLookedUp, 1); // answered by the lookup itself
        QCOMPARE(searched.first().first().toInt(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QCOMPARE(loaded.first().first().toString(), QStringLiteral("ord-rb"));
        QTest::qWait(100);
        QCOMPARE(searched.count(), 1); // shown once

        // The page moves on before the lookup answers: its answer shows nothing.
        box->clear();
        QGuiApplication::clipboard()->setText(QStringLiteral("req-rb-1"));
        QTest::keySequence(box, QKeySequence::Paste);
        QTest::keyClick(box, Qt::Key_Return);
        page.showOrder(QStringLiteral("ord-paid"));
        QTRY_COMPARE_WITH_TIMEOUT(ahead.count(), 2, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QTest::qWait(100);
        QCOMPARE(searched.count(), 1);
        QCOMPARE(loaded.last().first().toString(), QStringLiteral("ord-paid"));
        QCOMPARE(page.picture().order.orderId, QStringLiteral("ord-paid"));
    }

    // What may have changed since its lookup is read again at Return: a customer's orders,
    // "nothing matches", and any lookup older than SearchLookAhead::kFreshMs.
    void returnReadsAgainWhatMayHaveChanged()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy ahead(page.lookAhead(), &SearchLookAhead::lookedUp);
        QSignalSpy searched(&page, &OrderPage::searched);
        QLineEdit *box = page.searchBox();
        const auto lookUp = [&](const QString &text) {
            box->clear();
            QTest::keyClicks(box, text);
            return QTest::qWaitFor(
                [&] { return !ahead.isEmpty() && ahead.last().first().toString() == text; }, 10000);
        };

        QVERIFY(lookUp(QStringLiteral("cust-ord-rb"))); // one order, found by its customer
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(searched.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QCOMPARE(searched.last().first().toInt(), 1);

        QVERIFY(lookUp(QStringLiteral("ord-lookahead")));              // nothing yet
        m_fixture->createOrder(QStringLiteral("ord-lookahead"), 1200); // after the lookup
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(searched.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 2, 10000);
        QCOMPARE(searched.last().first().toInt(), 1); // the order made after the lookup

        QVERIFY(lookUp(QStringLiteral("pi_rb2")));
        QTest::qWait(SearchLookAhead::kFreshMs + 200);
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(searched.count(), 2); // too old to answer
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 3, 10000);
        QCOMPARE(searched.last().first().toInt(), 1);
    }

    void searchForNothingSaysSo_data()
    {
        QTest::addColumn<QString>("term");
        QTest::addColumn<QString>("said"); // what the status line says, in part
        QTest::newRow("unknown") << "no-such-order"
                                 << "No order matches “no-such-order”.";
        QTest::newRow("injection") << "' OR 1=1 --"
                                   << "No order matches “' OR 1=1 --”.";
        QTest::newRow("blank") << "   "
                               << "type an order, customer, transaction";
    }
    void searchForNothingSaysSo()
    {
        QFETCH(QString, term);
        QFETCH(QString, said);
        const auto rows = [&] {
            return m_fixture->count(
                "SELECT (SELECT COUNT(*) FROM orders) + (SELECT COUNT(*) FROM audit_outbox)"
                " + (SELECT COUNT(*) FROM callback_messages)");
        };
        const qint64 before = rows();
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        // An order is on the page first: its actions are on.
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.search(QStringLiteral("ord-rb"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        auto *propose = page.findChild<QPushButton *>(QStringLiteral("proposeFix"));
        QVERIFY(propose);
        QVERIFY(propose->isEnabled());
        QSignalSpy searched(&page, &OrderPage::searched);
        page.search(term);
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QCOMPARE(searched.first().first().toInt(), 0);
        QVERIFY2(page.statusText().contains(said, Qt::CaseInsensitive),
                 qPrintable(page.statusText()));
        QCOMPARE(page.hitModel()->rowCount(), 0);
        QCOMPARE(rows(), before); // a search reads only: nothing was written or removed
        // Nothing is shown any more, so nothing can be proposed for the order that was.
        QVERIFY(!propose->isEnabled());
    }

    // Another view hands an order over by its id: exactly that order opens, even when the id
    // is also another order's customer reference (a search for it lists both).
    void anOrderHandedOverOpensExactlyThatOrder()
    {
        auto twin = m_fixture->service->create(
            {QStringLiteral("ord-twin"), QStringLiteral("ord-wait"), 999, QStringLiteral("USD")},
            Actor::platform());
        QVERIFY(twin.ok());
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy searched(&page, &OrderPage::searched);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.search(QStringLiteral("ord-wait"));
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QCOMPARE(searched.first().first().toInt(), 2); // its own id, the twin's customer
        page.showOrder(QStringLiteral("ord-wait"));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QCOMPARE(loaded.first().first().toString(), QStringLiteral("ord-wait"));
        QCOMPARE(page.searchBox()->text(), QStringLiteral("ord-wait"));
        QCOMPARE(page.hitModel()->rowCount(), 0);
    }

    // A transaction id that KakaoPay also carries, in a callback for an order that does not
    // exist: the Stripe order holding it is listed with its channel and not opened at once, and
    // the status line says what the other channel's callback is — neither is silently picked.
    void aTransactionIdOnTwoChannelsShowsBoth()
    {
        const qint64 now = m_fixture->clock.nowMs();
        QVERIFY(Sql::exec(m_fixture->orders->db(),
                          "INSERT INTO callback_messages (callback_id, channel, event_kind,"
                          " order_ref, channel_txn_id, raw_body, headers, status, attempts,"
                          " next_attempt_at, received_at, updated_at) VALUES"
                          " ('kakaopay:msg_twice', 'kakaopay', 'payment_succeeded',"
                          " 'ord-elsewhere', 'pi_ref', '{}', '{}', 'dead', 4, ?, ?, ?)",
                          {now, now, now})
                    .ok());
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy searched(&page, &OrderPage::searched);
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        page.search(QStringLiteral("pi_ref"));
        QTRY_COMPARE_WITH_TIMEOUT(searched.count(), 1, 10000);
        QCOMPARE(searched.first().first().toInt(), 1);
        QCOMPARE(page.hitModel()->rowCount(), 1);
        QCOMPARE(page.hitModel()->index(0, 0).data().toString(), QStringLiteral("ord-ref"));
        const QString foundBy = page.hitModel()->index(0, 1).data().toString();
        QVERIFY2(foundBy.contains(u"pi_ref on stripe"), qPrintable(foundBy));
        auto *hits = page.findChild<QTableView *>(QStringLiteral("hits"));
        QVERIFY(hits && hits->isVisible());
        const QString said = page.statusText();
        QVERIFY2(said.contains(u"kakaopay:msg_twice") && said.contains(u"ord-elsewhere"),
                 qPrintable(said));
        QTest::qWait(200);
        QCOMPARE(loaded.count(), 0); // the reader chooses
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstOrderPageSearch)
#include "tst_order_page_search.moc"
