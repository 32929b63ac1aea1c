// The approvals page as a reviewer decides on it (offscreen, SQLite; review rev-shell, findings 1
// and 2): a proposal clicked with the mouse is the one shown and decided (its detail, Approve
// and Reject enabled), not only one reached with the keys; a decision the service refuses —
// another reviewer decided the proposal first, a comment longer than the service keeps — is
// said in the interface language on a line of its own that the refresh after it leaves alone;
// the decision dialogs keep a comment within the 2,000 characters the service keeps. Set
// ONCEPAY_SHOT_DIR to keep pictures of the refusal in both languages and of the dialogs.

#include "approvals/approvalspage.h"
#include "auth/staffservice.h"
#include "common/enginetext.h"
#include "common/labels.h"
#include "common/language.h"
#include "enginefixture.h"
#include "fixes/fixlabels.h"
#include "fixes/fixmodels.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QVBoxLayout>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

namespace {

// An order paid short (`captured` of `amount` USD): paid_unconfirmed, a confirmation to propose.
void underpaid(EngineFixture &f, const QString &id, qint64 amount, qint64 captured)
{
    Order o = f.createOrder(id, amount);
    o = f.pay(id, o.version, "req-" + id);
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params(id, "req-" + id, captured, "USD", "evt_" + id, "pi_" + id)));
    f.drain();
    QCOMPARE(f.order(id).state, OrderState::PaidUnconfirmed);
}

QString header(const ApprovalsPage *page)
{
    const auto *label = page->findChild<QLabel *>(QStringLiteral("header"));
    return label ? label->text() : QString();
}

QString inContext(const char *context, const char *source)
{
    return QCoreApplication::translate(context, source);
}

} // namespace

class TstApprovalsDecide : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { Language::apply(QStringLiteral("en")); }
    void cleanup() { Language::apply(QStringLiteral("en")); }

    // Finding 1: the row clicked is the one shown, and the one Approve decides.
    void aClickedProposalIsShownAndDecidable()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        underpaid(f, "o-a", 5000, 4900);
        underpaid(f, "o-b", 6000, 5900);
        FixService fixes(*f.orders, f.clock);
        for (const char *order : {"o-a", "o-b"})
            QVERIFY(fixes.propose(proposal(FixKind::ConfirmPayment, order, "bank"), amy).ok());

        QWidget window;
        window.resize(1000, 700);
        auto *page = new ApprovalsPage(dbs->orders(), fin, &window);
        (new QVBoxLayout(&window))->addWidget(page);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().first().toInt() == 2, 10000);
        QTableView *table = page->table();
        const int other = table->currentIndex().row() == 0 ? 1 : 0;
        const qint64 clickedId = table->model()->index(other, 0).data(IdRole).toLongLong();
        QVERIFY(clickedId > 0);

        const QRect cell = table->visualRect(table->model()->index(other, 1));
        QVERIFY(!cell.isEmpty());
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCoreApplication::processEvents();
        QCOMPARE(table->currentIndex().row(), other);
        QVERIFY(table->selectionModel()->isRowSelected(other, {}));
        // The whole row is selected, one row at a time.
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        QVERIFY2(header(page).contains(QStringLiteral("Fix #%1 ").arg(clickedId)),
                 qPrintable(header(page)));
        QVERIFY(page->approveButton()->isEnabled());
        QVERIFY(page->rejectButton()->isEnabled());

        // And what is decided is the clicked proposal.
        QSignalSpy decided(page, &ApprovalsPage::decided);
        page->approveSelected(QStringLiteral("checked the bank statement"));
        QVERIFY(decided.wait(20000));
        QCOMPARE(decided.first().at(0).toLongLong(), clickedId);
        QCOMPARE(decided.first().at(1).toString(), FixStatus::Applied);
    }

    // Finding 2: a refusal is said, translated, and stays after the refresh that follows it.
    void aRefusedDecisionIsSaidAndStays_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void aRefusedDecisionIsSaidAndStays()
    {
        QFETCH(QString, lang);
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        StaffService staff(*f.orders, f.clock);
        QVERIFY(staff
                    .add({"fay", "fay", StaffRole::Finance}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        underpaid(f, "o-c", 5000, 4900);
        underpaid(f, "o-d", 6000, 5900);
        FixService fixes(*f.orders, f.clock);
        auto first = fixes.propose(proposal(FixKind::ConfirmPayment, "o-c", "bank"), amy);
        auto second = fixes.propose(proposal(FixKind::ConfirmPayment, "o-d", "bank"), amy);
        QVERIFY(first.ok() && second.ok());
        QCOMPARE(first->approvalsNeeded, 1);

        Language::apply(lang);
        QWidget window;
        window.resize(1000, 700);
        auto *page = new ApprovalsPage(dbs->orders(), fin, &window);
        (new QVBoxLayout(&window))->addWidget(page);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().first().toInt() == 2, 10000);
        QVERIFY(page->select(first->id));
        QVERIFY(page->approveButton()->isEnabled());

        // Another reviewer applies it while this page still shows it waiting.
        QVERIFY(fixes.approve(first->id, first->changeSha256, "ok", kOrigin, fay).ok());
        loaded.clear();
        QSignalSpy decided(page, &ApprovalsPage::decided);
        page->approveSelected(QStringLiteral("looks right"));
        QVERIFY(decided.wait(20000));
        QVERIFY(decided.first().at(1).toString().isEmpty());
        // The refresh the decision starts has come back: the queue no longer holds it.
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        QCOMPARE(loaded.last().first().toInt(), 1);

        const QString why =
            inContext("OncePay::EngineText", "fix #%1 is %2; only an open proposal is decided")
                .arg(first->id)
                .arg(Labels::fixStatus(FixStatus::Applied));
        const QString said =
            inContext("OncePay::ApprovalsPage", "Fix #%1: %2")
                .arg(first->id)
                .arg(inContext("OncePay::ErrorText", "The request was refused: %1").arg(why));
        QLabel *notice = page->decisionNotice();
        QVERIFY(notice->isVisible());
        QCOMPARE(notice->text(), said);
        QCOMPARE(decided.first().at(2).toString(), said);
        if (lang == u"zh_CN") {
            QVERIFY2(notice->text().contains(QStringLiteral("只有等待审批的提议才能决定")),
                     qPrintable(notice->text()));
            QVERIFY2(!notice->text().contains(QStringLiteral("only an open proposal")),
                     qPrintable(notice->text()));
        } else {
            QCOMPARE(notice->text(), QStringLiteral("Fix #%1: The request was refused: fix #%1 is"
                                                    " Applied; only an open proposal is decided")
                                         .arg(first->id));
        }
        // The summary line says what the refresh found; the refusal keeps its own line.
        QVERIFY(!page->summary()->text().contains(notice->text()));
        if (const QString dir = qEnvironmentVariable("ONCEPAY_SHOT_DIR"); !dir.isEmpty())
            window.grab().save(dir + QStringLiteral("/approvals-refused-%1.png").arg(lang));

        // A comment longer than the service keeps (the dialogs do not let one through; the
        // service is the rule): refused, said in the interface language.
        QVERIFY(page->select(second->id));
        decided.clear();
        page->approveSelected(QString(2001, QLatin1Char('x')));
        QVERIFY(decided.wait(20000));
        const QString tooLong =
            inContext("OncePay::ApprovalsPage", "Fix #%1: %2")
                .arg(second->id)
                .arg(inContext("OncePay::ErrorText", "The request was refused: %1")
                         .arg(inContext("OncePay::EngineText",
                                        "a comment is longer than %1 characters")
                                  .arg(2000)));
        QTRY_COMPARE_WITH_TIMEOUT(notice->text(), tooLong, 5000);
        if (lang == u"en")
            QCOMPARE(notice->text(), QStringLiteral("Fix #%1: The request was refused: a comment"
                                                    " is longer than 2000 characters")
                                         .arg(second->id));
        QTest::qWait(200);
        QCOMPARE(notice->text(), tooLong);
    }

    // The service's refusals of a proposal's or a decision's text and of a decision are engine
    // sentences the console translates (enginetexttemplates.cpp), as the service words them.
    void theServicesRefusalsAreEngineSentences()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        QVERIFY(StaffService(*f.orders, f.clock)
                    .add({"fay", "fay", StaffRole::Finance}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        // 2,500.00 USD captured 2,490.00: a confirmation needs two approvals.
        underpaid(f, "o-two", 250000, 249000);
        FixService fixes(*f.orders, f.clock);
        auto fix = fixes.propose(proposal(FixKind::ConfirmPayment, "o-two", "bank"), amy);
        QVERIFY(fix.ok());
        QCOMPARE(fix->approvalsNeeded, 2);
        QVERIFY(fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin).ok());

        QStringList refusals;
        const auto refused = [&refusals](const Result<FixRequest> &r) {
            refusals << (r ? QStringLiteral("(not refused)") : r.error().message);
        };
        refused(fixes.approve(fix->id, fix->changeSha256, QString(2001, u'x'), kOrigin, fay));
        refused(fixes.approve(fix->id, fix->changeSha256, "again", kOrigin, fin));
        refused(fixes.approve(fix->id, QString(64, u'0'), "ok", kOrigin, fay));
        refused(fixes.approve(fix->id, fix->changeSha256, "ok", QString(191, u'o'), fay));
        refused(fixes.reject(fix->id, "wrong_target", "  ", kOrigin, fay));
        refused(fixes.reject(fix->id, "no_such_reason", "why", kOrigin, fay));
        FixProposal bare = proposal(FixKind::ConfirmPayment, "o-two", "");
        refused(fixes.propose(bare, amy));
        bare = proposal(FixKind::ConfirmPayment, "", "bank");
        refused(fixes.propose(bare, amy));
        bare = proposal(FixKind::ConfirmPayment, QString(191, u't'), "bank");
        refused(fixes.propose(bare, amy));
        const QString id = QString::number(fix->id);
        QCOMPARE(refusals,
                 (QStringList{QStringLiteral("a comment is longer than 2000 characters"),
                              "fin already approved fix #" + id +
                                  "; a second approval must come from someone else",
                              "the change approved (000000000000) is not fix #" + id +
                                  "'s change (" + fix->changeSha256.left(12) + ")",
                              QStringLiteral("the origin is longer than 190 characters"),
                              QStringLiteral("a comment is required"),
                              "a rejection needs a reason code (one of: " +
                                  rejectionReasonCodes().join(QStringLiteral(", ")) + ")",
                              QStringLiteral("a comment is required"),
                              QStringLiteral("the target is required"),
                              QStringLiteral("the target is longer than 190 characters")}));
        for (const QString &why : refusals)
            QVERIFY2(Labels::isEngineText(why), qPrintable(why));
        // The failure of an approved change has no cheap way here; its sentence as the service
        // builds it.
        QVERIFY(Labels::isEngineText(
            QStringLiteral("fix #3 was not applied and is recorded as failed: fix #3 was decided"
                           " meanwhile. Propose it again against the current state.")));
    }

    // The decision dialogs keep a comment within the 2,000 characters the service keeps.
    void theDialogsCapTheComment()
    {
        auto made = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(made.ok());
        auto dbs = std::move(made).value();
        EngineFixture f(*dbs);
        addStaff(f);
        underpaid(f, "o-e", 5000, 4900);
        FixService fixes(*f.orders, f.clock);
        QVERIFY(fixes.propose(proposal(FixKind::ConfirmPayment, "o-e", "bank"), amy).ok());

        QWidget window;
        window.resize(1000, 700);
        auto *page = new ApprovalsPage(dbs->orders(), fin, &window);
        (new QVBoxLayout(&window))->addWidget(page);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(page, &ApprovalsPage::loaded);
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().first().toInt() == 1, 10000);
        QVERIFY(page->approveButton()->isEnabled());

        for (const auto &[button, name, required] :
             {std::tuple{page->approveButton(), "approveDialog", false},
              std::tuple{page->rejectButton(), "rejectDialog", true}}) {
            QStringList seen;
            QTimer::singleShot(0, page, [&seen, name = QString::fromLatin1(name), required] {
                auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
                if (!dialog || dialog->objectName() != name) {
                    seen << QStringLiteral("no dialog");
                    if (dialog)
                        dialog->reject();
                    return;
                }
                auto *comment = dialog->findChild<QPlainTextEdit *>(QStringLiteral("comment"));
                auto *length = dialog->findChild<QLabel *>(QStringLiteral("commentLength"));
                QPushButton *ok =
                    dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
                seen << QStringLiteral("empty %1").arg(ok->isEnabled());
                comment->setPlainText(QString(2001, QLatin1Char('y')));
                seen << QStringLiteral("2001 %1 %2 %3")
                            .arg(ok->isEnabled())
                            .arg(length->isVisible())
                            .arg(length->text().contains(QStringLiteral("2001")) &&
                                 length->text().contains(QStringLiteral("2000")));
                if (const QString dir = qEnvironmentVariable("ONCEPAY_SHOT_DIR"); !dir.isEmpty())
                    dialog->grab().save(dir + u'/' + name + QStringLiteral("-too-long.png"));
                comment->setPlainText(QString(2000, QLatin1Char('y')));
                seen << QStringLiteral("2000 %1 %2").arg(ok->isEnabled()).arg(length->isVisible());
                Q_UNUSED(required);
                dialog->reject();
            });
            button->click();
            QCOMPARE(seen, (QStringList{QStringLiteral("empty %1").arg(!required),
                                        QStringLiteral("2001 0 1 1"), QStringLiteral("2000 1 0")}));
        }
    }
};

QTEST_MAIN(TstApprovalsDecide)
#include "tst_approvals_decide.moc"
