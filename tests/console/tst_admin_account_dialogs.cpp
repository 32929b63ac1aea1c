// The administration page's Add account… and Reset password… dialogs driven as a person does,
// offscreen, on every engine: OK off until the form is whole, the account added or its password
// set through the service (audited), the service's refusals in its words, Cancel changing nothing.

#include "admindialogsupport.h"

using namespace OncePay;
using namespace OncePay::Test;

class TstAdminAccountDialogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Add account…: OK stays off, saying why, until a user name and the same password twice
    // are typed; OK adds the account with the role chosen (audited) and the list shows it. A
    // name taken or a password too short is refused by the service in its words, and nothing
    // is added.
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
        QVERIFY(!a.leftOpen);
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

        // Refused by the service: the name taken, a password too short.
        const QString beforeRefusals = staffRows(*s.c);
        a = fill("amy", "another-secret-pw", "another-secret-pw", true);
        QVERIFY(!a.leftOpen);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).at(0).toBool(), false);
        QCOMPARE(s.page->summary()->text(),
                 QStringLiteral("Not added: The request was refused: a staff account amy already"
                                " exists"));
        QCOMPARE(s.page->summary()->toolTip(),
                 QStringLiteral("a staff account amy already exists"));
        a = fill("gus", "short", "short", true);
        QVERIFY(!a.leftOpen);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, 20000);
        QVERIFY2(s.page->summary()->text().startsWith(
                     u"Not added: The request was refused: a password needs at least "),
                 qPrintable(s.page->summary()->text()));
        QCOMPARE(staffRows(*s.c), beforeRefusals);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.added'"), 3);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 3, 20000);
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
