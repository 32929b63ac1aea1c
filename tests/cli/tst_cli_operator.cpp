// Who changed a staff account from the command line is the account the process runs as (the
// system's user database), not what $USER claims: anyone can set USER=admin, and cron, systemd
// and `env -i` leave it unset, which wrote `cli:?@host` into the audit trail. An audit export
// made with `--as` (the staff account signs in with its password on stdin) names that operator
// beside the staff account, in the export's row and in the sign-in's.

#include "cliprocess.h"
#include "db/connection.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QSysInfo>
#include <QTest>

#include <pwd.h>
#include <unistd.h>

using namespace OncePay;
using namespace OncePay::Test;

class TstCliOperator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void staffChangesNameTheRealOperator()
    {
        auto dbsResult = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbsResult.ok());
        auto dbs = std::move(dbsResult).value();
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        const QString me = QString::fromLocal8Bit(getpwuid(geteuid())->pw_name);
        const QString expected = QStringLiteral("cli:%1@%2").arg(me, QSysInfo::machineHostName());
        auto run = [&](const QStringList &args, const QByteArray &in = {}) {
            return runOncepay(QStringList{QStringLiteral("--config"), config} + args, env, in);
        };
        QCOMPARE(run({"db", "migrate"}).exitCode, 0);

        env.insert(QStringLiteral("USER"), QStringLiteral("someone-else"));
        CliRun added = run({"staff", "add", "qa1", "--role", "agent", "--password-stdin"},
                           "a long enough password\n");
        QVERIFY2(added.exitCode == 0, qPrintable(added.out + added.err));
        env.remove(QStringLiteral("USER"));
        CliRun disabled = run({"staff", "disable", "qa1", "--reason", "left the team"});
        QVERIFY2(disabled.exitCode == 0, qPrintable(disabled.out + disabled.err));

        const ConnectionProfile profile = dbs->orders();
        auto c = Connection::open(profile, QStringLiteral("tst_cli_operator"));
        QVERIFY(c.ok());
        auto q = Sql::exec(c->db(), QStringLiteral("SELECT action, actor FROM audit_outbox"
                                                   " WHERE action LIKE 'staff.%' ORDER BY id"));
        QVERIFY(q.ok());
        QStringList seen;
        while (q->next())
            seen << q->value(0).toString() + u' ' + q->value(1).toString();
        QCOMPARE(seen, (QStringList{QStringLiteral("staff.added ") + expected,
                                    QStringLiteral("staff.disabled ") + expected}));

        // `audit export --as` signs the staff account in (password on stdin): its audit row
        // names that account and, as "where", who ran it; so does the sign-in's row.
        CliRun auditor = run({"staff", "add", "aud1", "--role", "auditor", "--password-stdin"},
                             "a long enough password\n");
        QVERIFY2(auditor.exitCode == 0, qPrintable(auditor.out + auditor.err));
        // The staff changes shipped into the chain first: an empty trail is not exported.
        CliRun shipped = run({"audit", "ship"});
        QVERIFY2(shipped.exitCode == 0, qPrintable(shipped.out + shipped.err));
        env.insert(QStringLiteral("USER"), QStringLiteral("aud1"));
        CliRun exported = run({"audit", "export", "--as", "aud1", "--out",
                               dbs->tempPath() + QStringLiteral("/trail.csv")},
                              "a long enough password\n");
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.out + exported.err));
        auto e = Sql::exec(c->db(), QStringLiteral("SELECT actor, after_json FROM audit_outbox"
                                                   " WHERE action = 'audit.exported'"));
        QVERIFY(e.ok() && e->next());
        QCOMPARE(e->value(0).toString(), QStringLiteral("aud1"));
        QVERIFY2(e->value(1).toString().contains(QStringLiteral("\"where\":\"") + expected + u'"'),
                 qPrintable(e->value(1).toString()));
        auto s = Sql::exec(c->db(), QStringLiteral("SELECT actor, after_json FROM audit_outbox"
                                                   " WHERE action = 'login.succeeded'"));
        QVERIFY(s.ok() && s->next());
        QCOMPARE(s->value(0).toString(), QStringLiteral("aud1"));
        QVERIFY2(s->value(1).toString().contains(QStringLiteral("\"where\":\"") + expected + u'"'),
                 qPrintable(s->value(1).toString()));
    }
};

QTEST_GUILESS_MAIN(TstCliOperator)
#include "tst_cli_operator.moc"
