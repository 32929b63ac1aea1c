// `oncepay db migrate` and `oncepay db check` end to end, on every engine.

#include "cliprocess.h"
#include "testdatabases.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

class TstCliDb : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void migrateThenCheck_data() { addEngineRows(); }
    void migrateThenCheck()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);

        CliRun before = runOncepay({"--config", config, "db", "check"}, env);
        if (dbs->dialect() == Dialect::Sqlite) {
            // A check changes nothing: the files that are not there yet are named, not made.
            QCOMPARE(before.exitCode, 4);
            QCOMPARE(before.out.count(QStringLiteral("MISSING")), 3);
            QVERIFY(!QFile::exists(dbs->orders().path));
            QVERIFY(!QFile::exists(dbs->audit().path));
        } else {
            QCOMPARE(before.out.count(QStringLiteral("reachable")), 3);
            QVERIFY2(before.out.contains(QStringLiteral("migration to")), qPrintable(before.out));
        }

        CliRun m = runOncepay({"--config", config, "db", "migrate"}, env);
        QVERIFY2(m.exitCode == 0, qPrintable(m.err));
        QVERIFY(m.out.contains(QStringLiteral("orders:")));
        QVERIFY(m.out.contains(QStringLiteral("applied 0001_initial")));

        CliRun again = runOncepay({"--config", config, "db", "migrate"}, env);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out.count(QStringLiteral("up to date")), 2);

        CliRun check = runOncepay({"--config", config, "db", "check"}, env);
        QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
        QCOMPARE(check.out.count(QStringLiteral("reachable")), 3);
        QVERIFY(!check.out.contains(QStringLiteral("UNREACHABLE")));
        QVERIFY(check.out.contains(QStringLiteral("same database as orders")));
        if (!dbs->orders().password.isEmpty())
            QVERIFY(!check.out.contains(dbs->orders().password));
    }

    // `db check` with a password the server refuses: each role says REFUSED (not unreachable),
    // with what to check, exit 6 (login refused: no outage to wait out), and the password
    // nowhere in what it prints.
    void checkSaysARefusedLogin_data() { addServerEngineRows(); }
    void checkSaysARefusedLogin()
    {
        ONCEPAY_SCRATCH(dbs);
        QProcessEnvironment env;
        const QString config = dbs->writeConfigFile(&env);
        const QString wrong = QStringLiteral("not-the-password-5e1c");
        env.insert(QStringLiteral("ONCEPAY_TEST_DB_PASSWORD"), wrong);
        CliRun check = runOncepay({"--config", config, "db", "check"}, env);
        QCOMPARE(check.exitCode, 6);
        QVERIFY2(check.out.count(QStringLiteral("REFUSED")) == 3 &&
                     !check.out.contains(QStringLiteral("UNREACHABLE")) &&
                     check.out.contains(QStringLiteral("refused the login")),
                 qPrintable(check.out));
        QVERIFY(!check.out.contains(wrong) && !check.err.contains(wrong));
        // The worst state decides, whatever the roles' order: a refused orders login before
        // a missing audit file (the last role checked) still ends with 6, not 4.
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString text = QString::fromUtf8(f.readAll());
            f.close();
            const qsizetype from = text.indexOf(QStringLiteral("\n[audit]"));
            const qsizetype to = text.indexOf(QStringLiteral("\n[messages]"));
            QVERIFY(from > 0 && to > from);
            text.replace(from, to - from,
                         QStringLiteral("\n[audit]\ndriver = sqlite\npath = %1\n")
                             .arg(dbs->tempPath() + QStringLiteral("/no-such-audit.db")));
            const QString mixed = dbs->tempPath() + QStringLiteral("/mixed.ini");
            QFile m(mixed);
            QVERIFY(m.open(QIODevice::WriteOnly | QIODevice::Truncate));
            m.write(text.toUtf8());
            m.close();
            CliRun both = runOncepay({"--config", mixed, "db", "check"}, env);
            QVERIFY2(both.out.contains(QStringLiteral("REFUSED")) &&
                         both.out.contains(QStringLiteral("MISSING")),
                     qPrintable(both.out + both.err));
            QCOMPARE(both.exitCode, 6);
        }
        // Any other command ends with the same 6, in words, without the password.
        CliRun migrate = runOncepay({"--config", config, "db", "migrate"}, env);
        QCOMPARE(migrate.exitCode, 6);
        QVERIFY2(migrate.err.contains(QStringLiteral("refused the login")),
                 qPrintable(migrate.err));
        QVERIFY(!migrate.out.contains(wrong) && !migrate.err.contains(wrong));
    }

    // A configuration file named by --config or $ONCEPAY_CONFIG that is not there (a typo, a
    // missing mount) is refused before anything runs — exit 3, the path named, no database
    // created — instead of migrating the default embedded SQLite files (review console2). Only
    // the default path may be absent.
    void aNamedConfigurationThatIsNotThereIsRefused()
    {
        QTemporaryDir dir;
        const QString typo = dir.filePath("etc-oncepay.ni");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("ONCEPAY_CONFIG");
        env.insert("XDG_DATA_HOME", dir.filePath("xdg-data"));
        env.insert("XDG_CONFIG_HOME", dir.filePath("xdg-config"));
        CliRun named = runOncepay({"--config", typo, "db", "migrate"}, env);
        QCOMPARE(named.exitCode, 3);
        QVERIFY2(named.err.contains(typo + " does not exist (named by --config)"),
                 qPrintable(named.err));
        QProcessEnvironment viaEnv = env;
        viaEnv.insert("ONCEPAY_CONFIG", typo);
        CliRun fromEnv = runOncepay({"db", "migrate"}, viaEnv);
        QCOMPARE(fromEnv.exitCode, 3);
        QVERIFY2(fromEnv.err.contains("(named by $ONCEPAY_CONFIG)"), qPrintable(fromEnv.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("xdg-data")));
        // The default path absent: the embedded databases, as before.
        CliRun defaults = runOncepay({"db", "migrate"}, env);
        QVERIFY2(defaults.exitCode == 0, qPrintable(defaults.err));
        QVERIFY(QFileInfo::exists(dir.filePath("xdg-data/oncepay/orders.db")));
    }

    // `db check` on SQLite profiles whose files do not exist: each missing database named with
    // its path and how to create it, exit code 4 (unavailable), and nothing created — no
    // file, no folder, no -wal/-shm. One present and one missing: only that one reported.
    void checkOfMissingSqliteFilesCreatesNothing()
    {
        QTemporaryDir dir;
        const QString data = dir.filePath("not-yet");
        const QString orders = data + "/orders.db", audit = data + "/audit.db";
        const QString path = dir.filePath("oncepay.ini");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("[orders]\ndriver = sqlite\npath = %1\n\n[audit]\ndriver = "
                               "sqlite\npath = %2\n\n[log]\nfile = %3\n")
                    .arg(orders, audit, dir.filePath("cli.log"))
                    .toUtf8());
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.filePath("xdg-data"));

        CliRun check = runOncepay({"--config", path, "db", "check"}, env);
        QCOMPARE(check.exitCode, 4);
        for (const auto &[role, file] : {std::pair{QStringLiteral("orders"), orders},
                                         std::pair{QStringLiteral("messages"), orders},
                                         std::pair{QStringLiteral("audit"), audit}})
            QVERIFY2(check.out.contains(
                         QStringLiteral("the %1 database file %2 does not exist; run `oncepay db "
                                        "migrate` to create it")
                             .arg(role, file)),
                     qPrintable(check.out));
        QCOMPARE(check.out.count(QStringLiteral("MISSING")), 3);
        QVERIFY(!QFileInfo::exists(data));
        QVERIFY(!QFileInfo::exists(dir.filePath("xdg-data")));
        QFile log(dir.filePath("cli.log"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(log.readAll().contains("the audit database file"));

        // Created by the command that creates databases; then only the missing one is named.
        CliRun m = runOncepay({"--config", path, "db", "migrate"}, env);
        QVERIFY2(m.exitCode == 0, qPrintable(m.err));
        QVERIFY(QFile::remove(audit));
        for (const char *suffix : {"-wal", "-shm"})
            QFile::remove(audit + QLatin1String(suffix));
        CliRun half = runOncepay({"--config", path, "db", "check"}, env);
        QCOMPARE(half.exitCode, 4);
        QCOMPARE(half.out.count(QStringLiteral("MISSING")), 1);
        QCOMPARE(half.out.count(QStringLiteral("reachable")), 2);
        QVERIFY(half.out.contains(
            QStringLiteral("the audit database file %1 does not exist").arg(audit)));
        QVERIFY(!QFileInfo::exists(audit));
        QVERIFY(!QFileInfo::exists(audit + "-wal"));
        QVERIFY(!QFileInfo::exists(audit + "-shm"));
    }

    void missingConfigUsesEmbeddedDefaults()
    {
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", home.filePath("config"));
        env.insert("XDG_DATA_HOME", home.filePath("data"));
        env.remove("ONCEPAY_CONFIG");
        CliRun first = runOncepay({"db", "check"}, env); // a fresh install: nothing made
        QCOMPARE(first.exitCode, 4);
        QVERIFY(first.out.contains(QStringLiteral("run `oncepay db migrate` to create it")));
        QVERIFY(!QFile::exists(home.filePath("data/oncepay/orders.db")));
        QVERIFY(!QFile::exists(home.filePath("data/oncepay/audit.db")));
        CliRun m = runOncepay({"db", "migrate"}, env);
        QVERIFY2(m.exitCode == 0, qPrintable(m.err));
        QVERIFY(QFile::exists(home.filePath("data/oncepay/orders.db")));
        QVERIFY(QFile::exists(home.filePath("data/oncepay/audit.db")));
        CliRun check = runOncepay({"db", "check"}, env);
        QCOMPARE(check.exitCode, 0);
        QCOMPARE(check.out.count(QStringLiteral("reachable")), 3);
    }

    void malformedConfigIsOneClearLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.ini");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[orders]\ndriver = postgresql\nthis line is wrong\n");
        f.close();
        CliRun r =
            runOncepay({"--config", path, "db", "check"}, QProcessEnvironment::systemEnvironment());
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.err.trimmed().count(u'\n'), 0);
        QVERIFY2(r.err.contains(QStringLiteral("bad.ini:3")), qPrintable(r.err));
    }

    void unreachableServerExitsNonZero()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("pg.ini");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "[orders]\ndriver = postgresql\nhost = 127.0.0.1\nport = 1\ndatabase = x\nuser = u\n");
        f.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.filePath("data"));
        CliRun r = runOncepay({"--config", path, "db", "migrate"}, env);
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.startsWith(QStringLiteral("oncepay: orders:")), qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("Segmentation")));
    }

    void versionAndHelp()
    {
        const auto env = QProcessEnvironment::systemEnvironment();
        CliRun v = runOncepay({"--version"}, env);
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.startsWith(QStringLiteral("oncepay ")));
        CliRun h = runOncepay({"--help"}, env);
        QCOMPARE(h.exitCode, 0);
        QVERIFY(h.out.contains(QStringLiteral("db migrate")));
        QVERIFY(h.out.contains(QStringLiteral("Exit codes")));
        CliRun u = runOncepay({"no-such-command"}, env);
        QCOMPARE(u.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TstCliDb)
#include "tst_cli_db.moc"
