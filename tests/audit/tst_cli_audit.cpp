// `oncepay audit ship | verify | seal | crosscheck` end to end, on every engine.

#include "audit/auditexporter.h"
#include "audit/auditfilter.h"
#include "audittestutil.h"
#include "auth/staffservice.h"
#include "cliprocess.h"
#include "testdatabases.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

class TstCliAudit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shipSealVerifyExitCodes_data() { addEngineRows(); }
    void shipSealVerifyExitCodes()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        auto run = [&](const QStringList &args) {
            return runOncepay(QStringList{QStringLiteral("--config"), config} + args, env);
        };

        CliRun unmigrated = run({"audit", "verify"});
        QCOMPARE(unmigrated.exitCode, 1);
        QVERIFY2(unmigrated.err.contains(QStringLiteral("db migrate")), qPrintable(unmigrated.err));
        QCOMPARE(run({"db", "migrate"}).exitCode, 0);

        CliRun empty = run({"audit", "verify"});
        QVERIFY2(empty.exitCode == 0, qPrintable(empty.out + empty.err));
        QVERIFY(empty.out.contains(QStringLiteral("audit chain ok: empty")));
        {
            ManualClock clock(1'700'000'000'000);
            Connection orders = openOrDie(dbs->orders());
            seedOutbox(orders, 10, clock);
        }
        // A valid chain is not a complete trail: verify names what still waits in the outbox.
        CliRun waiting = run({"audit", "verify"});
        QVERIFY2(waiting.exitCode == 0, qPrintable(waiting.out + waiting.err));
        QCOMPARE(waiting.out.trimmed(),
                 QStringLiteral("audit chain ok: empty, 0 checkpoints; 10 audited event(s) not"
                                " yet shipped to the audit database (oldest %1): run `oncepay"
                                " audit ship`")
                     .arg(AuditFilter::formatTime(1'700'000'000'000)));

        CliRun ship = run({"audit", "ship", "--batch", "4"});
        QVERIFY2(ship.exitCode == 0, qPrintable(ship.out + ship.err));
        QCOMPARE(ship.out.trimmed(),
                 QStringLiteral("shipped 10 audit event(s), 0 already present; chain head seq 10"));
        CliRun again = run({"audit", "ship"});
        QVERIFY(again.out.startsWith(QStringLiteral("shipped 0 audit event(s)")));

        CliRun seal = run({"audit", "seal", "--actor", "auditor-1"});
        QVERIFY2(seal.exitCode == 0, qPrintable(seal.out + seal.err));
        QVERIFY2(seal.out.startsWith(QStringLiteral("sealed seq 10 head ")), qPrintable(seal.out));
        QVERIFY(
            QFile::exists(QDir(dbs->tempPath()).filePath(QStringLiteral("keys/audit-seal.key"))));
        const QString secret = QString::fromLatin1([&] {
            QFile f(QDir(dbs->tempPath()).filePath(QStringLiteral("keys/audit-seal.key")));
            f.open(QIODevice::ReadOnly);
            return f.readAll().trimmed();
        }());
        QVERIFY(!seal.out.contains(secret) && !seal.err.contains(secret));

        CliRun ok = run({"audit", "verify"});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));
        QVERIFY(ok.out.startsWith(QStringLiteral("audit chain ok: 10 rows, head seq 10")));
        QVERIFY(ok.out.contains(QStringLiteral("1 checkpoint(s) verified")));
        QVERIFY2(!ok.out.contains(QStringLiteral("not yet shipped")), qPrintable(ok.out));

        {
            Connection audit = openOrDie(dbs->audit());
            QVERIFY(tamper(audit, {QStringLiteral("UPDATE audit_log SET action = 'order.transitioN'"
                                                  " WHERE seq = 4")})
                        .ok());
        }
        CliRun bad = run({"audit", "verify"});
        QCOMPARE(bad.exitCode, 1);
        QCOMPARE(bad.out.trimmed().count(u'\n'), 0);
        QVERIFY2(bad.out.contains(QStringLiteral("row seq 4 was altered")), qPrintable(bad.out));

        CliRun cross = run({"audit", "crosscheck"});
        QVERIFY2(cross.exitCode == 0, qPrintable(cross.out + cross.err));
        QVERIFY(cross.out.startsWith(QStringLiteral("cross-check passed")));
    }

    // `audit export` in every format for an auditor, `verify-export` accepting the result and
    // refusing it after a one-byte edit; an agent refused; usage errors exit 2.
    void exportAndVerifyExport_data() { addEngineRows(); }
    void exportAndVerifyExport()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        auto run = [&](const QStringList &args) {
            return runOncepay(QStringList{QStringLiteral("--config"), config} + args, env);
        };
        QCOMPARE(run({"db", "migrate"}).exitCode, 0);
        {
            ManualClock clock(1'700'000'000'000);
            Connection orders = openOrDie(dbs->orders());
            seedOutbox(orders, 12, clock, QStringLiteral("cb-"));
            StaffService staff(orders, clock);
            const Actor op = Actor::system(QStringLiteral("test"));
            QVERIFY(staff
                        .add({QStringLiteral("alice"), {}, StaffRole::Auditor},
                             QStringLiteral("a long passphrase 1"), op)
                        .ok());
            QVERIFY(staff
                        .add({QStringLiteral("bob"), {}, StaffRole::Agent},
                             QStringLiteral("a long passphrase 2"), op)
                        .ok());
        }
        QCOMPARE(run({"audit", "ship"}).exitCode, 0);
        QCOMPARE(run({"audit", "seal"}).exitCode, 0);
        const QDir dir(dbs->tempPath());

        for (const char *format : {"csv", "json", "pdf"}) {
            const QString out = dir.filePath(QStringLiteral("cli.") + QLatin1String(format));
            CliRun ex = run({"audit", "export", "--as", "alice", "--action", "order.*", "--from",
                             "2023-11-14", "--format", format, "--out", out});
            QVERIFY2(ex.exitCode == 0, qPrintable(ex.out + ex.err));
            QVERIFY2(ex.out.startsWith(QStringLiteral("exported 6 audit row(s)")),
                     qPrintable(ex.out));
            QVERIFY(ex.out.contains(QStringLiteral("sealed at seq ")));
            const QString manifest = out + QStringLiteral(".manifest.json");
            QVERIFY(QFile::exists(manifest));
            auto sha = AuditExporter::fileSha256(out);
            QVERIFY(sha.ok());
            QVERIFY(ex.out.contains(QStringLiteral("sha256 ") + *sha));

            CliRun ok = run({"audit", "verify-export", "--as", "alice", manifest});
            QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));
            QVERIFY(ok.out.startsWith(QStringLiteral("export ok")));

            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray bytes = f.readAll();
            bytes[bytes.size() - 3] = bytes[bytes.size() - 3] ^ 0x01;
            f.seek(0);
            f.write(bytes);
            f.close();
            CliRun bad = run({"audit", "verify-export", "--as", "alice", manifest});
            QCOMPARE(bad.exitCode, 1);
            QVERIFY2(bad.out.contains(QStringLiteral("the file was changed")), qPrintable(bad.out));
        }

        CliRun agent = run({"audit", "export", "--as", "bob", "--out", dir.filePath("bob.csv")});
        QCOMPARE(agent.exitCode, 1);
        QVERIFY2(agent.err.contains(QStringLiteral("may not read the audit trail")),
                 qPrintable(agent.err));
        QVERIFY(!QFile::exists(dir.filePath("bob.csv")));
        {
            Connection orders = openOrDie(dbs->orders());
            QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE"
                                                      " action = 'audit.access_refused' AND"
                                                      " actor = 'bob'")),
                     1);
            QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE"
                                                      " action = 'audit.exported' AND"
                                                      " actor = 'alice'")),
                     3);
        }
        QCOMPARE(run({"audit", "export", "--out", dir.filePath("x.csv")}).exitCode, 2);
        QCOMPARE(run({"audit", "export", "--as", "alice", "--format", "xls", "--out",
                      dir.filePath("x.xls")})
                     .exitCode,
                 2);
        QCOMPARE(run({"audit", "export", "--as", "alice", "--from", "soon", "--out",
                      dir.filePath("x.csv")})
                     .exitCode,
                 2);
    }

    void unreachableAuditDatabaseExitsFour()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("down.ini");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(
                    "[general]\ndata_dir = %1\n[audit]\ndriver = postgresql\nhost = 127.0.0.1\n"
                    "port = 1\ndatabase = x\nuser = u\n")
                    .arg(dir.path())
                    .toUtf8());
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.filePath("data"));
        CliRun r = runOncepay({"--config", path, "audit", "ship"}, env);
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains(QStringLiteral("wait in the outbox")), qPrintable(r.err));
        CliRun v = runOncepay({"--config", path, "audit", "verify"}, env);
        QCOMPARE(v.exitCode, 4);
    }

    // Verify only reads: with the orders database away it checks the chain, says the waiting
    // events cannot be counted, and creates no empty orders database in its place.
    void verifyCreatesNoOrdersDatabase()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("oncepay.ini");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("[general]\ndata_dir = %1/data\n").arg(dir.path()).toUtf8());
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.filePath("xdg"));
        QCOMPARE(runOncepay({"--config", path, "db", "migrate"}, env).exitCode, 0);
        const QString orders = dir.filePath("data/orders.db");
        QVERIFY(QFile::exists(orders));
        for (const QString &suffix : {"", "-wal", "-shm"})
            QFile::remove(orders + suffix);
        CliRun v = runOncepay({"--config", path, "audit", "verify"}, env);
        QVERIFY2(v.exitCode == 0, qPrintable(v.err + v.out));
        QVERIFY2(v.err.contains(QStringLiteral("could not count")), qPrintable(v.err));
        QVERIFY(!QFile::exists(orders));
    }
};

QTEST_GUILESS_MAIN(TstCliAudit)
#include "tst_cli_audit.moc"
