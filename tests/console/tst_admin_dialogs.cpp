// The administration page's dialogs driven as a person does, offscreen, on every engine: a row
// clicked, the page's button pressed, the modal dialog filled in (a role chosen, a reason or a
// password typed) and its OK or Cancel pressed. Each test then reads what the person relies on:
// the staff or settings row in the database, the audit row with the reason typed, the page's
// list loaded again and its summary line; and, for a blank reason, a Cancel or a refusal by
// the service, that nothing changed and the page said why.

#include "admin/adminpage.h"
#include "auth/staffservice.h"
#include "common/busyindicator.h"
#include "common/labels.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "fixes/adminmodels.h"
#include "settings/settingsservice.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QApplication>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// What one modal dialog showed and what became of it.
struct Answered {
    QString dialog;        // its object name; empty when no dialog was shown
    QString title;         // its window title
    bool leftOpen = false; // still open after the answer (then cancelled here, so none hangs)
};

// Presses `opener` (a page's button) and answers the modal dialog it opens with `answer`, run
// from the dialog's own event loop once the dialog is the active modal widget. Returns after
// the dialog closed, or at once when the press opened none.
Answered pressAndAnswer(QPushButton *opener, const std::function<void(QDialog *)> &answer)
{
    Answered seen;
    QTimer poll;
    poll.setInterval(10);
    const QDeadlineTimer deadline(20000);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto *d = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!d) {
            if (deadline.hasExpired())
                poll.stop();
            return;
        }
        poll.stop();
        seen.dialog = d->objectName();
        seen.title = d->windowTitle();
        answer(d);
        if (d->isVisible()) {
            seen.leftOpen = true;
            d->reject();
        }
    });
    poll.start();
    QTest::mouseClick(opener, Qt::LeftButton);
    poll.stop();
    return seen;
}

bool signsIn(const StaffService &staff, const QString &username, const QString &password)
{
    auto r = staff.authenticate(username, password, QStringLiteral("test"));
    return r && r->refusal == SignInRefusal::None;
}

QPushButton *button(QDialog *d, QDialogButtonBox::StandardButton which)
{
    auto *box = d->findChild<QDialogButtonBox *>();
    return box ? box->button(which) : nullptr;
}

// Types `text` into the dialog's line edit `name`, key by key.
void type(QDialog *d, const char *name, const QString &text)
{
    auto *edit = d->findChild<QLineEdit *>(QString::fromLatin1(name));
    QVERIFY2(edit, name);
    edit->setFocus();
    QTest::keyClicks(edit, text);
}

// Chooses the role a person reads in the dialog's role list.
void choose(QDialog *d, StaffRole role)
{
    auto *combo = d->findChild<QComboBox *>(QStringLiteral("role"));
    QVERIFY(combo);
    const int i = combo->findText(Labels::role(role));
    QVERIFY(i >= 0);
    combo->setCurrentIndex(i);
}

QString problem(QDialog *d)
{
    auto *label = d->findChild<QLabel *>(QStringLiteral("problem"));
    return label ? label->text() : QStringLiteral("(no problem line)");
}

void click(QPushButton *b)
{
    if (b)
        QTest::mouseClick(b, Qt::LeftButton);
}

// The staff rows, every audit row and every ops setting: what a change not made leaves as it
// was.
QString staffAndAudit(const Connection &c)
{
    return staffRows(c) + u'\n' +
           rows(c, "SELECT action, entity_id, actor, before_json, after_json, reason FROM"
                   " audit_outbox ORDER BY id") +
           u'\n' +
           rows(c, "SELECT setting_key, setting_value, updated_by, updated_at FROM ops_settings"
                   " ORDER BY setting_key");
}

// The page as a person has it: signed in as the administrator, shown, its lists loaded, one
// engine's scratch databases under it with root-admin, amy (agent) and, when asked, adm2
// (a second administrator).
struct Scene {
    std::unique_ptr<ScratchDatabases> dbs;
    std::optional<Connection> c;
    std::unique_ptr<ManualClock> clock;
    std::unique_ptr<StaffService> staff;
    std::unique_ptr<AdminPage> page;

    QTableView *table() const { return page->staffTable(); }
    // Whether the page waits for a background query: set at the very moment a change (or a
    // load) is sent, before the dialog's press returns, and cleared when its answer came. Right
    // after a Cancel it tells, without waiting for any answer, that nothing was sent.
    bool waiting() const
    {
        auto *busy = page->findChild<BusyIndicator *>();
        if (!busy)
            qFatal("the administration page has no busy indicator");
        return busy->isBusy();
    }
    QPushButton *pageButton(const char *name) const
    {
        return page->findChild<QPushButton *>(QString::fromLatin1(name));
    }
    // The row of `username` in the page's list, -1 when it is not listed.
    int rowOf(const QString &username) const
    {
        for (int row = 0; row < page->staff()->rowCount(); ++row)
            if (page->staff()->rowAt(row).username == username)
                return row;
        return -1;
    }
    // What the page's list shows in `column` for `username`.
    QString shown(const QString &username, int column) const
    {
        const int row = rowOf(username);
        return row < 0 ? QString()
                       : page->staff()->index(row, column).data(Qt::DisplayRole).toString();
    }

    // Takes the scratch databases, adds the accounts, shows the page and waits for its lists.
    [[nodiscard]] bool open(std::unique_ptr<ScratchDatabases> scratch, bool secondAdmin)
    {
        dbs = std::move(scratch);
        auto opened = openMigrated(dbs->orders(), QStringLiteral("test"));
        if (!opened) {
            qWarning("open: %s", qPrintable(opened.error().message));
            return false;
        }
        c.emplace(std::move(opened).value());
        clock = std::make_unique<ManualClock>(QDateTime::currentMSecsSinceEpoch());
        staff = std::make_unique<StaffService>(*c, *clock);
        if (!addRootAdmin(*staff) ||
            !staff->add({"amy", "Amy", StaffRole::Agent}, "amy-secret-pw", kAdmin) ||
            (secondAdmin && !staff->add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin)))
            return false;
        page = std::make_unique<AdminPage>(dbs->orders(), kAdmin);
        page->resize(1000, 700);
        page->show();
        if (!QTest::qWaitForWindowExposed(page.get()))
            return false;
        QSignalSpy loaded(page.get(), &AdminPage::loaded);
        page->refresh();
        return loaded.wait(20000) && rowOf(QStringLiteral("amy")) >= 0;
    }
};

// Clicks, as a person does, the row of `table` (the page's list of `model`) that `isRow` picks;
// whether it became the current row.
template <typename Model>
bool clickRow(QTableView *table, Model *model, const std::function<bool(int)> &isRow)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (!isRow(row))
            continue;
        const QModelIndex index = model->index(row, 0);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        return table->currentIndex().row() == row;
    }
    return false;
}

bool clickStaff(const Scene &s, const QString &username)
{
    return clickRow(s.table(), s.page->staff(),
                    [&](int row) { return s.page->staff()->rowAt(row).username == username; });
}

} // namespace

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

    // Operational settings, Change…: OK stays off while the service's rule (settingChangeFits)
    // refuses the change — a value out of the key's range, not a whole number, a blank reason —
    // the dialog's problem line its sentence, and nothing is sent; on at the range's bounds.
    // OK sets the value (audited with the reason) and the list shows it; Cancel changes
    // nothing.
    void settingDialogChangesASetting_data() { addEngineRows(); }
    void settingDialogChangesASetting()
    {
        ONCEPAY_SCRATCH(dbs);
        Scene s;
        QVERIFY(s.open(std::move(dbs), false));
        QSignalSpy changed(s.page.get(), &AdminPage::changed);
        QSignalSpy loaded(s.page.get(), &AdminPage::loaded);
        auto *tabs = s.page->findChild<QTabWidget *>();
        QVERIFY(tabs);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center());
        QCOMPARE(tabs->currentIndex(), 1);
        QPushButton *change = s.pageButton("changeSetting");
        QVERIFY(change);
        const QString key = QStringLiteral("worker.max_attempts");
        auto select = [&] {
            return clickRow(s.page->settingsTable(), s.page->settings(), [&](int row) {
                return s.page->settings()->rowAt(row).spec.key == key;
            });
        };
        auto answer = [&](const QString &value, const QString &reason, bool send,
                          QString *why = nullptr, bool *okOn = nullptr) {
            return pressAndAnswer(change, [=](QDialog *d) {
                auto *edit = d->findChild<QLineEdit *>(QStringLiteral("value"));
                QVERIFY(edit);
                edit->selectAll();
                QTest::keyClick(edit, Qt::Key_Delete);
                type(d, "value", value);
                type(d, "reason", reason);
                if (why)
                    *why = problem(d);
                if (okOn)
                    *okOn = button(d, QDialogButtonBox::Ok)->isEnabled();
                click(button(d, send ? QDialogButtonBox::Ok : QDialogButtonBox::Cancel));
            });
        };
        const QString before = staffAndAudit(*s.c);
        QVERIFY(!s.waiting()); // loaded: a wait seen below is one a press started
        const auto refused = [&](const QString &value, const QString &reason,
                                 const QString &sentence) {
            QVERIFY(select());
            QString why;
            bool okOn = true;
            const Answered a = answer(value, reason, true, &why, &okOn);
            QCOMPARE(a.dialog, QStringLiteral("settingDialog"));
            QVERIFY(a.leftOpen); // OK was off: closed here
            QVERIFY(!okOn);
            QCOMPARE(why, sentence);
            QCOMPARE(why, settingChangeFits(key, value, reason).error().message);
            QVERIFY(!s.waiting());
        };
        refused("7", " ", QStringLiteral("a settings change needs a reason"));
        if (QTest::currentTestFailed())
            return;
        refused("100000", "far more retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not"
                               " '100000'"));
        if (QTest::currentTestFailed())
            return;
        refused("101", "far more retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not"
                               " '101'"));
        if (QTest::currentTestFailed())
            return;
        refused("0", "no retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not '0'"));
        if (QTest::currentTestFailed())
            return;
        refused("ten", "more retries",
                QStringLiteral("worker.max_attempts takes a whole number from 1 to 100, not"
                               " 'ten'"));
        if (QTest::currentTestFailed())
            return;

        // At the range's bound OK is on; Cancel sends nothing.
        QVERIFY(select());
        QString why = QStringLiteral("(not read)");
        bool okOn = false;
        Answered a = answer("100", "more retries", false, &why, &okOn);
        QCOMPARE(a.dialog, QStringLiteral("settingDialog"));
        QVERIFY(!a.leftOpen);
        QCOMPARE(why, QString());
        QVERIFY(okOn); // it could have been sent
        // Nothing was sent: a change sent marks the page waiting before the press returns (and
        // an answer already back would have said so in `changed`).
        QVERIFY(!s.waiting());
        QCOMPARE(changed.count(), 0);
        QCOMPARE(s.page->summary()->text(), QString());
        QCOMPARE(staffAndAudit(*s.c), before); // no change, and no refusal reached the service

        QVERIFY(select());
        a = answer("7", "  more retries ", true, &why);
        QVERIFY(!a.leftOpen);
        QCOMPARE(why, QString());
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 20000);
        QCOMPARE(changed.at(0).at(0).toBool(), true);
        QCOMPARE(s.page->summary()->text(), QStringLiteral("worker.max_attempts is now 7."));
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM ops_settings WHERE setting_key ="
                             " 'worker.max_attempts' AND setting_value = '7'"
                             " AND updated_by = 'root-admin'"),
                 1);
        QCOMPARE(count(*s.c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.changed'"
                             " AND entity_id = 'worker.max_attempts' AND actor = 'root-admin'"
                             " AND reason = 'more retries'"),
                 1);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        bool shown = false;
        for (int row = 0; row < s.page->settings()->rowCount(); ++row)
            if (s.page->settings()->rowAt(row).spec.key == key)
                shown =
                    s.page->settings()->index(row, SettingsModel::Value).data().toString() == u"7";
        QVERIFY(shown);
    }
};

QTEST_MAIN(TstAdminDialogs)
#include "tst_admin_dialogs.moc"
