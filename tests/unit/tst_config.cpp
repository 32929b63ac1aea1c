#include "config/appconfig.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;

namespace {

QString writeFile(const QTemporaryDir &dir, const QByteArray &text)
{
    const QString path = dir.filePath(QStringLiteral("oncepay.ini"));
    QFile f(path);
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(text);
    return path;
}

QProcessEnvironment cleanEnv(const QTemporaryDir &dir)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("ONCEPAY_DATA_DIR"), dir.filePath(QStringLiteral("data")));
    return env;
}

} // namespace

class TstConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void missingFileGivesEmbeddedDefaults()
    {
        QTemporaryDir dir;
        auto c = AppConfig::load(dir.filePath(QStringLiteral("absent.ini")), cleanEnv(dir));
        QVERIFY(c.ok());
        QCOMPARE(c->orders.dialect, Dialect::Sqlite);
        QCOMPARE(c->orders.path, dir.filePath(QStringLiteral("data/orders.db")));
        QCOMPARE(c->audit.path, dir.filePath(QStringLiteral("data/audit.db")));
        QVERIFY(c->messages.sameAsOrders);
        QCOMPARE(c->profile(DbRole::Messages).path, c->orders.path);
        QVERIFY(!c->fromFile);
        QCOMPARE(c->sourcePath, dir.filePath(QStringLiteral("absent.ini")));
    }

    void fullPostgresProfile()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "# comment\n[orders]\ndriver = postgresql\nhost = db1\n"
                                            "database = oncepay\nuser = app\npassword_env = PGPW\n"
                                            "[messages]\nsame_as = orders\n"
                                            "[audit]\ndriver = mysql\nhost = audit1\nport = 3307\n"
                                            "database = oncepay_audit\nuser = auditor\n");
        auto env = cleanEnv(dir);
        env.insert(QStringLiteral("PGPW"), QStringLiteral("s3cret"));
        env.insert(QStringLiteral("ONCEPAY_AUDIT_PASSWORD"), QStringLiteral("a-pw"));
        auto c = AppConfig::load(path, env);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->orders.dialect, Dialect::Postgres);
        QCOMPARE(c->orders.port, 5432);
        QCOMPARE(c->orders.password, QStringLiteral("s3cret"));
        QCOMPARE(c->audit.dialect, Dialect::MySql);
        QCOMPARE(c->audit.port, 3307);
        QCOMPARE(c->audit.password, QStringLiteral("a-pw"));
        QVERIFY(!c->orders.describe().contains(QStringLiteral("s3cret")));
    }

    void environmentOverridesFile()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, "[orders]\ndriver = sqlite\npath = /tmp/a.db\n");
        auto env = cleanEnv(dir);
        env.insert(QStringLiteral("ONCEPAY_ORDERS_PATH"), QStringLiteral("/tmp/b.db"));
        auto c = AppConfig::load(path, env);
        QVERIFY(c.ok());
        QCOMPARE(c->orders.path, QStringLiteral("/tmp/b.db"));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("garbage line")
            << QByteArray("[orders]\nthis is not ini\n") << "oncepay.ini:2";
        QTest::newRow("key outside section") << QByteArray("driver = sqlite\n") << "outside";
        QTest::newRow("unknown driver") << QByteArray("[orders]\ndriver = oracle\n") << "[orders]";
        QTest::newRow("plain password") << QByteArray("[audit]\ndriver = postgresql\ndatabase = a\n"
                                                      "password = hunter2\n")
                                        << "never stored";
        QTest::newRow("bad port") << QByteArray("[orders]\ndriver = postgresql\ndatabase = x\n"
                                                "port = 99999\n")
                                  << "port";
        QTest::newRow("server without database")
            << QByteArray("[orders]\ndriver = mysql\n") << "database";
        // Errors name the file's line (README: "Unknown sections and keys are errors naming
        // their line").
        QTest::newRow("unknown key") << QByteArray("# c\n[orders]\ndrvier = sqlite\n")
                                     << "oncepay.ini:3: [orders] unknown key 'drvier'";
        QTest::newRow("unknown section") << QByteArray("[log]\nlevel = info\n\n[order]\n")
                                         << "oncepay.ini:4: unknown section [order]";
        QTest::newRow("bad port line")
            << QByteArray("[orders]\ndriver = postgresql\ndatabase = x\nport = 0\n")
            << "oncepay.ini:4:";
        QTest::newRow("bad log level")
            << QByteArray("[log]\n\nlevel = loud\n") << "oncepay.ini:3: unknown log level 'loud'";
        QTest::newRow("messages elsewhere")
            << QByteArray("[messages]\ndriver = sqlite\npath = /tmp/other.db\n") << "messages";
        QTest::newRow("not utf8") << QByteArray("[orders]\npath = \xff\xfe\n") << "UTF-8";
    }

    // A log level the program cannot use is a configuration error (exit 3 from the CLI), from
    // the environment as from the file, naming where it came from.
    void badLogLevelFromEnvironment()
    {
        QTemporaryDir dir;
        QProcessEnvironment env = cleanEnv(dir);
        env.insert(QStringLiteral("ONCEPAY_LOG_LEVEL"), QStringLiteral("loud"));
        auto c = AppConfig::load(dir.filePath(QStringLiteral("absent.ini")), env);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, ErrorCode::Invalid);
        QVERIFY2(c.error().message.startsWith(
                     QStringLiteral("ONCEPAY_LOG_LEVEL: unknown log level 'loud'")),
                 qPrintable(c.error().message));
        env.insert(QStringLiteral("ONCEPAY_LOG_LEVEL"), QStringLiteral("warn"));
        QVERIFY(AppConfig::load(dir.filePath(QStringLiteral("absent.ini")), env).ok());
    }

    void badFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString path = writeFile(dir, text);
        auto c = AppConfig::load(path, cleanEnv(dir));
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.contains(mentions), qPrintable(c.error().message));
        QVERIFY(!c.error().message.contains(QStringLiteral("hunter2")));
    }
};

QTEST_GUILESS_MAIN(TstConfig)
#include "tst_config.moc"
