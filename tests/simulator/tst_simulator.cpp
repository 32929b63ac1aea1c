// The simulator drives the real engine through a hostile world; its invariants must hold on
// every engine, its counts must agree with what the database says, and the same seed must
// tell the same story.

#include "auth/staffservice.h"
#include "cliprocess.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "simulator/simulationworld.h"
#include "simulator/simulator.h"
#include "testdatabases.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

SimulationOptions hostile(int orders, quint64 seed)
{
    SimulationOptions o;
    o.orders = orders;
    o.days = 3;
    o.seed = seed;
    o.faults = *FaultProfile::named(QStringLiteral("hostile"));
    // Enough of the rare stories in a small run that each one surely happens.
    (void)o.faults.applyOverrides(QStringLiteral("poison=0.1,mismatch=0.1,workerCrash=0.2"));
    return o;
}

} // namespace

class TstSimulator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void invariantsHoldOnEveryEngine_data() { addEngineRows(); }
    void invariantsHoldOnEveryEngine()
    {
        ONCEPAY_SCRATCH(dbs);
        auto summary = Simulator(dbs->config(), hostile(120, 42)).run();
        QVERIFY2(summary.ok(), qPrintable(summary.ok() ? QString() : summary.error().message));
        const SimulationSummary &s = *summary;
        QVERIFY2(s.invariantFailures.isEmpty(), qPrintable(s.invariantFailures.join('\n')));
        QCOMPARE(s.orders, 120);
        // The hostile world really happened…
        QVERIFY(s.duplicatesAbsorbed > 0);
        QVERIFY(s.staleSent > 0);
        QVERIFY(s.poisonSent > 0);
        QVERIFY(s.forgedSent > 0);
        QVERIFY(s.workerCrashes > 0);
        QVERIFY(s.auditShipRefused > 0);
        // …and the engine absorbed it exactly.
        QCOMPARE(s.staleRejected, s.staleSent);
        QCOMPARE(s.deadLetters, s.poisonSent);
        QCOMPARE(s.rejectedAtDoor, s.forgedSent);
        QCOMPARE(s.openMessages, 0);
        QCOMPARE(s.callbacksSent, s.storedNew + s.duplicatesAbsorbed + s.rejectedAtDoor);
        QVERIFY(s.auditRows > 0);
        QVERIFY(s.stuckPaidUnconfirmed > 0);
    }

    // The invariants compare each order's ledger (a server-side SUM) with what the world
    // expects, exactly: PostgreSQL's and MariaDB's sum is a decimal, and read as a double a
    // ledger past 2^53 (2^62 + 1) would be rounded and reported as wrong. A ledger whose sum
    // passes 64 bits is reported as unreadable on every engine, never as some other number.
    void invariantsReadLedgerSumsExactly_data() { addEngineRows(); }
    void invariantsReadLedgerSumsExactly()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        const qint64 half = qint64(1) << 62;
        const auto book = [&](const QString &key, const QString &order, qint64 amount) {
            return Sql::exec(c->db(),
                             "INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor,"
                             " currency, created_at) VALUES (?, ?, 'fee_adjustment', ?, 'XOF', 0)",
                             {key, order, amount})
                .ok();
        };
        QVERIFY(book("big-1", "sim-big", half));
        QVERIFY(book("big-2", "sim-big", 1));
        QVERIFY(book("small-1", "sim-a-small", 1250));
        QList<Sim::SimOrder> world(2);
        world[0].id = "sim-big";
        world[0].expectedLedger = half + 1;
        world[1].id = "sim-a-small";
        world[1].expectedLedger = 1250;
        SimulationSummary exact;
        Sim::checkInvariants(*c, world, exact);
        QVERIFY2(exact.invariantFailures.isEmpty(), qPrintable(exact.invariantFailures.join('\n')));

        // One more 2^62 takes the big order's ledger past 64 bits (on SQLite, as the rows
        // after the small order's are read).
        QVERIFY(book("big-3", "sim-big", half));
        world[0].expectedLedger = 0;
        SimulationSummary past;
        Sim::checkInvariants(*c, world, past);
        QVERIFY2(!past.invariantFailures.isEmpty(), "a ledger past 64 bits passed");
        const QString said = past.invariantFailures.join('\n');
        QVERIFY2(said.contains(dbs->dialect() == Dialect::Sqlite ? "integer overflow"
                                                                 : "ledger of sim-big"),
                 qPrintable(said));
        // Never a wrapped or rounded number passed off as the ledger.
        QVERIFY2(!said.contains(": ledger "), qPrintable(said));
    }

    void sameSeedSameStory()
    {
        QString digests[3];
        for (int i = 0; i < 3; ++i) {
            auto dbs = ScratchDatabases::create(Dialect::Sqlite);
            QVERIFY(dbs.ok());
            auto s = Simulator((*dbs)->config(), hostile(80, i < 2 ? 7 : 8)).run();
            QVERIFY(s.ok());
            QVERIFY(s->invariantFailures.isEmpty());
            digests[i] = s->businessDigest;
        }
        QCOMPARE(digests[0].size(), 64);
        QCOMPARE(digests[0], digests[1]);
        QVERIFY(digests[0] != digests[2]);
    }

    void nonsenseOptionsAreRefused()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QProcessEnvironment env;
        const QString config = (*dbs)->writeConfigFile(&env);
        for (const QStringList &args :
             {QStringList{"--orders", "many"}, QStringList{"--days", "0"},
              QStringList{"--profile", "apocalyptic"}, QStringList{"--faults", "poison=2"},
              QStringList{"--faults", "gremlins=0.1"}, QStringList{"extra-argument"}}) {
            CliRun r = runOncepay(QStringList{"--config", config, "simulate"} + args, env);
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY(!r.err.isEmpty());
        }
        const QString out = (*dbs)->tempPath() + "/out";
        QDir().mkpath(out);
        QFile f(out + "/keep.txt");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        CliRun refused =
            runOncepay({"--config", config, "simulate", "--orders", "5", "--out", out}, env);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.err.contains("--force"));
        CliRun forced = runOncepay({"--config", config, "simulate", "--orders", "20", "--days", "1",
                                    "--out", out, "--force", "--json"},
                                   env);
        QVERIFY2(forced.exitCode == 0, qPrintable(forced.err + forced.out));
        QVERIFY(forced.out.contains("\"business_digest\""));
    }

    // `simulate --demo` leaves a console one can sign in to: one account per role (and a
    // second finance reviewer), made through services/auth; an account that already exists
    // keeps its password.
    void demoCreatesOneAccountPerRole()
    {
        auto dbs = ScratchDatabases::create(Dialect::Sqlite);
        QVERIFY(dbs.ok());
        QProcessEnvironment env;
        const QString config = (*dbs)->writeConfigFile(&env);
        CliRun own = runOncepay(
            {"--config", config, "staff", "add", "agent", "--role", "agent", "--password-stdin"},
            env, "agent-own-password-1\n");
        QVERIFY2(own.exitCode == 0, qPrintable(own.err));
        CliRun demo = runOncepay(
            {"--config", config, "simulate", "--demo", "--orders", "20", "--days", "1", "--json"},
            env);
        QVERIFY2(demo.exitCode == 0, qPrintable(demo.err + demo.out));
        QVERIFY2(demo.out.contains(R"("demo_accounts_created": [
        "finance",
        "finance2",
        "auditor",
        "admin"
    ])"),
                 qPrintable(demo.out));
        QVERIFY(QFileInfo::exists((*dbs)->tempPath() + "/demo/fee_schedule.csv"));
        CliRun list = runOncepay({"--config", config, "staff", "list"}, env);
        QCOMPARE(list.exitCode, 0);
        for (const char *user : {"agent", "finance", "finance2", "auditor", "admin"})
            QVERIFY2(list.out.contains(QRegularExpression(QStringLiteral("(^|\\n)%1 ").arg(user))),
                     qPrintable(list.out));

        auto c = openMigrated((*dbs)->orders(), QStringLiteral("demo-check"));
        QVERIFY(c.ok());
        const StaffService staff(*c, Clock::system());
        auto finance2 = staff.authenticate("finance2", "finance2-demo", "test");
        QVERIFY(finance2.ok());
        QVERIFY(finance2->signedIn());
        QCOMPARE(finance2->account.role, StaffRole::Finance);
        // The two reviewers of a maker-checker decision are told apart by name too.
        QVERIFY(staff.find("finance").ok());
        QVERIFY(finance2->account.displayName != staff.find("finance")->displayName);
        auto admin = staff.authenticate("admin", "admin-demo", "test");
        QVERIFY(admin.ok() && admin->signedIn());
        QCOMPARE(admin->account.role, StaffRole::Admin);
        auto agentDemo = staff.authenticate("agent", "agent-demo", "test");
        QVERIFY(agentDemo.ok());
        QVERIFY(!agentDemo->signedIn());
        auto agentOwn = staff.authenticate("agent", "agent-own-password-1", "test");
        QVERIFY(agentOwn.ok() && agentOwn->signedIn());
        QCOMPARE(Sql::scalar(c->db(), "SELECT COUNT(*) FROM staff")->toInt(), 5);
    }
};

QTEST_GUILESS_MAIN(TstSimulator)
#include "tst_simulator.moc"
