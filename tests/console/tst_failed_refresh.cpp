// A refresh that cannot read the database leaves nothing stale to act on (offscreen), on the
// approvals queue and on the reconciliation desk as on the stuck records (dcf4571): the old rows
// go, the detail pane says nothing is selected, Approve/Reject, Propose fix, Close period and
// Open order are off, and the summary line says what failed. The database is made unreadable
// the way an operator meets it: its SQLite file moved away.

#include "approvals/approvalspage.h"
#include "common/errortext.h"
#include "consolefixture.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "reconciliation/reconciliationpage.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor finance{QStringLiteral("finance"), QStringLiteral("finance")};

// The orders database goes away (moved, unmounted): the next read fails.
bool moveAway(const QString &path)
{
    if (!QFile::rename(path, path + QStringLiteral(".away")))
        return false;
    QFile::remove(path + QStringLiteral("-wal"));
    QFile::remove(path + QStringLiteral("-shm"));
    return true;
}

// A button of the page by its text (those without an object name).
QPushButton *buttonNamed(QWidget *page, const QString &text)
{
    for (QPushButton *b : page->findChildren<QPushButton *>())
        if (b->text() == text)
            return b;
    return nullptr;
}

} // namespace

class TstFailedRefresh : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(setUpConsoleTest(m_dbs, m_fixture));
        EngineFixture &f = *m_fixture;
        // A proposal waiting for a finance reviewer (proposed by the agent).
        FixService fixes(*f.orders, f.clock);
        const Actor agent{QStringLiteral("agent"), QStringLiteral("agent")};
        f.makeDeadLetter(QStringLiteral("ghost-ord-1"), QStringLiteral("evt_ghost_1"));
        FixProposal p;
        p.kind = QStringLiteral("requeue_message");
        p.targetId = QStringLiteral("stripe:evt_ghost_1");
        p.reasonCode = QStringLiteral("channel_outage");
        p.comment = QStringLiteral("replay it once the shop has the order");
        p.origin = QStringLiteral("console@test");
        auto fix = fixes.propose(p, agent);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
    }

    void cleanup()
    {
        m_fixture.reset();
        m_dbs = Error{};
    }

    void approvalsLeaveNoStaleProposals()
    {
        ApprovalsPage page(m_dbs.value()->orders(), finance);
        page.resize(1200, 800);
        page.show();
        QSignalSpy loaded(&page, &ApprovalsPage::loaded);
        QSignalSpy failed(&page, &ApprovalsPage::failed);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(page.model()->rowCount(), 1);
        QVERIFY(page.select(page.model()->rowAt(0).id));
        QVERIFY(page.approveButton()->isEnabled());
        QVERIFY(page.rejectButton()->isEnabled());
        auto *header = page.findChild<QLabel *>(QStringLiteral("header"));
        QVERIFY(header && header->text().contains(u"evt_ghost_1"));

        const QString path = m_dbs.value()->orders().path;
        m_fixture.reset(); // the test's own connection is not the console's
        QVERIFY(moveAway(path));
        page.refresh();
        QVERIFY(failed.wait(20000));
        QCOMPARE(page.model()->rowCount(), 0);
        QCOMPARE(page.table()->model()->rowCount(), 0);
        QVERIFY(!page.approveButton()->isEnabled());
        QVERIFY(!page.rejectButton()->isEnabled());
        QVERIFY(!buttonNamed(&page, ApprovalsPage::tr("Open &order"))->isEnabled());
        QVERIFY2(!header->text().contains(u"evt_ghost_1"), qPrintable(header->text()));
        QCOMPARE(page.summary()->text(), failed.first().first().toString());
        QVERIFY2(page.summary()->text().contains(u"Database file not found"),
                 qPrintable(page.summary()->text()));
        QVERIFY(!QFile::exists(path)); // and no empty database made in its place
    }

    void reconciliationLeavesNoStaleExceptions()
    {
        ReconciliationPage desk(m_dbs.value()->orders(), finance);
        desk.resize(1200, 800);
        desk.show();
        QSignalSpy finished(&desk, &ReconciliationPage::runFinished);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        desk.startRun(now - 86400000LL * 30, now + 1);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), QStringLiteral("finished"));
        // An open exception of the run's, whatever the scenario left.
        QVERIFY(Sql::exec(m_fixture->orders->db(),
                          "INSERT INTO discrepancies (discrepancy_key, kind, channel,"
                          " channel_txn_id, order_id, expected_minor, actual_minor, currency,"
                          " status, first_run_id, last_run_id, opened_at) VALUES"
                          " ('amount_mismatch:stripe:t-1', 'amount_mismatch', 'stripe', 't-1',"
                          " NULL, 10000, 9000, 'USD', 'open', 1, 1, ?)",
                          {now})
                    .ok());
        QSignalSpy loaded(&desk, &ReconciliationPage::loaded);
        QSignalSpy failed(&desk, &ReconciliationPage::failed);
        desk.refresh();
        QVERIFY(loaded.wait(20000));
        QVERIFY(desk.exceptions()->rowCount() > 0);
        QVERIFY(desk.runs()->rowCount() > 0);
        desk.runTable()->selectRow(0);
        desk.exceptionTable()->selectRow(0);
        auto *propose = desk.findChild<QPushButton *>(QStringLiteral("propose"));
        auto *lineSide = desk.findChild<QLabel *>(QStringLiteral("lineSide"));
        auto *ruleSide = desk.findChild<QLabel *>(QStringLiteral("ruleSide"));
        auto *closePeriod =
            buttonNamed(&desk, ReconciliationPage::tr("C&lose period of selected run…"));
        QVERIFY(propose && lineSide && ruleSide && closePeriod);
        QVERIFY(propose->isEnabled());
        QVERIFY(closePeriod->isEnabled());
        QVERIFY(!ruleSide->text().isEmpty());

        const QString path = m_dbs.value()->orders().path;
        m_fixture.reset(); // the test's own connection is not the console's
        QVERIFY(moveAway(path));
        desk.refresh();
        QVERIFY(failed.wait(20000));
        QCOMPARE(desk.exceptions()->rowCount(), 0);
        QCOMPARE(desk.exceptionTable()->model()->rowCount(), 0);
        QCOMPARE(desk.runs()->rowCount(), 0);
        QVERIFY(!propose->isEnabled());
        QVERIFY(!closePeriod->isEnabled());
        QVERIFY(!buttonNamed(&desk, ReconciliationPage::tr("Open &order"))->isEnabled());
        QCOMPARE(lineSide->text(), ReconciliationPage::tr("Select an exception."));
        QVERIFY(ruleSide->text().isEmpty());
        QCOMPARE(desk.summary()->text(), failed.first().first().toString());
        QVERIFY2(desk.summary()->text().contains(u"Database file not found"),
                 qPrintable(desk.summary()->text()));
        QVERIFY(!QFile::exists(path));
    }

    // A run refused or failed says so on the run's own line, and the refresh that follows
    // the run does not overwrite it: the reviewer saw nothing after Run (the summary line was
    // rewritten by the reload).
    void reconciliationRunOutcomeOutlivesRefresh()
    {
        ReconciliationPage desk(m_dbs.value()->orders(), finance);
        desk.resize(1200, 800);
        desk.show();
        QLabel *notice = desk.runNotice();
        QVERIFY(notice);
        QVERIFY(!notice->isVisible());
        QSignalSpy finished(&desk, &ReconciliationPage::runFinished);
        QSignalSpy loaded(&desk, &ReconciliationPage::loaded);
        QSignalSpy failed(&desk, &ReconciliationPage::failed);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();

        // Refused by the service: a period that ends before it starts.
        desk.startRun(now, now - 86400000LL);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), QStringLiteral("refused"));
        const QString refused = QStringLiteral(
            "The run was not started. The request was refused: the period ends before it starts");
        QCOMPARE(finished.first().at(1).toString(), refused);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000); // the refresh after the run
        QVERIFY(notice->isVisible());
        QCOMPARE(notice->text(), refused);
        QVERIFY(!notice->toolTip().isEmpty());
        QVERIFY(desk.summary()->text() != refused);

        // A run that fails: the database went away. The refresh after it fails too and says
        // so on the summary line; the run's sentence stays on its own.
        finished.clear();
        const QString path = m_dbs.value()->orders().path;
        m_fixture.reset();
        QVERIFY(moveAway(path));
        desk.startRun(now - 86400000LL * 30, now + 1);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), QStringLiteral("failed"));
        const QString runFailed = finished.first().at(1).toString();
        QVERIFY2(runFailed.startsWith(ReconciliationPage::tr("The run failed: %1").arg(QString())),
                 qPrintable(runFailed));
        QVERIFY2(runFailed.contains(u"Database file not found"), qPrintable(runFailed));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        QVERIFY(notice->isVisible());
        QCOMPARE(notice->text(), runFailed);
        QVERIFY2(desk.summary()->text().contains(u"Database file not found"),
                 qPrintable(desk.summary()->text()));
        QVERIFY(!QFile::exists(path));
    }

    // The database refusing the desk console's login (oncepay_desk may not write
    // reconciliation_runs) reads as the login sentence, not as the server's SQL text.
    void reconciliationRunPermissionDenied()
    {
        const Error e{ErrorCode::Forbidden,
                      QStringLiteral("permission denied for table reconciliation_runs"),
                      QStringLiteral("permission_denied")};
        const QString text = ReconciliationPage::runErrorText(e);
        QCOMPARE(text, ReconciliationPage::tr("The run was not started. %1",
                                              "%1: why, a sentence of its own")
                           .arg(permissionDeniedText()));
        QVERIFY2(!text.contains(u"reconciliation_runs"), qPrintable(text));
    }

private:
    Result<std::unique_ptr<ScratchDatabases>> m_dbs = Error{};
    std::unique_ptr<EngineFixture> m_fixture;
};

QTEST_MAIN(TstFailedRefresh)
#include "tst_failed_refresh.moc"
