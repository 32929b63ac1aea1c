// The console's write side end to end (offscreen): an agent proposes a requeue of a dead
// letter from the stuck-records view, a finance reviewer approves it in the approvals view,
// the worker processes the message, the order's history shows it, and the audit trail holds
// every step with a valid chain; one's own proposal not decided there. Plus the reconciliation
// desk and the administration page. What the stuck and order pages offer: tst_fix_console_offers.

#include "admin/adminpage.h"
#include "approvals/approvalspage.h"
#include "audit/auditshipper.h"
#include "audit/auditverifier.h"
#include "auth/staffservice.h"
#include "enginefixture.h"
#include "fixconsolesupport.h"
#include "fixes/adminmodels.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "investigation/stuckmodel.h"
#include "reconciliation/reconciliationpage.h"
#include "stuck/stuckpage.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

class TstFixConsole : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void agentProposesFinanceApprovesWorkerProcesses()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-late", "a1", 2100, "USD", "evt_late", "pi_late")));
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        Order o = f.createOrder("o-late", 2100);
        f.pay("o-late", o.version, "a1");

        // The agent, in the stuck-records view.
        StuckPage stuck(dbs->orders(), amy);
        QSignalSpy stuckLoaded(&stuck, &StuckPage::loaded);
        stuck.refresh();
        QVERIFY(stuckLoaded.wait(20000));
        int deadRow = -1;
        for (int r = 0; r < stuck.model()->rowCount(); ++r)
            if (stuck.model()->rowAt(r).kind == StuckKind::DeadLetter)
                deadRow = r;
        QVERIFY(deadRow >= 0);
        const QModelIndex proxyIndex =
            stuck.proxy()->mapFromSource(stuck.model()->index(deadRow, 0));
        stuck.table()->selectionModel()->setCurrentIndex(
            proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(stuck.proposeButton()->isEnabled());
        answerProposeDialog("poison_message", "order arrived late from checkout");
        QSignalSpy proposed(&stuck, &StuckPage::fixesProposed);
        stuck.proposeButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(proposed.count(), 1, 20000);
        QCOMPARE(proposed.first().first().toInt(), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open' AND kind = "
                         "'requeue_message'"),
                 1);

        // The agent may read the queue but not decide.
        ApprovalsPage agentView(dbs->orders(), amy);
        QVERIFY(!agentView.approveButton()->isVisibleTo(&agentView));

        // The finance reviewer, in the approvals view.
        ApprovalsPage approvals(dbs->orders(), fin);
        QAbstractItemModelTester tester(approvals.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&approvals, &ApprovalsPage::loaded);
        approvals.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(approvals.model()->rowCount(), 1);
        const qint64 fixId = approvals.model()->rowAt(0).id;
        QVERIFY(approvals.select(fixId));
        QVERIFY(approvals.approveButton()->isEnabled());
        QSignalSpy decided(&approvals, &ApprovalsPage::decided);
        approvals.approveSelected("checked the checkout log");
        QVERIFY(decided.wait(20000));
        QCOMPARE(decided.first().at(1).toString(), FixStatus::Applied);

        // The worker does the rest, once. (The console stamps the requeue with the wall clock;
        // the fixture's worker runs on a manual clock that starts in January, so catch it up.)
        f.clock.advance(QDateTime::currentMSecsSinceEpoch() - f.clock.nowMs() + 1000);
        f.drain();
        QCOMPARE(f.order("o-late").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE order_id = 'o-late'"), 1);

        // The order's story names the fix; the audit trail holds every step, chained.
        auto picture = OrderPictureQuery(*f.orders).load("o-late", amy);
        QVERIFY(picture.ok());
        QStringList fixSteps;
        for (const TimelineEntry &e : picture->timeline)
            if (e.kind == TimelineKind::Fix)
                fixSteps << e.detail.section(QLatin1Char(' '), 0, 1);
        QCOMPARE(fixSteps, (QStringList{"requeue_message proposed",
                                        "requeue_message approved:", "requeue_message applied"}));
        auto auditDb = openMigrated(dbs->audit(), "test-audit");
        QVERIFY(auditDb.ok());
        AuditShipper shipper(*f.orders, *auditDb, f.clock);
        QVERIFY(shipper.shipAll().ok());
        auto steps = Sql::scalar(
            auditDb->db(), "SELECT COUNT(*) FROM audit_log WHERE order_id = 'o-late' AND action IN"
                           " ('fix.proposed', 'fix.approved', 'fix.applied')");
        QCOMPARE(steps->toLongLong(), 3);
        auto verified = AuditVerifier(*auditDb).verify();
        QVERIFY(verified.ok());
        QVERIFY2(verified->ok(), qPrintable(verified->summary()));
    }

    void ownProposalCannotBeDecidedInTheConsole()
    {
        // What the README promises: a reviewer's own proposal is shown but its approve and
        // reject buttons are disabled; another reviewer may decide it.
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        const Actor fin2{QStringLiteral("fin2"), QStringLiteral("finance")};
        QVERIFY(StaffService(*f.orders, f.clock)
                    .add({"fin2", "fin2", StaffRole::Finance}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-own", "a1", 900, "USD", "evt_own", "pi_own")));
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        auto proposed = FixService(*f.orders, f.clock)
                            .propose({FixKind::RequeueMessage, "stripe:evt_own", "poison_message",
                                      "order arrived late from checkout", "test"},
                                     fin);
        QVERIFY2(proposed.ok(), qPrintable(proposed.ok() ? QString() : proposed.error().message));

        ApprovalsPage own(dbs->orders(), fin);
        QSignalSpy ownLoaded(&own, &ApprovalsPage::loaded);
        own.refresh();
        QVERIFY(ownLoaded.wait(20000));
        QVERIFY(own.select(proposed->id));
        QVERIFY(own.approveButton()->isVisibleTo(&own));
        QVERIFY(!own.approveButton()->isEnabled());
        QVERIFY(!own.rejectButton()->isEnabled());

        ApprovalsPage other(dbs->orders(), fin2);
        QSignalSpy otherLoaded(&other, &ApprovalsPage::loaded);
        other.refresh();
        QVERIFY(otherLoaded.wait(20000));
        QVERIFY(other.select(proposed->id));
        QVERIFY(other.approveButton()->isEnabled());
        QVERIFY(other.rejectButton()->isEnabled());
    }

    void reconciliationDeskAndAdministration()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);

        ReconciliationPage desk(dbs->orders(), fin);
        QAbstractItemModelTester runsTester(desk.runs(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester excTester(desk.exceptions(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(desk.runButton()->isVisibleTo(&desk));
        QSignalSpy finished(&desk, &ReconciliationPage::runFinished);
        desk.startRun(f.clock.nowMs() - 86400000LL * 30, f.clock.nowMs() + 1);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), QStringLiteral("finished"));
        QSignalSpy loaded(&desk, &ReconciliationPage::loaded);
        desk.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(desk.runs()->rowCount(), 1);

        // A period that ends before it starts: refused by the service (audited there), said as
        // its own sentence, not as a failed run; no run row.
        finished.clear();
        desk.startRun(f.clock.nowMs(), f.clock.nowMs() - 86400000LL);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), QStringLiteral("refused"));
        QCOMPARE(finished.first().at(1).toString(),
                 QStringLiteral("The run was not started. The request was refused: the period"
                                " ends before it starts"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM reconciliation_runs"), 1);

        ReconciliationPage agentDesk(dbs->orders(), amy);
        QVERIFY(!agentDesk.runButton()->isVisibleTo(&agentDesk));

        AdminPage admin(dbs->orders(), adm);
        QAbstractItemModelTester settingsTester(
            admin.settings(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy adminLoaded(&admin, &AdminPage::loaded);
        admin.refresh();
        QVERIFY(adminLoaded.wait(20000));
        QCOMPARE(admin.staff()->rowCount(), 3);
        QSignalSpy changed(&admin, &AdminPage::changed);
        admin.changeSetting("stuck.pending_seconds", "0", "too eager");
        QVERIFY(changed.wait(20000));
        QCOMPARE(changed.first().first().toBool(), false);
        admin.changeSetting("stuck.pending_seconds", "600", "calmer nights");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).first().toBool(), true);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.changed' AND "
                         "actor = 'adm'"),
                 1);
    }
};

QTEST_MAIN(TstFixConsole)
#include "tst_fix_console.moc"
