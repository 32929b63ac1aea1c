// Role changes on every engine, and what every staff change shares: the one rule of the service
// and the administration page (staffrules.h), a reason required, a database failure logged, the
// last enabled administrator kept when two role changes meet, the administration page's offer —
// and the audit rows each leaves. Disables and enables: tst_staff_enable_disable.cpp.

#include "admin/adminpage.h"
#include "auth/staffrules.h"
#include "auth/staffservice.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "fixes/adminmodels.h"
#include "logcapture.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

class TstStaffChanges : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The rule the service and the administration page share (staffrules.h), from plain
    // values: a reason given but blank, one's own account, the same role; nothing asked yet
    // (the page's offer) is judged on the account alone.
    void staffChangeRules()
    {
        const auto reason = [](const Result<void> &r) { return r ? QString() : r.error().reason; };
        const StaffChange amy{.by = "root-admin", .username = "amy", .role = StaffRole::Agent};
        QVERIFY(roleChangeFits(amy).ok());
        QVERIFY(disableFits(amy).ok());
        StaffChange own = amy;
        own.username = "root-admin";
        QCOMPARE(reason(roleChangeFits(own)), QStringLiteral("own_role"));
        QCOMPARE(reason(disableFits(own)), QStringLiteral("own_account"));
        QCOMPARE(roleChangeFits(own).error().code, ErrorCode::Conflict);

        StaffChange change = amy;
        change.newRole = StaffRole::Auditor;
        change.reason = QStringLiteral("audit team");
        QVERIFY(roleChangeFits(change).ok());
        change.newRole = StaffRole::Agent;
        QCOMPARE(reason(roleChangeFits(change)), QStringLiteral("same_role"));
        change.newRole = StaffRole::Auditor;
        for (const char *blank : {"", "   ", "\t\n"}) {
            change.reason = QString::fromLatin1(blank);
            QCOMPARE(reason(roleChangeFits(change)), QStringLiteral("reason_required"));
            QCOMPARE(roleChangeFits(change).error().code, ErrorCode::Invalid);
            StaffChange disable = amy;
            disable.reason = change.reason;
            QCOMPARE(reason(disableFits(disable)), QStringLiteral("reason_required"));
            QCOMPARE(reason(staffReasonGiven(*change.reason)), QStringLiteral("reason_required"));
        }
        StaffChange disable = amy;
        disable.reason = QStringLiteral("left");
        QVERIFY(disableFits(disable).ok());
        QVERIFY(staffReasonGiven(QStringLiteral("left")).ok());

        // A disabled account: not disabled again, but enabled; an enabled one not enabled.
        QCOMPARE(reason(enableFits(amy)), QStringLiteral("already_enabled"));
        QCOMPARE(enableFits(amy).error().code, ErrorCode::Conflict);
        QCOMPARE(enableFits(amy).error().message, QStringLiteral("amy is enabled already"));
        StaffChange off = amy;
        off.disabled = true;
        QCOMPARE(reason(disableFits(off)), QStringLiteral("already_disabled"));
        QCOMPARE(disableFits(off).error().code, ErrorCode::Conflict);
        QCOMPARE(disableFits(off).error().message, QStringLiteral("amy is disabled already"));
        QVERIFY(enableFits(off).ok());
        QVERIFY(roleChangeFits(off).ok()); // a disabled account's role may change
        off.reason = QStringLiteral("back from leave");
        QVERIFY(enableFits(off).ok());
        for (const char *blank : {"", "  "}) {
            off.reason = QString::fromLatin1(blank);
            QCOMPARE(reason(enableFits(off)), QStringLiteral("reason_required"));
            QCOMPARE(reason(disableFits(off)), QStringLiteral("reason_required"));
            StaffChange on = amy;
            on.reason = off.reason;
            QCOMPARE(reason(enableFits(on)), QStringLiteral("reason_required"));
        }
        // A blank reason is named first, whatever else is wrong.
        own.reason = QString();
        QCOMPARE(reason(roleChangeFits(own)), QStringLiteral("reason_required"));
        QCOMPARE(reason(disableFits(own)), QStringLiteral("reason_required"));
    }

    void changingARole_data() { addEngineRows(); }
    void changingARole()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        clock.advance(1000);
        auto promoted = staff.setRole("amy", "finance", kAdmin, "moved to the finance desk");
        QVERIFY2(promoted.ok(), qPrintable(promoted ? QString() : promoted.error().message));
        QCOMPARE(promoted->role, StaffRole::Finance);
        QCOMPARE(staff.find("amy")->role, StaffRole::Finance);
        QCOMPARE(staff.find("amy")->updatedAt, clock.nowMs());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"
                           " AND entity_kind = 'staff' AND entity_id = 'amy'"
                           " AND actor = 'root-admin' AND actor_role = 'admin'"
                           " AND before_json LIKE '%\"role\":\"agent\"%'"
                           " AND after_json LIKE '%\"role\":\"finance\"%'"
                           " AND reason = 'moved to the finance desk'"),
                 1);
        // The new role is the one she signs in with.
        QCOMPARE(staff.authenticate("amy", "amy-secret-pw", "test")->account.role,
                 StaffRole::Finance);

        // Refusals: each with its reason, nothing changed, each audited.
        QVERIFY(roleRefused(staff, *c, "amy", "finance", kAdmin, ErrorCode::Conflict, "same_role"));
        QVERIFY(roleRefused(staff, *c, "nobody", "agent", kAdmin, ErrorCode::NotFound,
                            "unknown_staff"));
        QVERIFY(roleRefused(staff, *c, "amy", "root", kAdmin, ErrorCode::Invalid, "unknown_role"));
        QVERIFY(roleRefused(staff, *c, "amy", "", system, ErrorCode::Invalid, "unknown_role"));
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        QVERIFY(roleRefused(staff, *c, "amy", "agent", fin, ErrorCode::Forbidden, "forbidden"));
        QVERIFY(roleRefused(staff, *c, "fin", "admin", fin, ErrorCode::Forbidden, "forbidden"));
        QVERIFY(roleRefused(staff, *c, "root-admin", "auditor", kAdmin, ErrorCode::Conflict,
                            "own_role"));
        // The only administrator keeps the role, whoever asks.
        QVERIFY(roleRefused(staff, *c, "root-admin", "agent", system, ErrorCode::Conflict,
                            "last_admin"));
        // A disabled administrator is not one who could take over.
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        QVERIFY(staff.disable("adm2", kAdmin, "on leave").ok());
        QVERIFY(roleRefused(staff, *c, "root-admin", "agent", system, ErrorCode::Conflict,
                            "last_admin"));
        // ...and may be demoted: the enabled administrators stay as they are.
        QVERIFY(staff.setRole("adm2", "auditor", kAdmin, "no longer an administrator").ok());
        // The refusal rows name who asked, the account and the role asked for (not a text
        // that is no role).
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND actor = 'fin' AND actor_role = 'finance' AND entity_id = 'amy'"
                           " AND after_json LIKE '%\"role\":\"agent\"%'"),
                 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"role\":\"(invalid)\"%'"),
                 2);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE after_json LIKE '%root\"%'"),
                 0);

        // A demoted administrator's rights end at once, as for a disable: with the Actor they
        // signed in with, their next change and the staff list are refused.
        QVERIFY(staff.add({"adm3", "", StaffRole::Admin}, "adm3-secret-pw", kAdmin).ok());
        const Actor adm3{QStringLiteral("adm3"), QStringLiteral("admin")};
        QVERIFY(staff.setRole("amy", "auditor", adm3, "audit team").ok());
        QVERIFY(staff.setRole("adm3", "agent", kAdmin, "back to the desk").ok());
        QVERIFY(roleRefused(staff, *c, "amy", "agent", adm3, ErrorCode::Forbidden, "role_changed"));
        QCOMPARE(staff.list(adm3).error().reason, QStringLiteral("role_changed"));
        QCOMPARE(staff.add({"x9", "", StaffRole::Agent}, "x9-secret-pw", adm3).error().reason,
                 QStringLiteral("role_changed"));

        // With another enabled administrator, one may be demoted; then the other is the last.
        QVERIFY(staff.setRole("adm3", "admin", system, "acting administrator").ok());
        QVERIFY(staff.setRole("root-admin", "agent", adm3, "handed over").ok());
        QVERIFY(
            roleRefused(staff, *c, "amy", "agent", kAdmin, ErrorCode::Forbidden, "role_changed"));
        QVERIFY(roleRefused(staff, *c, "adm3", "agent", system, ErrorCode::Conflict, "last_admin"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"),
                 6);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"set_role\"%'"),
                 12);
    }

    // A role change and a disable are audited with a reason: an empty or blank one is
    // refused (Invalid reason_required) by the service itself, whoever asks (the CLI's
    // operator too), nothing changed and the refusal audited.
    void aChangeNeedsAReason_data() { addEngineRows(); }
    void aChangeNeedsAReason()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        for (const Actor &by : {kAdmin, system}) {
            for (const QString &blank : {QString(), QStringLiteral("  \t")}) {
                const QString what = QStringLiteral("by %1, reason '%2'").arg(by.id, blank);
                QVERIFY2(
                    refusedUnchanged(*c, what, "set_role", "staff.role_changed", ErrorCode::Invalid,
                                     "reason_required",
                                     [&] { return staff.setRole("amy", "finance", by, blank); }),
                    qPrintable(what));
                QVERIFY2(refusedUnchanged(*c, what, "disable", "staff.disabled", ErrorCode::Invalid,
                                          "reason_required",
                                          [&] { return staff.disable("amy", by, blank); }),
                         qPrintable(what));
            }
        }
        // The refusal row names the role asked for, like the other refusals of a role change.
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'amy' AND after_json LIKE '%\"role\":\"finance\"%'"
                           " AND after_json LIKE '%\"reason\":\"reason_required\"%'"),
                 4);
        // One refusal row whole (AuditOutbox::recordRefusal writes every service's refusal
        // rows; their form is what audit readers rely on).
        auto row = Sql::exec(c->db(), "SELECT actor, actor_role, entity_kind, entity_id,"
                                      " after_json, reason FROM audit_outbox WHERE action ="
                                      " 'staff.refused' ORDER BY id LIMIT 1");
        QVERIFY(row && row->next());
        QStringList fields;
        for (int i = 0; i < 6; ++i)
            fields << row->value(i).toString();
        QCOMPARE(fields.join(u'|'),
                 QStringLiteral("root-admin|admin|staff|amy|{\"code\":\"invalid\",\"reason\":"
                                "\"reason_required\",\"role\":\"finance\",\"step\":\"set_role\"}|"
                                "a reason is required"));
        QVERIFY(staff.setRole("amy", "finance", kAdmin, "finance desk").ok());
        QVERIFY(staff.disable("amy", kAdmin, "left").ok());
    }

    // A role change or a disable that a failing database ends leaves an error log line (and
    // no audit row: the database is away).
    void aDatabaseFailureIsLogged_data() { addEngineRows(); }
    void aDatabaseFailureIsLogged()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        const qint64 auditRows = count(*c, "SELECT COUNT(*) FROM audit_outbox");
        // The staff table gone: every read of it fails as a broken database's would.
        QVERIFY(Sql::exec(c->db(), "ALTER TABLE staff RENAME TO staff_away").ok());
        LogCapture log;

        auto role = staff.setRole("amy", "finance", Actor::system("cli:test"), "finance desk");
        QVERIFY(!role.ok());
        QVERIFY2(
            role.error().code != ErrorCode::Forbidden && role.error().code != ErrorCode::Conflict &&
                role.error().code != ErrorCode::NotFound && role.error().code != ErrorCode::Invalid,
            qPrintable(role.error().toString()));
        auto disabled = staff.disable("amy", Actor::system("cli:test"), "left");
        QVERIFY(!disabled.ok());
        const QString logged = log.text();
        QVERIFY2(logged.contains(u"error staff set_role of amy for cli:test (system) failed: ") &&
                     logged.contains(u"error staff disable of amy for cli:test (system) failed: "),
                 qPrintable(logged));
        QVERIFY(Sql::exec(c->db(), "ALTER TABLE staff_away RENAME TO staff").ok());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox"), auditRows);
    }

    // An administrator is demoted in a transaction that has not committed yet while the last
    // other one is being demoted: the second change must wait and then see the first, so one
    // enabled administrator is always left. Without its row locks the second change read the
    // administrators before the first committed and demoted the last one.
    void lastAdministratorHoldsWhenTwoChangesMeet_data() { addEngineRows(); }
    void lastAdministratorHoldsWhenTwoChangesMeet()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());

        bool waited = false;
        auto second = whenTwoChangesMeet(
            *c, dbs->orders(), clock, "UPDATE staff SET role = 'agent' WHERE username = 'adm2'",
            [](const StaffService &s) {
                return s.setRole("root-admin", "auditor", Actor::system(QStringLiteral("cli:test")),
                                 QStringLiteral("test"));
            },
            &waited);
        QVERIFY(waited); // waited for the first change's locks
        QVERIFY2(!second.ok(), "the last enabled administrator was demoted");
        QCOMPARE(second.error().reason, QStringLiteral("last_admin"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"), 1);
    }

    // The administration page offers a role change to administrators, for a selected account
    // other than their own, and makes it through the service off the GUI thread; a refusal
    // reads as the error line says it.
    void adminPageChangesARole_data() { addEngineRows(); }
    void adminPageChangesARole()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(QDateTime::currentMSecsSinceEpoch());
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());

        AdminPage page(dbs->orders(), kAdmin);
        QSignalSpy loaded(&page, &AdminPage::loaded);
        page.refresh();
        QVERIFY(loaded.wait(20000));
        QVERIFY(page.roleButton()->isVisibleTo(&page));
        QVERIFY(!page.roleButton()->isEnabled()); // nothing selected
        auto select = [&](const QString &username) {
            for (int row = 0; row < page.staff()->rowCount(); ++row)
                if (page.staff()->rowAt(row).username == username)
                    page.staffTable()->setCurrentIndex(page.staff()->index(row, 0));
        };
        QVERIFY(!page.disableButton()->isEnabled());
        select("root-admin");
        QVERIFY(!page.roleButton()->isEnabled()); // never one's own
        QVERIFY(!page.disableButton()->isEnabled());
        QVERIFY2(page.disableButton()->toolTip().contains(u"own account"),
                 qPrintable(page.disableButton()->toolTip()));
        QVERIFY2(page.roleButton()->toolTip().contains(u"own role"),
                 qPrintable(page.roleButton()->toolTip()));
        select("amy");
        QVERIFY(page.roleButton()->isEnabled());
        QVERIFY(page.disableButton()->isEnabled());
        QVERIFY(page.disableButton()->toolTip().isEmpty());

        QSignalSpy changed(&page, &AdminPage::changed);
        page.setStaffRole("amy", "auditor", "audit team");
        QVERIFY(changed.wait(20000));
        QCOMPARE(changed.first().first().toBool(), true);
        QCOMPARE(staff.find("amy")->role, StaffRole::Auditor);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND reason = 'audit team'"),
                 1);

        // A refusal: the error line's sentence, the service's words as its tooltip.
        page.setStaffRole("root-admin", "agent", "trying");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 20000);
        QCOMPARE(changed.at(1).first().toBool(), false);
        const QString text = changed.at(1).at(1).toString();
        QVERIFY2(text.contains(u"The request was refused:") &&
                     text.contains(u"may not change their own role"),
                 qPrintable(text));
        QVERIFY2(page.summary()->toolTip().contains(u"own role"),
                 qPrintable(page.summary()->toolTip()));
        QCOMPARE(staff.find("root-admin")->role, StaffRole::Admin);

        // Disabling one's own account is refused by the service as well, read the same way.
        page.disableStaff("root-admin", "trying");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, 20000);
        QCOMPARE(changed.at(2).first().toBool(), false);
        const QString disableText = changed.at(2).at(1).toString();
        QVERIFY2(disableText.startsWith(u"Not disabled: The request was refused:") &&
                     disableText.contains(u"may not disable their own account"),
                 qPrintable(disableText));
        QVERIFY(!staff.find("root-admin")->disabled);

        // Every refusal of a change reads as the service's own sentence, an unknown account, a
        // missing reason and a refusal of rights too (not "Nothing was found." or "Your role
        // may not see this.").
        page.setStaffRole("nobody", "agent", "trying");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 4, 20000);
        QCOMPARE(changed.at(3).at(1).toString(),
                 QStringLiteral("Role not changed: The request was refused: there is no staff"
                                " account nobody"));
        page.disableStaff("amy", " ");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 5, 20000);
        QCOMPARE(changed.at(4).at(1).toString(),
                 QStringLiteral("Not disabled: The request was refused: a reason is required"));
        QVERIFY(!staff.find("amy")->disabled);
        AdminPage auditorPage(dbs->orders(), {QStringLiteral("amy"), QStringLiteral("auditor")});
        QSignalSpy refused(&auditorPage, &AdminPage::changed);
        auditorPage.disableStaff("root-admin", "trying");
        QVERIFY(refused.wait(20000));
        const QString forbidden = refused.first().at(1).toString();
        QVERIFY2(forbidden.startsWith(u"Not disabled: The request was refused: amy (auditor) may"
                                      u" not ") &&
                     !forbidden.contains(u"Your role may not see this"),
                 qPrintable(forbidden));

        // A disabled account: Disable is off with the rule's sentence, Enable on; enabled
        // again, the other way round.
        QVERIFY(staff.disable("amy", kAdmin, "on leave").ok());
        page.refresh();
        QVERIFY(loaded.wait(20000));
        select("amy");
        QVERIFY(!page.disableButton()->isEnabled());
        QCOMPARE(page.disableButton()->toolTip(), QStringLiteral("amy is disabled already"));
        QVERIFY(page.enableButton()->isEnabled());
        QVERIFY(page.enableButton()->toolTip().isEmpty());
        page.disableStaff("amy", "again");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 6, 20000);
        QCOMPARE(changed.at(5).at(1).toString(),
                 QStringLiteral("Not disabled: The request was refused: amy is disabled already"));
        page.enableStaff("amy", "back from leave");
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 7, 20000);
        QCOMPARE(changed.at(6).at(1).toString(), QStringLiteral("Account amy enabled."));
        QVERIFY(!staff.find("amy")->disabled);
        // The page loads its list again after the report: amy shown enabled.
        const auto shownDisabled = [&] {
            for (int row = 0; row < page.staff()->rowCount(); ++row)
                if (page.staff()->rowAt(row).username == u"amy")
                    return page.staff()->rowAt(row).disabled;
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(!shownDisabled(), 20000);
        select("amy");
        QVERIFY(page.disableButton()->isEnabled());
        QVERIFY(!page.enableButton()->isEnabled());
        QCOMPARE(page.enableButton()->toolTip(), QStringLiteral("amy is enabled already"));

        // Not offered to anyone who may not manage staff.
        AdminPage notAdmin(dbs->orders(), {QStringLiteral("amy"), QStringLiteral("auditor")});
        QVERIFY(!notAdmin.roleButton()->isVisibleTo(&notAdmin));
    }
};

QTEST_MAIN(TstStaffChanges)
#include "tst_staff_changes.moc"
