// The approvals page's detail pane (offscreen), in English and 简体中文: a proposal whose
// "before" is long (an underpaid order's refusal reason) keeps its "after" — what the fix makes
// of the field — on screen, the long value cut and whole in its tooltip; a reviewer's comment
// is shown as typed, markup included, never as formatting; an approval that no longer counts
// says why. Set ONCEPAY_SHOT_DIR to keep a picture of the lapsed approval in both languages.

#include "approvals/approvalspage.h"
#include "auth/staffservice.h"
#include "common/language.h"
#include "enginefixture.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QVBoxLayout>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

class TstApprovalsDetail : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void longBeforeKeepsAfterOnScreenAndCommentsShowAsTyped_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void longBeforeKeepsAfterOnScreenAndCommentsShowAsTyped()
    {
        QFETCH(QString, lang);
        Language::apply(lang);
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        // The channel captured 317,700 KRW of 353,000: paid_unconfirmed, with the refusal in
        // words as its state reason — the change's longest "before".
        QCOMPARE(makeUnconfirmed(f, "o-krw", 353000, 317700, "KRW").state,
                 OrderState::PaidUnconfirmed);
        FixService fixes(*f.orders, f.clock);
        auto fix =
            fixes.propose(proposal(FixKind::ConfirmPayment, "o-krw", "customer's bank"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        const QString comment = QStringLiteral("<b>not</b> this one & <i>never</i> twice");
        QVERIFY(fixes.reject(fix->id, "wrong_target", comment, kOrigin, fin).ok());

        // The page at the width the main window gives it at 1,024 px: the change pane is about
        // 420 px wide.
        QWidget window;
        window.resize(880, 700);
        auto *page = new ApprovalsPage(dbs->orders(), fay, &window);
        (new QVBoxLayout(&window))->addWidget(page);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        page->statusFilter()->setCurrentIndex(1); // decided
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().first().toInt() == 1, 10000);
        QVERIFY(page->select(fix->id));
        QCoreApplication::processEvents();

        auto *change = page->findChild<QTableView *>(QStringLiteral("change"));
        QVERIFY(change && change->isVisible());
        int stateReason = -1;
        for (int r = 0; r < change->model()->rowCount(); ++r)
            if (change->model()->index(r, 0).data(Qt::ToolTipRole).toString() == u"state_reason")
                stateReason = r;
        QVERIFY2(stateReason >= 0, "the change shows the order's state reason");
        const QModelIndex before = change->model()->index(stateReason, 1);
        // The precondition: the row's three texts alone are wider than the table.
        const QFontMetrics fm = change->fontMetrics();
        auto advance = [&](int column) {
            return fm.horizontalAdvance(
                change->model()->index(stateReason, column).data().toString());
        };
        const int width = change->viewport()->width();
        QVERIFY2(advance(0) + advance(1) + advance(2) > width,
                 qPrintable(QStringLiteral("the texts fit in %1").arg(width)));
        // After is on screen, at least half of what Field leaves or its whole text, and no
        // scroll bar hides it; the long Before is cut, whole in its tooltip.
        QHeaderView *header = change->horizontalHeader();
        const int afterRight = header->sectionViewportPosition(2) + header->sectionSize(2);
        QVERIFY2(afterRight <= width,
                 qPrintable(QStringLiteral("After ends at %1 of %2").arg(afterRight).arg(width)));
        QVERIFY(header->sectionSize(2) >= (width - header->sectionSize(0)) / 2 - 1 ||
                header->sectionSize(2) > advance(2));
        QVERIFY(!change->horizontalScrollBar()->isVisible());
        QVERIFY(header->sectionSize(1) < advance(1));
        QVERIFY2(before.data(Qt::ToolTipRole).toString().contains(before.data().toString()),
                 qPrintable(before.data(Qt::ToolTipRole).toString()));

        // The reviewer's comment as typed: its markup is text.
        const auto *decisions = page->findChild<QLabel *>(QStringLiteral("decisions"));
        QVERIFY(decisions);
        QCOMPARE(decisions->textFormat(), Qt::PlainText);
        QVERIFY2(decisions->text().contains(comment), qPrintable(decisions->text()));
        Language::apply(QStringLiteral("en"));
    }
    // An approval whose reviewer was moved to the agents since no longer counts: the decisions
    // pane says so beside it, in the console's language.
    void aLapsedApprovalIsSaid_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("said");
        QTest::newRow("en") << QStringLiteral("en")
                            << QStringLiteral("fin is no longer a finance reviewer: its approval"
                                              " no longer counts");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN")
                               << QStringLiteral("fin 已不再是财务审核人：其批准不再计数");
    }
    void aLapsedApprovalIsSaid()
    {
        QFETCH(QString, lang);
        QFETCH(QString, said);
        Language::apply(lang);
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        // 2,500.00 USD captured 2,490.00: paid_unconfirmed, a confirmation needs two approvals.
        QCOMPARE(makeUnconfirmed(f, "o-two", 250000, 249000).state, OrderState::PaidUnconfirmed);
        FixService fixes(*f.orders, f.clock);
        auto fix = fixes.propose(proposal(FixKind::ConfirmPayment, "o-two", "bank"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        QCOMPARE(fix->approvalsNeeded, 2);
        QVERIFY(fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin).ok());
        StaffService staff(*f.orders, f.clock);
        QVERIFY(staff
                    .add({"fay", "fay", StaffRole::Finance}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        QVERIFY(staff.setRole("fin", "agent", adm, "moved").ok());

        QWidget window;
        window.resize(880, 700);
        auto *page = new ApprovalsPage(dbs->orders(), fay, &window);
        (new QVBoxLayout(&window))->addWidget(page);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().first().toInt() == 1, 10000);
        QVERIFY(page->select(fix->id));
        QCoreApplication::processEvents();
        const auto *decisions = page->findChild<QLabel *>(QStringLiteral("decisions"));
        QVERIFY(decisions);
        QVERIFY2(decisions->text().contains(said), qPrintable(decisions->text()));
        if (const QString dir = qEnvironmentVariable("ONCEPAY_SHOT_DIR"); !dir.isEmpty())
            window.grab().save(dir + QStringLiteral("/approvals-lapsed-%1.png").arg(lang));
        Language::apply(QStringLiteral("en"));
    }
};

QTEST_MAIN(TstApprovalsDetail)
#include "tst_approvals_detail.moc"
