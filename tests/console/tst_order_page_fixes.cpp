// The order page's "Propose fix" offscreen over data made by the real engine: the dialog opens
// for the order on the page, and not for one the page has moved away from while the fix rule's
// setting was being read (a search or a hand-over from another view meanwhile). And a batch of
// proposals that takes a while shows its progress and can be stopped.

#include "common/backgroundquery.h"
#include "common/language.h"
#include "common/taskpool.h"
#include "consolefixture.h"
#include "db/sql.h"
#include "fixes/fixactions.h"
#include "fixes/fixtypes.h"
#include "fixes/proposefixdialog.h"
#include "orders/orderpage.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// Watches for the dialogs a proposal opens and answers them, so that a test never blocks in a
// modal loop: the propose dialog is filled and accepted (or, with `accept` false, rejected),
// a message box is closed; what was seen is counted.
class ModalWatcher : public QObject {
public:
    explicit ModalWatcher(bool accept)
        : m_accept(accept)
    {
        connect(&m_timer, &QTimer::timeout, this, [this] { look(); });
        m_timer.start(10);
    }
    int proposeDialogs = 0;
    QStringList boxes;

private:
    void look()
    {
        for (QWidget *w : QApplication::topLevelWidgets()) {
            if (!w->isVisible())
                continue;
            if (auto *d = qobject_cast<ProposeFixDialog *>(w)) {
                ++proposeDialogs;
                if (!m_accept) {
                    d->reject();
                    continue;
                }
                d->kindBox()->setCurrentIndex(d->kindBox()->findData(FixKind::ResolveMessage));
                d->reasonBox()->setCurrentIndex(d->reasonBox()->findData("duplicate_handled"));
                d->commentEdit()->setPlainText("handled by hand");
                d->accept();
            } else if (auto *box = qobject_cast<QMessageBox *>(w)) {
                boxes << box->text();
                box->accept();
            }
        }
    }
    bool m_accept;
    QTimer m_timer;
};

QAction *proposeMessagesAction(OrderPage &page)
{
    return page.proposeButton()->menu()->findChild<QAction *>("proposeMessages");
}

} // namespace

class TstOrderPageFixes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        Language::apply(QStringLiteral("en")); // the English console, with its plural forms
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
    }

    // Two messages proposed at once, the database busy with another writer: after a moment
    // the progress shows; Stop lets the proposal being sent finish and sends no more. The
    // summary says so, and only the first is proposed.
    void aSlowBatchShowsItsProgressAndStops()
    {
        const qint64 before = m_fixture->count("SELECT COUNT(*) FROM fix_requests");
        QWidget parent;
        parent.show();
        ModalWatcher watcher(true);
        // Another writer holds the database until Stop has been pressed.
        QVERIFY(Sql::exec(m_fixture->orders->db(), "BEGIN IMMEDIATE").ok());
        bool done = false;
        int proposedCount = -1;
        proposeFixes(&parent, m_fixture->config.orders, account("agent", StaffRole::Agent).actor(),
                     {{"message", "stripe:evt_ghost", "dead", {}, "USD"},
                      {"message", "stripe:evt_wait", "pending", {}, "USD"}},
                     [&](int n) {
                         done = true;
                         proposedCount = n;
                     });
        QProgressDialog *progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (progress = parent.findChild<QProgressDialog *>()) && progress->isVisible(), 5000);
        QCOMPARE(watcher.proposeDialogs, 1);
        QCOMPARE(progress->labelText(), QStringLiteral("Proposing 1 of 2…"));
        QVERIFY(!done);
        auto *stop = progress->findChild<QPushButton *>();
        QVERIFY(stop);
        QCOMPARE(stop->text(), QStringLiteral("Stop"));
        stop->click();
        QVERIFY(Sql::exec(m_fixture->orders->db(), "ROLLBACK").ok());
        QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
        QCOMPARE(proposedCount, 1);
        QVERIFY(!parent.findChild<QProgressDialog *>());
        QCOMPARE(watcher.boxes.size(), 1);
        QCOMPARE(watcher.boxes.first(),
                 QStringLiteral("1 proposed; you stopped before the rest were sent."));
        QCOMPARE(m_fixture->count("SELECT COUNT(*) FROM fix_requests"), before + 1);
        QCOMPARE(m_fixture->count("SELECT COUNT(*) FROM fix_requests WHERE kind ="
                                  " 'resolve_message' AND target_id = 'stripe:evt_ghost'"),
                 1);
    }

    // Propose pressed for ord-wait; before the fix rule's setting has been read, another view
    // hands ord-paid over. When the setting arrives, no dialog opens (it would read as one for
    // ord-paid, the order now on the page), nothing is said and nothing is proposed.
    void noDialogForAnOrderThePageMovedAwayFrom()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy proposed(&page, &OrderPage::fixesProposed);
        const qint64 before = m_fixture->count("SELECT COUNT(*) FROM fix_requests");
        page.showOrder("ord-wait");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QVERIFY(page.proposeButton()->isEnabled());
        QAction *propose = proposeMessagesAction(page);
        QVERIFY(propose);

        // Every pool thread held: the setting's read, then the hand-over's, wait in that order.
        auto hold = std::make_shared<QSemaphore>();
        QObject holders;
        for (int i = 0; i < kConsoleTaskThreads; ++i)
            runBackgroundQuery<int>(
                &holders, m_fixture->config.orders, QStringLiteral("hold"),
                [hold](const Connection &) -> Result<int> {
                    hold->tryAcquire(1, 20000); // a hung test shows as a failure, not a hang
                    return 0;
                },
                [](const Result<int> &) {});
        ModalWatcher watcher(false);
        propose->trigger();
        page.showOrder("ord-paid");
        // One thread: the setting's read answers first, then the order's; when ord-paid is on
        // the page, the setting's answer has been handled.
        hold->release(1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
        QCOMPARE(loaded.last().first().toString(), QStringLiteral("ord-paid"));
        hold->release(kConsoleTaskThreads);
        QTest::qWait(200); // the watcher's ticks, for anything opened late
        QCOMPARE(watcher.proposeDialogs, 0);
        QVERIFY2(watcher.boxes.isEmpty(), qPrintable(watcher.boxes.join(" | ")));
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(proposed.count(), 0);
        QCOMPARE(m_fixture->count("SELECT COUNT(*) FROM fix_requests"), before);
        QCOMPARE(page.picture().order.orderId, QStringLiteral("ord-paid"));
    }

    // The page still on ord-wait when the setting arrives: the dialog opens with its waiting
    // message, and the proposal is made.
    void theDialogOpensForTheOrderShown()
    {
        OrderPage page(m_fixture->config.orders, account("agent", StaffRole::Agent).actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy proposed(&page, &OrderPage::fixesProposed);
        const qint64 before = m_fixture->count("SELECT COUNT(*) FROM fix_requests");
        page.showOrder("ord-wait");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        ModalWatcher watcher(true);
        proposeMessagesAction(page)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(proposed.count(), 1, 20000);
        QCOMPARE(watcher.proposeDialogs, 1);
        QCOMPARE(proposed.first().first().toInt(), 1);
        QCOMPARE(watcher.boxes.size(), 1); // the summary
        QVERIFY2(watcher.boxes.first().startsWith("1 fix proposed"),
                 qPrintable(watcher.boxes.first()));
        QCOMPARE(m_fixture->count("SELECT COUNT(*) FROM fix_requests WHERE kind ="
                                  " 'resolve_message' AND target_id = 'stripe:evt_wait'"),
                 1);
        QCOMPARE(m_fixture->count("SELECT COUNT(*) FROM fix_requests"), before + 1);
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = ScratchDatabases::create(Dialect::Sqlite);
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstOrderPageFixes)
#include "tst_order_page_fixes.moc"
