// Rights are read again from the staff row at every change (DESIGN.md §6, issue #8): a console
// page keeps the Actor its person signed in as, so an administrator or finance reviewer who is
// disabled or demoted while signed in must be refused by the services at the next change, with
// nothing changed in the database and an audit row for the refusal. On every engine.

#include "auth/staffrights.h"
#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "settings/opssettings.h"
#include "settings/settingsservice.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const QString kOrigin = QStringLiteral("console@test");
const Actor kOperator = Actor::system(QStringLiteral("cli:test"));

[[nodiscard]] bool addStaff(EngineFixture &f, const QString &name, StaffRole role)
{
    auto a = StaffService(*f.orders, f.clock)
                 .add({name, name, role}, QStringLiteral("correct horse battery"), kOperator);
    if (!a)
        qWarning("staff %s: %s", qPrintable(name), qPrintable(a.error().message));
    return a.ok();
}

[[nodiscard]] bool setStaff(EngineFixture &f, const QString &name, const QString &column,
                            const QVariant &value)
{
    // As a second console or the operator would, behind the signed-in person's back.
    return Sql::update(f.orders->db(),
                       QStringLiteral("UPDATE staff SET %1 = ? WHERE username = ?").arg(column),
                       {value, name})
        .ok();
}

FixProposal resolve(const QString &callbackId)
{
    FixProposal p;
    p.kind = FixKind::ResolveMessage;
    p.targetId = callbackId;
    p.reasonCode = QStringLiteral("poison_message");
    p.comment = QStringLiteral("seen in the stuck view");
    p.origin = kOrigin;
    return p;
}

} // namespace

class TstStaffRights : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The check itself: staff actors are read from their row; the operator's command line and
    // the engine's own parts are not staff and keep what require() gives them.
    void currentRightsFollowTheStaffRow_data() { addEngineRows(); }
    void currentRightsFollowTheStaffRow()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        QVERIFY(addStaff(f, "boss", StaffRole::Admin));
        const Actor boss{QStringLiteral("boss"), QStringLiteral("admin")};
        QVERIFY(requireCurrent(*f.orders, boss, Action::ManageStaff).ok());
        QVERIFY(requireCurrent(*f.orders, kOperator, Action::ManageStaff).ok());
        QCOMPARE(requireCurrent(*f.orders, Actor::platform(), Action::ManageStaff).error().code,
                 ErrorCode::Forbidden);
        // A staff role with no account behind it is nobody.
        const Actor ghost{QStringLiteral("ghost"), QStringLiteral("admin")};
        QCOMPARE(requireCurrent(*f.orders, ghost, Action::ManageStaff).error().reason,
                 QStringLiteral("unknown_staff"));
        // A lock after failed sign-ins does not end a session that began before it.
        QVERIFY(setStaff(f, "boss", "locked_until", f.clock.nowMs() + 3600000));
        QVERIFY(requireCurrent(*f.orders, boss, Action::ManageStaff).ok());
        QVERIFY(setStaff(f, "boss", "role", "auditor"));
        auto demoted = requireCurrent(*f.orders, boss, Action::ManageStaff);
        QCOMPARE(demoted.error().code, ErrorCode::Forbidden);
        QCOMPARE(demoted.error().reason, QStringLiteral("role_changed"));
        QVERIFY2(demoted.error().message.contains(u"auditor"), qPrintable(demoted.error().message));
        QVERIFY(setStaff(f, "boss", "role", "admin"));
        QVERIFY(setStaff(f, "boss", "disabled", 1));
        QCOMPARE(requireCurrent(*f.orders, boss, Action::ManageStaff).error().reason,
                 QStringLiteral("staff_disabled"));
        // The role the session carries is still checked first.
        QCOMPARE(requireCurrent(*f.orders, {QStringLiteral("boss"), QStringLiteral("agent")},
                                Action::ManageStaff)
                     .error()
                     .reason,
                 QStringLiteral("forbidden"));
    }

    void disabledAdministratorCannotManageStaffOrSettings_data() { addEngineRows(); }
    void disabledAdministratorCannotManageStaffOrSettings()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        SettingsService settings(*f.orders, f.clock);
        QVERIFY(addStaff(f, "boss", StaffRole::Admin));
        QVERIFY(addStaff(f, "amy", StaffRole::Agent));
        // The other administrator (the last enabled one is never disabled).
        QVERIFY(addStaff(f, "adm2", StaffRole::Admin));
        // What the console's admin page holds since boss signed in.
        const Actor boss = staff.find("boss")->actor();
        QVERIFY(staff.add({"new1", "", StaffRole::Agent}, "first-password", boss).ok());
        QVERIFY(settings.set("stuck.pending_seconds", "900", "night shift", boss).ok());

        // Another administrator disables boss; boss's page is still open.
        QVERIFY(staff.disable("boss", kOperator, "left the company").ok());
        const qint64 staffRows = f.count("SELECT COUNT(*) FROM staff");
        const qint64 audited = f.count("SELECT COUNT(*) FROM audit_outbox");

        auto added = staff.add({"new2", "", StaffRole::Admin}, "second-password", boss);
        QVERIFY(!added.ok());
        QCOMPARE(added.error().code, ErrorCode::Forbidden);
        QCOMPARE(added.error().reason, QStringLiteral("staff_disabled"));
        QVERIFY2(added.error().message.contains(u"disabled"), qPrintable(added.error().message));
        QCOMPARE(staff.resetPassword("amy", "taken-over-pw", boss).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(staff.disable("amy", boss, "revenge").error().code, ErrorCode::Forbidden);
        QCOMPARE(staff.list(boss).error().code, ErrorCode::Forbidden);
        auto set = settings.set("stuck.pending_seconds", "10", "quieter", boss);
        QCOMPARE(set.error().code, ErrorCode::Forbidden);

        // Nothing changed: no account, no password, no disable, no setting.
        QCOMPARE(f.count("SELECT COUNT(*) FROM staff"), staffRows);
        QCOMPARE(f.count("SELECT COUNT(*) FROM staff WHERE username = 'new2'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM staff WHERE username = 'amy' AND disabled = 0"), 1);
        QVERIFY(staff.authenticate("amy", "correct horse battery", "test")->signedIn());
        QCOMPARE(OpsSettings::load(*f.orders)->integer("stuck.pending_seconds", 0), 900);
        // Each refusal is audited under boss's name, and nothing else was.
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND"
                         " actor = 'boss' AND reason LIKE '%disabled%'"),
                 3);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND"
                         " actor = 'boss' AND entity_id = 'new2'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.refused' AND"
                         " actor = 'boss' AND entity_id = 'stuck.pending_seconds'"),
                 1);
        // 3 staff refusals, 1 setting refusal, amy's sign-in.
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox"), audited + 5);

        // Demoted instead of disabled: refused the same way, until made admin again.
        QVERIFY(setStaff(f, "boss", "disabled", 0));
        QVERIFY(setStaff(f, "boss", "role", "agent"));
        QCOMPARE(staff.add({"new2", "", StaffRole::Admin}, "second-password", boss).error().reason,
                 QStringLiteral("role_changed"));
        QVERIFY(setStaff(f, "boss", "role", "admin"));
        QVERIFY(staff.add({"new2", "", StaffRole::Agent}, "second-password", boss).ok());
        // The operator's command line is not a staff account and keeps working.
        QVERIFY(staff.add({"new3", "", StaffRole::Agent}, "third-password", kOperator).ok());
    }

    void demotedReviewerCannotDecideAFix_data() { addEngineRows(); }
    void demotedReviewerCannotDecideAFix()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        FixService fixes(*f.orders, f.clock);
        for (const auto &[name, role] :
             {std::pair{"amy", StaffRole::Agent}, std::pair{"fin", StaffRole::Finance},
              std::pair{"fox", StaffRole::Finance}})
            QVERIFY(addStaff(f, name, role));
        const Actor amy{QStringLiteral("amy"), QStringLiteral("agent")};
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        const Actor fox{QStringLiteral("fox"), QStringLiteral("finance")};
        f.makeDeadLetter("o-ghost", "evt_g");
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        auto fix = fixes.propose(resolve("stripe:evt_g"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));

        // fin is made an agent while the approvals page is open.
        QVERIFY(setStaff(f, "fin", "role", "agent"));
        auto approved = fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin);
        QVERIFY(!approved.ok());
        QCOMPARE(approved.error().code, ErrorCode::Forbidden);
        QCOMPARE(approved.error().reason, QStringLiteral("role_changed"));
        auto rejected = fixes.reject(fix->id, "wrong_target", "not this one", kOrigin, fin);
        QCOMPARE(rejected.error().code, ErrorCode::Forbidden);
        // Nothing changed: the fix is open without decisions, the message still dead.
        QCOMPARE(fixes.get(fix->id)->status, FixStatus::Open);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action IN ('fix.approved',"
                         " 'fix.rejected', 'fix.applied')"),
                 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND"
                         " actor = 'fin' AND reason LIKE '%role%agent%'"),
                 2);

        // A disabled agent may no longer propose either.
        QVERIFY(setStaff(f, "amy", "disabled", 1));
        auto again = fixes.propose(resolve("stripe:evt_other"), amy);
        QCOMPARE(again.error().reason, QStringLiteral("staff_disabled"));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND"
                         " actor = 'amy'"),
                 1);

        // A reviewer who is still finance decides it as before.
        auto decided = fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fox);
        QVERIFY2(decided.ok(), qPrintable(decided.ok() ? QString() : decided.error().message));
        QCOMPARE(decided->status, FixStatus::Applied);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 0);
    }
};

QTEST_GUILESS_MAIN(TstStaffRights)
#include "tst_staff_rights.moc"
