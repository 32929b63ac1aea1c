// `oncepay staff …` end to end: the password comes from stdin and never from an argument;
// add, list, reset-password, set-role, disable and enable leave the account and the audit rows
// expected, and set-role's, disable's and enable's refusals their exit codes and audit rows.

#include "auth/staffservice.h"
#include "cliprocess.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QDateTime>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

class TstAuthCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void staffCommands_data() { addEngineRows(); }
    void staffCommands()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        const QStringList base{QStringLiteral("--config"), config};

        auto added = runOncepay(
            base + QStringList{"staff", "add", "agent", "--role", "agent", "--password-stdin"}, env,
            "agent-demo\n");
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        QVERIFY(added.out.contains(u"agent"));
        QVERIFY(!added.out.contains(u"agent-demo"));
        // A new account is active (not "locked": e54ca3c's new field once took a positional
        // initialiser's value).
        QVERIFY2(added.out.contains(u" active ") && !added.out.contains(u"locked"),
                 qPrintable(added.out));

        auto noPassword =
            runOncepay(base + QStringList{"staff", "add", "fin", "--role", "finance"}, env, {});
        QCOMPARE(noPassword.exitCode, 1);
        auto badRole = runOncepay(base + QStringList{"staff", "add", "x", "--role", "root"}, env,
                                  "xxxxxxxxxxxx\n");
        QCOMPARE(badRole.exitCode, 2);
        auto dup = runOncepay(base + QStringList{"staff", "add", "agent", "--role", "admin"}, env,
                              "agent-demo-2\n");
        QCOMPARE(dup.exitCode, 1);

        auto list = runOncepay(base + QStringList{"staff", "list"}, env);
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.contains(u"agent") && list.out.contains(u"active"));

        // set-role: the change, then each refusal with its exit code.
        auto promoted = runOncepay(
            base + QStringList{"staff", "set-role", "agent", "finance", "--reason", "new desk"},
            env);
        QVERIFY2(promoted.exitCode == 0, qPrintable(promoted.err));
        QVERIFY2(promoted.out.startsWith(u"role set agent") && promoted.out.contains(u"finance"),
                 qPrintable(promoted.out));
        {
            // A change to a locked account shows it locked, as `staff list` does.
            auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
            QVERIFY(c.ok());
            QVERIFY(
                Sql::exec(
                    c->db(), QStringLiteral("UPDATE staff SET locked_until = ? WHERE username = ?"),
                    {QDateTime::currentMSecsSinceEpoch() + 3600 * 1000, QStringLiteral("agent")})
                    .ok());
        }
        auto lockedRole = runOncepay(
            base + QStringList{"staff", "set-role", "agent", "auditor", "--reason", "locked"}, env);
        QVERIFY2(lockedRole.exitCode == 0 && lockedRole.out.contains(u" locked "),
                 qPrintable(lockedRole.out + lockedRole.err));
        QVERIFY(runOncepay(
                    base + QStringList{"staff", "set-role", "agent", "finance", "--reason", "back"},
                    env)
                    .exitCode == 0);
        auto sameRole = runOncepay(
            base + QStringList{"staff", "set-role", "agent", "finance", "--reason", "test"}, env);
        QCOMPARE(sameRole.exitCode, 1);
        QVERIFY2(sameRole.err.contains(u"already has the role finance"), qPrintable(sameRole.err));
        auto unknownRole = runOncepay(
            base + QStringList{"staff", "set-role", "agent", "root", "--reason", "test"}, env);
        QCOMPARE(unknownRole.exitCode, 2);
        QVERIFY2(unknownRole.err.contains(u"ROLE must be agent, finance, auditor or admin"),
                 qPrintable(unknownRole.err));
        auto unknownUser = runOncepay(
            base + QStringList{"staff", "set-role", "nobody", "auditor", "--reason", "test"}, env);
        QCOMPARE(unknownUser.exitCode, 1);
        QVERIFY2(unknownUser.err.contains(u"no staff account nobody"), qPrintable(unknownUser.err));
        QCOMPARE(runOncepay(base + QStringList{"staff", "set-role", "agent"}, env).exitCode, 2);
        QCOMPARE(runOncepay(base + QStringList{"staff", "set-role", "agent", "agent", "x"}, env)
                     .exitCode,
                 2);
        auto boss = runOncepay(base + QStringList{"staff", "add", "boss", "--role", "admin"}, env,
                               "boss-demo-pw\n");
        QVERIFY2(boss.exitCode == 0, qPrintable(boss.err));
        auto lastAdmin = runOncepay(
            base + QStringList{"staff", "set-role", "boss", "agent", "--reason", "test"}, env);
        QCOMPARE(lastAdmin.exitCode, 1);
        QVERIFY2(lastAdmin.err.contains(u"last enabled administrator"), qPrintable(lastAdmin.err));
        // disable: the last enabled administrator stays enabled, an unknown account is
        // refused; both exit 1 like set-role's refusals, a missing USER 2.
        auto lastAdminDisabled =
            runOncepay(base + QStringList{"staff", "disable", "boss", "--reason", "test"}, env);
        QCOMPARE(lastAdminDisabled.exitCode, 1);
        QVERIFY2(lastAdminDisabled.err.contains(
                     u"boss is the last enabled administrator and stays enabled"),
                 qPrintable(lastAdminDisabled.err));
        QVERIFY2(!lastAdminDisabled.out.contains(u"disabled"), qPrintable(lastAdminDisabled.out));
        auto unknownDisabled =
            runOncepay(base + QStringList{"staff", "disable", "nobody", "--reason", "test"}, env);
        QCOMPARE(unknownDisabled.exitCode, 1);
        QVERIFY2(unknownDisabled.err.contains(u"no staff account nobody"),
                 qPrintable(unknownDisabled.err));
        QCOMPARE(runOncepay(base + QStringList{"staff", "disable"}, env).exitCode, 2);
        // The reason is required by the service: without one (or a blank one) a change is
        // refused, audited, and exits 2 like a missing required option.
        auto noReasonRole =
            runOncepay(base + QStringList{"staff", "set-role", "agent", "auditor"}, env);
        QCOMPARE(noReasonRole.exitCode, 2);
        QVERIFY2(noReasonRole.err.contains(u"--reason is required"), qPrintable(noReasonRole.err));
        auto noReasonDisable =
            runOncepay(base + QStringList{"staff", "disable", "agent", "--reason", "  "}, env);
        QCOMPARE(noReasonDisable.exitCode, 2);
        QVERIFY2(noReasonDisable.err.contains(u"--reason is required"),
                 qPrintable(noReasonDisable.err));
        auto help = runOncepay(base + QStringList{"staff", "set-role", "--help"}, env);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains(u"oncepay staff set-role") && help.out.contains(u"USER ROLE") &&
                     help.out.contains(u"--reason"),
                 qPrintable(help.out));

        auto reset = runOncepay(base + QStringList{"staff", "reset-password", "agent"}, env,
                                "agent-demo-new\n");
        QVERIFY2(reset.exitCode == 0, qPrintable(reset.err));
        auto disabled =
            runOncepay(base + QStringList{"staff", "disable", "agent", "--reason", "test"}, env);
        QCOMPARE(disabled.exitCode, 0);
        QVERIFY(runOncepay(base + QStringList{"staff", "list"}, env).out.contains(u"disabled"));
        // Disabled already: refused with its own sentence, exit 1.
        auto again =
            runOncepay(base + QStringList{"staff", "disable", "agent", "--reason", "test"}, env);
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains(u"agent is disabled already"), qPrintable(again.err));

        auto c = Connection::open(dbs->orders(), QStringLiteral("check"));
        QVERIFY(c.ok());
        ManualClock clock(QDateTime::currentMSecsSinceEpoch());
        auto in = StaffService(*c, clock).authenticate("agent", "agent-demo-new", "test");
        QVERIFY(in.ok());
        QCOMPARE(in->refusal, SignInRefusal::Disabled); // right password, disabled account

        // enable: a missing USER or reason is a usage error (exit 2; the reason's refusal
        // audited), an unknown account and one enabled already are refused (exit 1); then the
        // account is enabled again and signs in.
        QCOMPARE(runOncepay(base + QStringList{"staff", "enable"}, env).exitCode, 2);
        QCOMPARE(
            runOncepay(base + QStringList{"staff", "enable", "agent", "boss", "--reason", "x"}, env)
                .exitCode,
            2);
        auto noReasonEnable = runOncepay(base + QStringList{"staff", "enable", "agent"}, env);
        QCOMPARE(noReasonEnable.exitCode, 2);
        QVERIFY2(noReasonEnable.err.contains(u"oncepay staff enable: --reason is required"),
                 qPrintable(noReasonEnable.err));
        auto unknownEnabled =
            runOncepay(base + QStringList{"staff", "enable", "nobody", "--reason", "test"}, env);
        QCOMPARE(unknownEnabled.exitCode, 1);
        QVERIFY2(unknownEnabled.err.contains(u"no staff account nobody"),
                 qPrintable(unknownEnabled.err));
        auto bossEnabled =
            runOncepay(base + QStringList{"staff", "enable", "boss", "--reason", "test"}, env);
        QCOMPARE(bossEnabled.exitCode, 1);
        QVERIFY2(bossEnabled.err.contains(u"boss is enabled already"), qPrintable(bossEnabled.err));
        QVERIFY2(bossEnabled.out.isEmpty(), qPrintable(bossEnabled.out));
        QVERIFY(StaffService(*c, clock).find("agent")->disabled);
        auto enabled = runOncepay(
            base + QStringList{"staff", "enable", "agent", "--reason", "back from leave"}, env);
        QVERIFY2(enabled.exitCode == 0, qPrintable(enabled.err));
        QVERIFY2(enabled.out.startsWith(u"enabled agent") && enabled.out.contains(u"active"),
                 qPrintable(enabled.out));
        QVERIFY(!StaffService(*c, clock).find("agent")->disabled);
        in = StaffService(*c, clock).authenticate("agent", "agent-demo-new", "test");
        QVERIFY(in.ok());
        QCOMPARE(in->refusal, SignInRefusal::None);
        auto enableHelp = runOncepay(base + QStringList{"staff", "enable", "--help"}, env);
        QCOMPARE(enableHelp.exitCode, 0);
        QVERIFY2(enableHelp.out.contains(u"oncepay staff enable") &&
                     enableHelp.out.contains(u"USER") && enableHelp.out.contains(u"--reason"),
                 qPrintable(enableHelp.out));
        QCOMPARE(Sql::scalar(c->db(),
                             "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled' AND"
                             " entity_id = 'agent' AND actor_role = 'system' AND"
                             " reason = 'back from leave' AND before_json LIKE"
                             " '%\"disabled\":true%' AND after_json LIKE '%\"disabled\":false%'")
                     ->toInt(),
                 1);
        // Each refusal of an enable that reached the service: no reason, the unknown account,
        // the one enabled already.
        QCOMPARE(Sql::scalar(c->db(),
                             "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND"
                             " actor_role = 'system' AND after_json LIKE '%\"step\":\"enable\"%'")
                     ->toInt(),
                 3);
        auto rows =
            Sql::scalar(c->db(), "SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                                 " ('staff.added', 'staff.password_reset', 'staff.disabled')"
                                 " AND actor_role = 'system'");
        QCOMPARE(rows->toInt(), 4); // agent and boss added, agent's password reset, disabled
        auto changed = Sql::scalar(
            c->db(), "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.role_changed' AND"
                     " entity_id = 'agent' AND actor_role = 'system' AND reason = 'new desk'"
                     " AND after_json LIKE '%\"role\":\"finance\"%'");
        QCOMPARE(changed->toInt(), 1);
        // Each refusal of a role change is audited: same role, unknown role, unknown account,
        // the last administrator, a missing reason (not the usage errors, which never reached
        // the service).
        auto refused = Sql::scalar(
            c->db(), "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND"
                     " actor_role = 'system' AND after_json LIKE '%\"step\":\"set_role\"%'");
        QCOMPARE(refused->toInt(), 5);
        // And each refusal of a disable: the last administrator, the unknown account, a blank
        // reason, the account disabled already.
        auto disableRefused = Sql::scalar(
            c->db(), "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND"
                     " actor_role = 'system' AND after_json LIKE '%\"step\":\"disable\"%'");
        QCOMPARE(disableRefused->toInt(), 4);
        auto noReason = Sql::scalar(
            c->db(), "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused' AND"
                     " entity_id = 'agent' AND after_json LIKE '%\"reason\":\"reason_required\"%'");
        QCOMPARE(noReason->toInt(), 3);
        QCOMPARE(StaffService(*c, clock).find("boss")->role, StaffRole::Admin);
        QVERIFY(!StaffService(*c, clock).find("boss")->disabled);
    }
};

QTEST_GUILESS_MAIN(TstAuthCli)
#include "tst_auth_cli.moc"
