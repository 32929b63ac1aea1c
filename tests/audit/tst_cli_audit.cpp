// `oncepay audit ship | verify | seal | crosscheck | export | verify-export` end to end, on
// every engine. export and verify-export sign the --as staff account in with its password on
// the first line of stdin, as `oncepay fix --user` does.

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

        // The seal is recorded in the orders database too (an audit.sealed event), and that
        // event waits for the next shipping like any other.
        CliRun sealed = run({"audit", "verify"});
        QVERIFY2(sealed.exitCode == 0, qPrintable(sealed.out + sealed.err));
        QVERIFY(sealed.out.startsWith(QStringLiteral("audit chain ok: 10 rows, head seq 10")));
        QVERIFY2(sealed.out.contains(QStringLiteral("; 1 audited event(s) not yet shipped")),
                 qPrintable(sealed.out));
        QCOMPARE(run({"audit", "ship"}).exitCode, 0);
        CliRun ok = run({"audit", "verify"});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));
        QVERIFY(ok.out.startsWith(QStringLiteral("audit chain ok: 11 rows, head seq 11")));
        QVERIFY(ok.out.contains(QStringLiteral("1 checkpoint(s) verified")));
        QVERIFY(
            ok.out.contains(QStringLiteral("sealed up to seq 10, 1 row(s) after the last seal")));
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

    // Review finding 1 (truncate.sh): rows cut off the end together with the checkpoint that
    // sealed them. verify and crosscheck exit 1 and say so: the seal recorded in the orders
    // database is beyond the chain's end, and shipped events are missing from it.
    void cuttingTheEndWithItsSealShows_data() { addEngineRows(); }
    void cuttingTheEndWithItsSealShows()
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
            seedOutbox(orders, 10, clock);
        }
        QCOMPARE(run({"audit", "ship"}).exitCode, 0);
        QCOMPARE(run({"audit", "seal", "--actor", "auditor-1"}).exitCode, 0); // seq 10
        {
            ManualClock clock(1'700'000'100'000);
            Connection orders = openOrDie(dbs->orders());
            seedOutbox(orders, 4, clock);
        }
        QCOMPARE(run({"audit", "ship"}).exitCode, 0); // seq 11 the seal's record, 12..15
        CliRun sealed = run({"audit", "seal", "--actor", "auditor-1"});
        QVERIFY2(sealed.out.startsWith(QStringLiteral("sealed seq 15 head ")),
                 qPrintable(sealed.out));
        QCOMPARE(run({"audit", "verify"}).exitCode, 0);
        QCOMPARE(run({"audit", "crosscheck"}).exitCode, 0);

        {
            Connection audit = openOrDie(dbs->audit());
            QVERIFY(cutChainAfter(audit, 12).ok());
        }
        CliRun cut = run({"audit", "verify"});
        QCOMPARE(cut.exitCode, 1);
        QVERIFY2(cut.out.startsWith(QStringLiteral(
                     "audit chain BROKEN: chain truncated: the seal recorded in the orders database"
                     " seals seq 15 but the chain ends at seq 12 (rows 13..15 are missing)")),
                 qPrintable(cut.out + cut.err));
        CliRun cross = run({"audit", "crosscheck"});
        QCOMPARE(cross.exitCode, 1);
        QVERIFY2(cross.out.contains(QStringLiteral("ALERT 3 audited event(s) shipped to the audit"
                                                   " database are not in the audit log")),
                 qPrintable(cross.out + cross.err));
        QVERIFY2(cross.out.contains(QStringLiteral("ALERT the seal recorded in the orders database"
                                                   " seals seq 15 but the audit log has no such"
                                                   " row")),
                 qPrintable(cross.out + cross.err));
    }

    // `audit export` in every format for an auditor, `verify-export` accepting the result and
    // refusing it after a one-byte edit; an agent refused; usage errors exit 2.
    void exportAndVerifyExport_data() { addEngineRows(); }
    void exportAndVerifyExport()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        auto run = [&](const QStringList &args, const QByteArray &in = {}) {
            return runOncepay(QStringList{QStringLiteral("--config"), config} + args, env, in);
        };
        const QByteArray alicePassword = "a long passphrase 1\n";
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
                             "2023-11-14", "--format", format, "--out", out},
                            alicePassword);
            QVERIFY2(ex.exitCode == 0, qPrintable(ex.out + ex.err));
            QVERIFY2(ex.out.startsWith(QStringLiteral("exported 6 audit row(s)")),
                     qPrintable(ex.out));
            QVERIFY(ex.out.contains(QStringLiteral("sealed at seq ")));
            const QString manifest = out + QStringLiteral(".manifest.json");
            QVERIFY(QFile::exists(manifest));
            auto sha = AuditExporter::fileSha256(out);
            QVERIFY(sha.ok());
            QVERIFY(ex.out.contains(QStringLiteral("sha256 ") + *sha));

            CliRun ok = run({"audit", "verify-export", "--as", "alice", manifest}, alicePassword);
            QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));
            QVERIFY(ok.out.startsWith(QStringLiteral("export ok")));

            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray bytes = f.readAll();
            bytes[bytes.size() - 3] = bytes[bytes.size() - 3] ^ 0x01;
            f.seek(0);
            f.write(bytes);
            f.close();
            CliRun bad = run({"audit", "verify-export", "--as", "alice", manifest}, alicePassword);
            QCOMPARE(bad.exitCode, 1);
            QVERIFY2(bad.out.contains(QStringLiteral("the file was changed")), qPrintable(bad.out));
        }

        // An agent who signs in with the right password is still refused: rights follow the role.
        CliRun agent = run({"audit", "export", "--as", "bob", "--out", dir.filePath("bob.csv")},
                           "a long passphrase 2\n");
        QCOMPARE(agent.exitCode, 1);
        QVERIFY2(agent.err.contains(QStringLiteral("may not read the audit trail")),
                 qPrintable(agent.err));
        QVERIFY(!QFile::exists(dir.filePath("bob.csv")));
        {
            Connection orders = openOrDie(dbs->orders());
            QCOMPARE(scalarInt(orders, QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE"
                                                      " action = 'login.succeeded' AND"
                                                      " actor = 'bob'")),
                     1);
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

    // --as signs the account in: a wrong password, an unknown or disabled account and a locked
    // one are refused with the words and exit code of `oncepay fix --user`, nothing is written,
    // and StaffService records the attempt (login.failed, the count, the lock) as for any
    // sign-in; the right password exports, the export's row naming the account and the OS
    // account that ran it.
    void exportSignsTheStaffAccountIn_data() { addEngineRows(); }
    void exportSignsTheStaffAccountIn()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        auto run = [&](const QStringList &args, const QByteArray &in) {
            return runOncepay(QStringList{QStringLiteral("--config"), config} + args, env, in);
        };
        QCOMPARE(run({"db", "migrate"}, {}).exitCode, 0);
        const QByteArray right = "a long passphrase 1\n";
        {
            ManualClock clock(1'700'000'000'000);
            Connection orders = openOrDie(dbs->orders());
            seedOutbox(orders, 6, clock);
            StaffService staff(orders, clock);
            const Actor op = Actor::system(QStringLiteral("test"));
            QVERIFY(staff
                        .add({QStringLiteral("alice"), {}, StaffRole::Auditor},
                             QString::fromLatin1(right.trimmed()), op)
                        .ok());
            QVERIFY(staff
                        .add({QStringLiteral("dora"), {}, StaffRole::Auditor},
                             QString::fromLatin1(right.trimmed()), op)
                        .ok());
            QVERIFY(staff.disable(QStringLiteral("dora"), op, QStringLiteral("left")).ok());
        }
        QCOMPARE(run({"audit", "ship"}, {}).exitCode, 0);
        Connection orders = openOrDie(dbs->orders());
        auto count = [&](const QString &where) {
            return scalarInt(orders,
                             QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE ") + where);
        };
        auto failedAttempts = [&] {
            return scalarInt(orders, QStringLiteral("SELECT failed_attempts FROM staff WHERE"
                                                    " username = 'alice'"));
        };
        const QDir dir(dbs->tempPath());
        const QString out = dir.filePath(QStringLiteral("trail.csv"));
        const QString manifest = out + QStringLiteral(".manifest.json");
        const QStringList exportAs = {"audit", "export", "--out", out, "--as"};
        // No file, no manifest, and no export audited beyond the `exports` made before.
        auto nothingWritten = [&](qint64 exports = 0) {
            return !QFile::exists(out) && !QFile::exists(manifest) &&
                   count(QStringLiteral("action = 'audit.exported'")) == exports;
        };
        const QString refused =
            QStringLiteral("oncepay: sign-in refused for %1 (wrong password, locked or disabled)");

        // A wrong password: refused, nothing written, the failure counted and audited.
        CliRun wrong = run(exportAs + QStringList{"alice"}, "not the password\n");
        QCOMPARE(wrong.exitCode, 1);
        QCOMPARE(wrong.err.trimmed(), refused.arg("alice"));
        QVERIFY(wrong.out.isEmpty());
        QVERIFY(nothingWritten());
        QCOMPARE(failedAttempts(), 1);
        QCOMPARE(count(QStringLiteral("action = 'login.failed' AND actor = 'alice' AND"
                                      " reason = 'wrong_password'")),
                 1);

        // No password at all (a script that gave none): refused before any sign-in is tried.
        CliRun none = run(exportAs + QStringList{"alice"}, {});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains(QStringLiteral("no password for alice")), qPrintable(none.err));
        QVERIFY(nothingWritten());
        QCOMPARE(failedAttempts(), 1);

        // An unknown account: the same words and exit code as `oncepay fix --user`.
        CliRun unknown = run(exportAs + QStringList{"nobody"}, right);
        QCOMPARE(unknown.err.trimmed(), refused.arg("nobody"));
        CliRun fix = run({"fix", "propose", "requeue_message", "stripe:evt_x", "--user", "nobody",
                          "--reason", "poison_message", "--comment", "c"},
                         right);
        QCOMPARE(unknown.exitCode, fix.exitCode);
        QCOMPARE(unknown.err, fix.err);
        QCOMPARE(count(QStringLiteral("action = 'login.failed' AND reason = 'unknown_user'")), 2);
        QVERIFY(nothingWritten());

        // A disabled account, even with its right password.
        CliRun disabled = run(exportAs + QStringList{"dora"}, right);
        QCOMPARE(disabled.exitCode, 1);
        QCOMPARE(disabled.err.trimmed(), refused.arg("dora"));
        QCOMPARE(count(QStringLiteral("action = 'login.refused' AND actor = 'dora' AND"
                                      " reason = 'disabled'")),
                 1);
        QVERIFY(nothingWritten());

        // verify-export signs in the same way.
        CliRun check = run({"audit", "verify-export", "--as", "alice", manifest}, "wrong one\n");
        QCOMPARE(check.exitCode, 1);
        QCOMPARE(check.err.trimmed(), refused.arg("alice"));
        QCOMPARE(failedAttempts(), 2);

        // The right password exports; the sign-in and the export are audited, the export's row
        // naming alice and, as "where", the OS account that ran it.
        CliRun ok = run(exportAs + QStringList{"alice"}, right);
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.out + ok.err));
        QVERIFY(QFile::exists(out) && QFile::exists(manifest));
        QCOMPARE(failedAttempts(), 0);
        QCOMPARE(count(QStringLiteral("action = 'login.succeeded' AND actor = 'alice'")), 1);
        QCOMPARE(count(QStringLiteral("action = 'audit.exported' AND actor = 'alice' AND"
                                      " after_json LIKE '%\"where\":\"cli:%'")),
                 1);
        QVERIFY(QFile::remove(out) && QFile::remove(manifest));

        // Five wrong passwords (auth.max_failed_logins) lock the account: then even the right
        // one is refused, with the same words.
        for (int i = 0; i < 5; ++i)
            QCOMPARE(run(exportAs + QStringList{"alice"}, "guess\n").exitCode, 1);
        QCOMPARE(count(QStringLiteral("action = 'login.locked' AND entity_id = 'alice'")), 1);
        CliRun locked = run(exportAs + QStringList{"alice"}, right);
        QCOMPARE(locked.exitCode, 1);
        QCOMPARE(locked.err.trimmed(), refused.arg("alice"));
        QCOMPARE(count(QStringLiteral("action = 'login.refused' AND actor = 'alice' AND"
                                      " reason = 'locked'")),
                 1);
        QVERIFY(nothingWritten(1));
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
        for (const char *suffix : {"", "-wal", "-shm"})
            QFile::remove(orders + suffix);
        CliRun v = runOncepay({"--config", path, "audit", "verify"}, env);
        QVERIFY2(v.exitCode == 0, qPrintable(v.err + v.out));
        QVERIFY2(v.err.contains(QStringLiteral("could not count")), qPrintable(v.err));
        QVERIFY(!QFile::exists(orders));
    }
};

QTEST_GUILESS_MAIN(TstCliAudit)
#include "tst_cli_audit.moc"
