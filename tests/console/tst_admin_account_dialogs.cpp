// The administration page's Add account… and Reset password… dialogs driven as a person does,
// offscreen, on every engine: OK off until the form is whole, the account added or its password
// set through the service (audited), the service's refusals in its words, Cancel changing nothing.

#include "admindialogsupport.h"

#include "common/language.h"

#include <QScopeGuard>
#include <QTabBar>
#include <QTabWidget>

using namespace OncePay;
using namespace OncePay::Test;

class TstAdminAccountDialogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Add account…: OK stays off, saying why, until a user name and the same password twice
    // are typed; OK asks the service while the dialog stays open (its fields and buttons off),
    // and the dialog closes only once the account was added with the role chosen (audited) and
    // the list shows it. A refusal by the service — the name taken, a user name it does not
    // take, a password too short — is shown inside the dialog in the service's words, with the
    // user name, display name and role kept (the passwords to type again), nothing added, and
    // the page's line untouched; typed again, the same dialog adds the account. What the page
    // says after a change belongs to the Staff tab, not to Operational settings.
    void addDialogAddsAnAccount_data() { addEngineRows(); }
    void addDialogAddsAnAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        QPushButton *add = s.pageButton("addStaff");
        QVERIFY(add);

        QStringList problems;
        QList<bool> okOn;
        bool sendingSeen = false;
        auto fill = [&](const QString &user, const QString &password, const QString &again,
                        bool send) {
            return pressAndAnswer(add, [&, user, password, again, send](QDialog *d) {
                auto look = [&] {
                    problems << problem(d);
                    okOn << button(d, QDialogButtonBox::Ok)->isEnabled();
                };
                look();
                type(d, "username", user);
                look();
                type(d, "displayName", QStringLiteral("Finn Ance"));
                choose(d, StaffRole::Finance);
                type(d, "password", password);
                look();
                type(d, "passwordAgain", again);
                look();
                if (send && button(d, QDialogButtonBox::Ok)->isEnabled())
                    QVERIFY(sendAndWait(d, &sendingSeen));
                else
                    click(button(d, send ? QDialogButtonBox::Ok : QDialogButtonBox::Cancel));
            });
        };
        const QString before = staffAndAudit(*s.c);
        Answered a = fill("fin", "finance-secret-pw", "finance-secret-pX", true);
        QCOMPARE(a.dialog, QStringLiteral("addStaffDialog"));
        QVERIFY(a.leftOpen); // OK was off: closed here
        QCOMPARE(problems,
                 (QStringList{"Type a user name.", "Type the password twice, the same both times.",
                              "Type the password twice, the same both times.",
                              "Type the password twice, the same both times."}));
        QCOMPARE(okOn, (QList<bool>{false, false, false, false}));
        QVERIFY(!s.waiting()); // nothing sent (OK was off); a wait seen below is the Cancel's
        a = fill("fin", "finance-secret-pw", "finance-secret-pw", false); // Cancel
        QVERIFY(!a.leftOpen);
        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(staffAndAudit(*s.c), before);

        problems.clear();
        okOn.clear();
        a = fill("fin", "finance-secret-pw", "finance-secret-pw", true);
        QVERIFY(!a.leftOpen); // closed by the service's yes
        QVERIFY(sendingSeen); // open, fields off, while the service was asked
        QCOMPARE(problems.last(), QString());
        QCOMPARE(okOn.last(), true);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Account fin added."));
        auto fin = s.staff->find("fin");
        QVERIFY(fin.ok());
        QCOMPARE(fin->role, StaffRole::Finance);
        QCOMPARE(fin->displayName, QStringLiteral("Finn Ance"));
        QVERIFY(signsIn(*s.staff, "fin", "finance-secret-pw"));
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.added'"
                             " AND entity_id = 'fin' AND actor = 'root-admin'"),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QCOMPARE(s.shown("fin", StaffModel::Role), Labels::role(StaffRole::Finance));

        // Refused by the service: the dialog stays open with what was typed and says why.
        const QString beforeRefusals = staffRows(*s.c);
        struct Seen {
            QString refusal, tip, user, name, password, again, role, problem;
            bool okOn = true;
        };
        auto refused = [&](const QString &user, const QString &password, const QString &shot) {
            Seen seen;
            const Answered r = pressAndAnswer(add, [&](QDialog *d) {
                type(d, "username", user);
                // Not ASCII: inserted as an input method does (QTest types ASCII only).
                d->findChild<QLineEdit *>(QStringLiteral("displayName"))
                    ->insert(QStringLiteral("张三 <script>"));
                choose(d, StaffRole::Auditor);
                type(d, "password", password);
                type(d, "passwordAgain", password);
                QVERIFY(sendAndWait(d));
                QVERIFY(d->isVisible());
                seen.refusal = refusal(d);
                seen.tip = d->findChild<QLabel *>(QStringLiteral("refusal"))->toolTip();
                seen.user = typed(d, "username");
                seen.name = typed(d, "displayName");
                seen.password = typed(d, "password");
                seen.again = typed(d, "passwordAgain");
                seen.role = d->findChild<QComboBox *>(QStringLiteral("role"))->currentText();
                seen.problem = problem(d);
                seen.okOn = button(d, QDialogButtonBox::Ok)->isEnabled();
                shootAdmin(d, shot);
            });
            if (!r.leftOpen)
                qWarning("the dialog closed on a refusal");
            return seen;
        };
        auto keptWhatWasTyped = [&](const Seen &seen, const QString &user) {
            QCOMPARE(seen.user, user);
            QCOMPARE(seen.name, QStringLiteral("张三 <script>"));
            QCOMPARE(seen.role, Labels::role(StaffRole::Auditor));
            QCOMPARE(seen.password, QString()); // typed again: the dialog keeps no refused one
            QCOMPARE(seen.again, QString());
            QCOMPARE(seen.problem, QStringLiteral("Type the password twice, the same both times."));
            QVERIFY(!seen.okOn);
        };

        Seen seen = refused("amy", "another-secret-pw", "add-refused-taken");
        QCOMPARE(seen.refusal, QStringLiteral("Not added: The request was refused: a staff account"
                                              " amy already exists"));
        QCOMPARE(seen.tip, QStringLiteral("a staff account amy already exists"));
        keptWhatWasTyped(seen, "amy");
        if (QTest::currentTestFailed())
            return;

        const QString injected = QStringLiteral("x'); DROP TABLE staff;--");
        seen = refused(injected, "another-secret-pw", "add-refused-username");
        QVERIFY2(seen.refusal.startsWith(u"Not added: The request was refused: ") &&
                     seen.refusal.contains(u"a user name is 2"),
                 qPrintable(seen.refusal));
        keptWhatWasTyped(seen, injected);
        if (QTest::currentTestFailed())
            return;

        seen = refused("gus", "short", "add-refused-password");
        QVERIFY2(seen.refusal.startsWith(
                     u"Not added: The request was refused: a password needs at least "),
                 qPrintable(seen.refusal));
        keptWhatWasTyped(seen, "gus");
        if (QTest::currentTestFailed())
            return;

        // The refusals went to the dialog only: no change reported, the page's line as it was.
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Account fin added."));
        QCOMPARE(staffRows(*s.c), beforeRefusals);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.added'"), 3);
        QVERIFY(!s.waiting());

        // Refused, then typed again in the same dialog: added, and only then closed.
        QString firstRefusal;
        a = pressAndAnswer(add, [&](QDialog *d) {
            type(d, "username", QStringLiteral("gus"));
            type(d, "displayName", QStringLiteral("Gus"));
            choose(d, StaffRole::Auditor);
            type(d, "password", QStringLiteral("short"));
            type(d, "passwordAgain", QStringLiteral("short"));
            QVERIFY(sendAndWait(d));
            QVERIFY(d->isVisible());
            firstRefusal = refusal(d);
            type(d, "password", QStringLiteral("gus-secret-pw"));
            type(d, "passwordAgain", QStringLiteral("gus-secret-pw"));
            QVERIFY(sendAndWait(d));
        });
        QVERIFY(!a.leftOpen);
        QVERIFY2(firstRefusal.contains(u"a password needs at least "), qPrintable(firstRefusal));
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Account gus added."));
        QVERIFY(signsIn(*s.staff, "gus", "gus-secret-pw"));
        QCOMPARE(s.staff->find("gus")->role, StaffRole::Auditor);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);

        // The page's line belongs to the Staff tab.
        auto *tabs = s.page->findChild<QTabWidget *>();
        QVERIFY(tabs);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center());
        QCOMPARE(tabs->currentIndex(), 1);
        QCOMPARE(s.page->summary()->text(), QString());
        shootAdmin(s.page.get(), "admin-settings-tab-after-add");
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(0).center());
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Account gus added."));
    }

    // In 简体中文 too, a refusal is shown inside the Add account… dialog, which stays open with
    // the user name typed.
    void addDialogRefusalInChinese_data() { addEngineRows(); }
    void addDialogRefusalInChinese()
    {
        ONCEPAY_SCRATCH(dbs);
        if (dbs->dialect() != Dialect::Sqlite)
            QSKIP("the words do not depend on the engine; seen on SQLite");
        Language::apply(QStringLiteral("zh_CN"));
        const auto english = qScopeGuard([] { Language::apply(QStringLiteral("en")); });
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QString said;
        QString user;
        const Answered a = pressAndAnswer(s.pageButton("addStaff"), [&](QDialog *d) {
            type(d, "username", QStringLiteral("x'); DROP TABLE staff;--"));
            type(d, "password", QStringLiteral("another-secret-pw"));
            type(d, "passwordAgain", QStringLiteral("another-secret-pw"));
            QVERIFY(sendAndWait(d));
            said = refusal(d);
            user = typed(d, "username");
            shootAdmin(d, QStringLiteral("add-refused-username-zh"));
        });
        QVERIFY(a.leftOpen);
        QVERIFY2(said.startsWith(u"未添加："), qPrintable(said));
        QCOMPARE(user, QStringLiteral("x'); DROP TABLE staff;--"));
        QCOMPARE(s.page->summary()->text(), QString());
    }

    // Reset password…: OK stays off, saying why, until the same password is typed twice; OK
    // sets it (the old one no longer signs in, the new one does), audited. A password too
    // short is refused in the service's words and the old one still signs in; Cancel changes
    // nothing.
    void resetPasswordDialogSetsThePassword_data() { addEngineRows(); }
    void resetPasswordDialogSetsThePassword()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        QPushButton *reset = s.pageButton("resetPassword");
        QVERIFY(reset);
        auto answer = [&](const QString &password, const QString &again, bool send,
                          QString *why = nullptr, bool *ok = nullptr) {
            return pressAndAnswer(reset, [=](QDialog *d) {
                type(d, "password", password);
                type(d, "passwordAgain", again);
                if (why)
                    *why = problem(d);
                if (ok)
                    *ok = button(d, QDialogButtonBox::Ok)->isEnabled();
                click(button(d, send ? QDialogButtonBox::Ok : QDialogButtonBox::Cancel));
            });
        };
        const QString before = staffAndAudit(*s.c);
        QVERIFY(!reset->isEnabled()); // no account chosen: nothing to reset
        QVERIFY(clickStaff(s, "amy"));
        QVERIFY(reset->isEnabled());
        QString why;
        bool ok = true;
        Answered a = answer("new-amy-secret", "new-amy-secreT", true, &why, &ok);
        QCOMPARE(a.dialog, QStringLiteral("resetPasswordDialog"));
        QCOMPARE(a.title, QStringLiteral("New password for amy"));
        QVERIFY(a.leftOpen);
        QVERIFY(!ok);
        QCOMPARE(why, QStringLiteral("Type the password twice, the same both times."));
        QVERIFY(!s.waiting()); // nothing sent (OK was off); a wait seen below is the Cancel's
        QVERIFY(clickStaff(s, "amy"));
        a = answer("new-amy-secret", "new-amy-secret", false);
        QVERIFY(!a.leftOpen);
        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(staffAndAudit(*s.c), before);

        QVERIFY(clickStaff(s, "amy"));
        a = answer("short", "short", true);
        QVERIFY(!a.leftOpen);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.at(0).at(0).toBool(), false);
        QVERIFY2(s.page->summary()->text().startsWith(
                     u"Not reset: The request was refused: a password needs at least "),
                 qPrintable(s.page->summary()->text()));
        QCOMPARE(staffAndAudit(*s.c), before);

        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QVERIFY(clickStaff(s, "amy"));
        a = answer("new-amy-secret", "new-amy-secret", true, &why, &ok);
        QVERIFY(!a.leftOpen);
        QVERIFY(ok);
        QCOMPARE(why, QString());
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).at(0).toBool(), true);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Password of amy reset."));
        QVERIFY(!signsIn(*s.staff, "amy", "amy-secret-pw"));
        QVERIFY(signsIn(*s.staff, "amy", "new-amy-secret"));
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action ="
                             " 'staff.password_reset' AND entity_id = 'amy'"
                             " AND actor = 'root-admin'"),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
    }
};

QTEST_MAIN(TstAdminAccountDialogs)
#include "tst_admin_account_dialogs.moc"
