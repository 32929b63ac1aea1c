// `oncepay db migrate` and `oncepay db check` end to end, on every engine.

#include "cliprocess.h"
#include "testdatabases.h"

#include <QFile>
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
        QCOMPARE(before.out.count(QStringLiteral("reachable")), 3);
        QVERIFY2(before.out.contains(QStringLiteral("migration to")), qPrintable(before.out));

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

    void missingConfigUsesEmbeddedDefaults()
    {
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", home.filePath("config"));
        env.insert("XDG_DATA_HOME", home.filePath("data"));
        env.remove("ONCEPAY_CONFIG");
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
