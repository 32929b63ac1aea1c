// `oncepay staff …` end to end: the password comes from stdin and never from an argument;
// add, list, reset-password and disable leave the account and the audit rows expected.

#include "auth/staffservice.h"
#include "cliprocess.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "testdatabases.h"

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

        auto reset = runOncepay(base + QStringList{"staff", "reset-password", "agent"}, env,
                                "agent-demo-new\n");
        QVERIFY2(reset.exitCode == 0, qPrintable(reset.err));
        auto disabled =
            runOncepay(base + QStringList{"staff", "disable", "agent", "--reason", "test"}, env);
        QCOMPARE(disabled.exitCode, 0);
        QVERIFY(runOncepay(base + QStringList{"staff", "list"}, env).out.contains(u"disabled"));

        auto c = Connection::open(dbs->orders(), QStringLiteral("check"));
        QVERIFY(c.ok());
        ManualClock clock(QDateTime::currentMSecsSinceEpoch());
        auto in = StaffService(*c, clock).authenticate("agent", "agent-demo-new", "test");
        QVERIFY(in.ok());
        QCOMPARE(in->refusal, SignInRefusal::Disabled); // right password, disabled account
        auto rows =
            Sql::scalar(c->db(), "SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                                 " ('staff.added', 'staff.password_reset', 'staff.disabled')"
                                 " AND actor_role = 'system'");
        QCOMPARE(rows->toInt(), 3);
    }
};

QTEST_GUILESS_MAIN(TstAuthCli)
#include "tst_auth_cli.moc"
