// The administration page's dialogs that change an account's standing — Change role…, Disable…,
// Enable… — driven as a person does, offscreen, on every engine: a row clicked, the page's button
// pressed, the modal dialog filled in and its OK or Cancel pressed. Each test then reads what the
// person relies on: the staff row in the database, the audit row with the reason typed, the page's
// list loaded again and its summary line; and, for a blank reason, a Cancel or a refusal by the
// service, that nothing changed and the page said why. Add account… and Reset password…:
// tst_admin_account_dialogs; a setting's Change…: tst_admin_setting_dialog.

#include "admindialogsupport.h"

using namespace OncePay;
using namespace OncePay::Test;

class TstAdminDialogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Change role…: the dialog says why OK is off until a role other than the account's and a
    // reason are given; OK changes the role through the service, audited with the reason typed
    // (trimmed), and the page's list shows the new role.
    void roleDialogChangesTheRole_data() { addEngineRows(); }
    void roleDialogChangesTheRole()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QVERIFY(clickStaff(s, "amy"));
        QVERIFY(s.page->roleButton()->isEnabled());
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        QString atOpen, sameRole, ready;
        bool okAtOpen = true, okSameRole = true, okReady = false;
        const Answered a = pressAndAnswer(s.page->roleButton(), [&](QDialog *d) {
            atOpen = problem(d);
            okAtOpen = button(d, QDialogButtonBox::Ok)->isEnabled();
            type(d, "reason", QStringLiteral("  audit team "));
            sameRole = problem(d);
            okSameRole = button(d, QDialogButtonBox::Ok)->isEnabled();
            choose(d, StaffRole::Auditor);
            ready = problem(d);
            okReady = button(d, QDialogButtonBox::Ok)->isEnabled();
            click(button(d, QDialogButtonBox::Ok));
        });
        QCOMPARE(a.dialog, QStringLiteral("roleDialog"));
        QCOMPARE(a.title, QStringLiteral("Change the role of amy"));
        QVERIFY(!a.leftOpen);
        QCOMPARE(atOpen, QStringLiteral("a reason is required"));
        QVERIFY(!okAtOpen);
        QCOMPARE(sameRole, QStringLiteral("amy already has the role agent"));
        QVERIFY(!okSameRole);
        QCOMPARE(ready, QString());
        QVERIFY(okReady);

        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.first().at(0).toBool(), true);
        QCOMPARE(changed.first().at(1).toString(), QStringLiteral("amy is now auditor."));
        QCOMPARE(s.page->summary()->text(), QStringLiteral("amy is now auditor."));
        QCOMPARE(s.staff->find("amy")->role, StaffRole::Auditor);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"
                             " AND entity_id = 'amy' AND actor = 'root-admin'"
                             " AND before_json LIKE '%\"role\":\"agent\"%'"
                             " AND after_json LIKE '%\"role\":\"auditor\"%'"
                             " AND reason = 'audit team'"),
                 1);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action LIKE 'staff.%'"
                             " AND action <> 'staff.added'"),
                 1);
        // The page loaded its list again and shows the new role.
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QCOMPARE(s.shown("amy", StaffModel::Role), Labels::role(StaffRole::Auditor));
    }

    // Change role… with a blank reason: OK stays off, the dialog says a reason is required,
    // neither OK nor Return sends it; Cancel then, and nothing changed. Cancel on a dialog
    // filled in whole changes nothing either.
    void roleDialogBlankReasonOrCancelChangesNothing_data() { addEngineRows(); }
    void roleDialogBlankReasonOrCancelChangesNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        const QString before = staffAndAudit(*s.c);
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QVERIFY(!s.waiting()); // loaded: a wait seen below is one a press started
        QVERIFY(clickStaff(s, "amy"));
        QString blank;
        bool okOn = true, openAfterOk = false, openAfterReturn = false;
        Answered a = pressAndAnswer(s.page->roleButton(), [&](QDialog *d) {
            choose(d, StaffRole::Finance);
            type(d, "reason", QStringLiteral("   "));
            blank = problem(d);
            okOn = button(d, QDialogButtonBox::Ok)->isEnabled();
            click(button(d, QDialogButtonBox::Ok));
            openAfterOk = d->isVisible();
            QTest::keyClick(d->findChild<QLineEdit *>(QStringLiteral("reason")), Qt::Key_Return);
            openAfterReturn = d->isVisible();
            click(button(d, QDialogButtonBox::Cancel));
        });
        QCOMPARE(a.dialog, QStringLiteral("roleDialog"));
        QCOMPARE(blank, QStringLiteral("a reason is required"));
        QVERIFY(!okOn);
        QVERIFY(openAfterOk);
        QVERIFY(openAfterReturn);
        QVERIFY(!a.leftOpen); // Cancel closed it
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);

        QVERIFY(clickStaff(s, "amy"));
        a = pressAndAnswer(s.page->roleButton(), [&](QDialog *d) {
            choose(d, StaffRole::Finance);
            type(d, "reason", QStringLiteral("finance desk"));
            okOn = button(d, QDialogButtonBox::Ok)->isEnabled();
            click(button(d, QDialogButtonBox::Cancel));
        });
        QCOMPARE(a.dialog, QStringLiteral("roleDialog"));
        QVERIFY(okOn); // it could have been sent
        QVERIFY(!a.leftOpen);

        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(s.page->summary()->text(), QString());
        QCOMPARE(staffAndAudit(*s.c), before);
        QCOMPARE(s.staff->find("amy")->role, StaffRole::Agent);
    }

    // Disable…: the dialog asks for a reason; OK disables the account through the service,
    // audited with the reason, and the list shows it disabled. A blank reason and Cancel change
    // nothing.
    void disableDialogDisablesTheAccount_data() { addEngineRows(); }
    void disableDialogDisablesTheAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        const QString before = staffAndAudit(*s.c);
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);

        QVERIFY(!s.waiting()); // loaded: a wait seen below is one a press started
        QVERIFY(clickStaff(s, "amy"));
        QVERIFY(s.page->disableButton()->isEnabled());
        QString blank;
        bool okOn = true, openAfterOk = false;
        Answered a = pressAndAnswer(s.page->disableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral(" \t "));
            blank = problem(d);
            okOn = button(d, QDialogButtonBox::Ok)->isEnabled();
            click(button(d, QDialogButtonBox::Ok));
            openAfterOk = d->isVisible();
            click(button(d, QDialogButtonBox::Cancel));
        });
        QCOMPARE(a.dialog, QStringLiteral("disableDialog"));
        QCOMPARE(a.title, QStringLiteral("Disable amy"));
        QCOMPARE(blank, QStringLiteral("a reason is required"));
        QVERIFY(!okOn);
        QVERIFY(openAfterOk);
        QVERIFY(!a.leftOpen);
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QVERIFY(clickStaff(s, "amy"));
        a = pressAndAnswer(s.page->disableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral("left the company"));
            click(button(d, QDialogButtonBox::Cancel));
        });
        QCOMPARE(a.dialog, QStringLiteral("disableDialog"));
        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(staffAndAudit(*s.c), before);

        QVERIFY(clickStaff(s, "amy"));
        QString ready = QStringLiteral("(not read)");
        a = pressAndAnswer(s.page->disableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral("left the company"));
            ready = problem(d);
            click(button(d, QDialogButtonBox::Ok));
        });
        QCOMPARE(a.dialog, QStringLiteral("disableDialog"));
        QVERIFY(!a.leftOpen);
        QCOMPARE(ready, QString());
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.first().at(0).toBool(), true);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Account amy disabled."));
        QVERIFY(s.staff->find("amy")->disabled);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"
                             " AND entity_id = 'amy' AND actor = 'root-admin'"
                             " AND before_json LIKE '%\"disabled\":false%'"
                             " AND after_json LIKE '%\"disabled\":true%'"
                             " AND reason = 'left the company'"),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QCOMPARE(s.shown("amy", StaffModel::Status), QStringLiteral("disabled"));
    }

    // A disabled account: Disable… is not offered (off, the rule's sentence as its tooltip, a
    // press opens nothing) and Enable… is. Its dialog asks for a reason (OK off, saying why,
    // until one is typed; Cancel changes nothing); OK enables the account through the service,
    // its failed sign-ins and lock cleared, audited with the reason typed (trimmed), and the
    // list shows it active, offering Disable… again and not Enable…. Enabled meanwhile by
    // another console, the dialog's OK reads as the service's refusal and changes nothing.
    void enableDialogEnablesTheAccount_data() { addEngineRows(); }
    void enableDialogEnablesTheAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        QVERIFY(s.pageButton("enableStaff") == s.page->enableButton());
        QVERIFY(!s.page->enableButton()->isEnabled()); // nothing selected
        QVERIFY(clickStaff(s, "amy"));
        QVERIFY(s.page->disableButton()->isEnabled());
        QVERIFY(!s.page->enableButton()->isEnabled());
        QCOMPARE(s.page->enableButton()->toolTip(), QStringLiteral("amy is enabled already"));

        QVERIFY(s.staff->disable("amy", kAdmin, "on leave").ok());
        QVERIFY(Sql::update(s.c->db(),
                            "UPDATE staff SET failed_attempts = 2, locked_until = ? WHERE"
                            " username = 'amy'",
                            {s.clock->nowMs() + 3600000})
                    .ok());
        s.page->refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(s.shown("amy", StaffModel::Status), QStringLiteral("disabled"));
        QVERIFY(clickStaff(s, "amy"));
        QVERIFY(!s.page->disableButton()->isEnabled());
        QCOMPARE(s.page->disableButton()->toolTip(), QStringLiteral("amy is disabled already"));
        QVERIFY(s.page->enableButton()->isEnabled());
        QCOMPARE(s.page->enableButton()->toolTip(), QString());
        const QString before = staffAndAudit(*s.c);
        QCOMPARE(pressAndAnswer(s.page->disableButton(), [](QDialog *d) { d->reject(); }).dialog,
                 QString());
        QVERIFY(!s.waiting()); // loaded: a wait seen below is one a press started

        QString atOpen, blank;
        bool okAtOpen = true, okBlank = true, openAfterOk = false;
        Answered a = pressAndAnswer(s.page->enableButton(), [&](QDialog *d) {
            atOpen = problem(d);
            okAtOpen = button(d, QDialogButtonBox::Ok)->isEnabled();
            type(d, "reason", QStringLiteral("   "));
            blank = problem(d);
            okBlank = button(d, QDialogButtonBox::Ok)->isEnabled();
            click(button(d, QDialogButtonBox::Ok));
            openAfterOk = d->isVisible();
            click(button(d, QDialogButtonBox::Cancel));
        });
        QCOMPARE(a.dialog, QStringLiteral("enableDialog"));
        QCOMPARE(a.title, QStringLiteral("Enable amy"));
        QVERIFY(!a.leftOpen);
        QCOMPARE(atOpen, QStringLiteral("a reason is required"));
        QVERIFY(!okAtOpen);
        QCOMPARE(blank, QStringLiteral("a reason is required"));
        QVERIFY(!okBlank);
        QVERIFY(openAfterOk);
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QVERIFY(clickStaff(s, "amy"));
        a = pressAndAnswer(s.page->enableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral("back from leave"));
            click(button(d, QDialogButtonBox::Cancel));
        });
        QCOMPARE(a.dialog, QStringLiteral("enableDialog"));
        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(staffAndAudit(*s.c), before);

        QVERIFY(clickStaff(s, "amy"));
        QString ready = QStringLiteral("(not read)");
        bool okReady = false;
        a = pressAndAnswer(s.page->enableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral("  back from leave "));
            ready = problem(d);
            okReady = button(d, QDialogButtonBox::Ok)->isEnabled();
            click(button(d, QDialogButtonBox::Ok));
        });
        QCOMPARE(a.dialog, QStringLiteral("enableDialog"));
        QVERIFY(!a.leftOpen);
        QCOMPARE(ready, QString());
        QVERIFY(okReady);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.first().at(0).toBool(), true);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("Account amy enabled."));
        const StaffAccount amy = *s.staff->find("amy");
        QVERIFY(!amy.disabled);
        QCOMPARE(amy.failedAttempts, 0);
        QCOMPARE(amy.lockedUntil, 0);
        QVERIFY(signsIn(*s.staff, "amy", "amy-secret-pw"));
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"
                             " AND entity_id = 'amy' AND actor = 'root-admin'"
                             " AND before_json LIKE '%\"disabled\":true%'"
                             " AND after_json LIKE '%\"disabled\":false%'"
                             " AND reason = 'back from leave'"),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        QCOMPARE(s.shown("amy", StaffModel::Status), QStringLiteral("active"));
        QVERIFY(clickStaff(s, "amy"));
        QVERIFY(s.page->disableButton()->isEnabled());
        QVERIFY(!s.page->enableButton()->isEnabled());
        QCOMPARE(s.page->enableButton()->toolTip(), QStringLiteral("amy is enabled already"));

        // Disabled again; while the dialog is open another console enables amy: refused.
        QVERIFY(s.staff->disable("amy", kAdmin, "on leave again").ok());
        s.page->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 3, 20000);
        QVERIFY(clickStaff(s, "amy"));
        QString beforeOk;
        a = pressAndAnswer(s.page->enableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral("back"));
            QVERIFY(s.staff->enable("amy", Actor::system(QStringLiteral("cli:test")), "back").ok());
            beforeOk = staffRows(*s.c);
            click(button(d, QDialogButtonBox::Ok));
        });
        QCOMPARE(a.dialog, QStringLiteral("enableDialog"));
        QVERIFY(!a.leftOpen);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).at(0).toBool(), false);
        QCOMPARE(changed.at(1).at(1).toString(),
                 QStringLiteral("Not enabled: The request was refused: amy is enabled already"));
        QCOMPARE(staffRows(*s.c), beforeOk);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"
                             " AND actor = 'root-admin'"),
                 1);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                             " AND actor = 'root-admin' AND entity_id = 'amy'"
                             " AND after_json LIKE '%\"step\":\"enable\"%'"
                             " AND after_json LIKE '%\"reason\":\"already_enabled\"%'"),
                 1);
    }

    // What the service refuses reads on the page as its sentence, and changes nothing. One's
    // own account is not offered at all (the buttons are off, their tooltip the rule's
    // sentence, a press opens no dialog). A dialog answered after the account or the
    // administrator changed meanwhile (another console) is refused by the service: the role
    // asked for given already, the administrator demoted.
    void refusalsReadAsTheServiceSaysAndChangeNothing_data() { addEngineRows(); }
    void refusalsReadAsTheServiceSaysAndChangeNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), true));
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        const Actor adm2{QStringLiteral("adm2"), QStringLiteral("admin")};

        QVERIFY(clickStaff(s, kAdmin.id));
        QVERIFY(!s.page->roleButton()->isEnabled());
        QVERIFY(!s.page->disableButton()->isEnabled());
        QCOMPARE(s.page->roleButton()->toolTip(),
                 QStringLiteral("an administrator may not change their own role"));
        QCOMPARE(s.page->disableButton()->toolTip(),
                 QStringLiteral("an administrator may not disable their own account"));
        const QString before = staffAndAudit(*s.c);
        QCOMPARE(pressAndAnswer(s.page->roleButton(), [](QDialog *d) { d->reject(); }).dialog,
                 QString());
        QCOMPARE(pressAndAnswer(s.page->disableButton(), [](QDialog *d) { d->reject(); }).dialog,
                 QString());
        QCOMPARE(staffAndAudit(*s.c), before);

        // Meanwhile adm2 gives amy the role asked for: the service refuses (same_role).
        QVERIFY(clickStaff(s, "amy"));
        Answered a = pressAndAnswer(s.page->roleButton(), [&](QDialog *d) {
            choose(d, StaffRole::Auditor);
            type(d, "reason", QStringLiteral("audit team"));
            QVERIFY(s.staff->setRole("amy", "auditor", adm2, "audit desk").ok());
            click(button(d, QDialogButtonBox::Ok));
        });
        QCOMPARE(a.dialog, QStringLiteral("roleDialog"));
        QVERIFY(!a.leftOpen);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.at(0).at(0).toBool(), false);
        QCOMPARE(s.page->summary()->text(),
                 QStringLiteral("Role not changed: The request was refused: amy already has the"
                                " role auditor"));
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"
                             " AND actor = 'root-admin'"),
                 0);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                             " AND actor = 'root-admin' AND entity_id = 'amy'"
                             " AND after_json LIKE '%\"reason\":\"same_role\"%'"),
                 1);

        // Meanwhile adm2 demotes root-admin: its disable of amy is refused (role_changed).
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QCOMPARE(s.shown("amy", StaffModel::Role), Labels::role(StaffRole::Auditor));
        QVERIFY(clickStaff(s, "amy"));
        QString beforeDisable;
        a = pressAndAnswer(s.page->disableButton(), [&](QDialog *d) {
            type(d, "reason", QStringLiteral("left the company"));
            QVERIFY(s.staff->setRole(kAdmin.id, "agent", adm2, "handed over").ok());
            beforeDisable = staffRows(*s.c);
            click(button(d, QDialogButtonBox::Ok));
        });
        QCOMPARE(a.dialog, QStringLiteral("disableDialog"));
        QVERIFY(!a.leftOpen);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).at(0).toBool(), false);
        // The refusal's sentence stays; the list, which a demoted administrator may no longer
        // read, says so after it.
        // (The refresh after the refusal fails: it changes the summary line, loads nothing.)
        QTRY_VERIFY_WITH_TIMEOUT(s.page->summary()->text() != changed.at(1).at(1).toString(),
                                 20000);
        QCOMPARE(loaded.count(), 1);
        const QStringList lines = s.page->summary()->text().split(u'\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0),
                 QStringLiteral("Not disabled: The request was refused: root-admin (administrator)"
                                " may not manage staff accounts: the staff account's role is now"
                                " agent"));
        QCOMPARE(changed.at(1).at(1).toString(), lines.at(0));
        QCOMPARE(lines.at(1), QStringLiteral("Your role may not see this."));
        QVERIFY2(s.page->summary()->toolTip().contains(u"the staff account's role is now agent"),
                 qPrintable(s.page->summary()->toolTip()));
        QVERIFY(!s.staff->find("amy")->disabled);
        QCOMPARE(staffRows(*s.c), beforeDisable);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"),
                 0);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                             " AND actor = 'root-admin' AND entity_id = 'amy'"
                             " AND after_json LIKE '%\"reason\":\"role_changed\"%'"),
                 1);
    }
};

QTEST_MAIN(TstAdminDialogs)
#include "tst_admin_dialogs.moc"
