// What the built console says before anyone signs in, in English and 简体中文 (review rev-shell,
// finding 3b and 3c): a database password asked for names the database's role and why it is
// asked in the interface language (not the profile key's English "no password_env variable ..."
// nor the role's code); a configuration it cannot use says in the interface language what to
// do, the loader's line naming the option and never the secret's value. Read through the
// console's --screenshot-text (offscreen); ONCEPAY_SHOT_DIR keeps the pictures.

#include "common/language.h"
#include "config/appconfig.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace OncePay;

namespace {

struct ConsoleStartRun {
    int exitCode = -1;
    QString text; // the captured dialog's title and labels
    QString log;
};

// The console on `config` in `lang`, captured after a second and a half.
ConsoleStartRun runConsoleStart(const QTemporaryDir &dir, const QString &config,
                                const QString &lang, const QString &shotName)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys())
        if (key.startsWith(QStringLiteral("ONCEPAY_")) && key != u"ONCEPAY_BIN_DIR")
            env.remove(key); // no password or setting from the environment
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("xdg-config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("xdg-data")));
    const QString shotDir = qEnvironmentVariable("ONCEPAY_SHOT_DIR", dir.path());
    const QString png = shotDir + u'/' + shotName + u'-' + lang + QStringLiteral(".png");
    const QString txt = dir.filePath(shotName + u'-' + lang + QStringLiteral(".txt"));
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(qEnvironmentVariable("ONCEPAY_BIN_DIR") + QStringLiteral("/oncepay-console"),
                  {QStringLiteral("--config"), config, QStringLiteral("--lang"), lang,
                   QStringLiteral("--screenshot"), png, QStringLiteral("--screenshot-delay"),
                   QStringLiteral("1500"), QStringLiteral("--screenshot-text"), txt});
    ConsoleStartRun run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished(5000);
        return run;
    }
    run.exitCode = process.exitCode();
    run.log = QString::fromUtf8(process.readAllStandardError());
    QFile f(txt);
    if (f.open(QIODevice::ReadOnly))
        run.text = QString::fromUtf8(f.readAll());
    return run;
}

QString writeConfig(const QTemporaryDir &dir, const QString &name, const QString &orders)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    QTextStream out(&f);
    out << "[general]\ndata_dir = " << dir.path() << "\n\n[orders]\n"
        << orders << "\n[messages]\nsame_as = orders\n\n[audit]\ndriver = sqlite\npath = "
        << dir.filePath(QStringLiteral("audit.db"))
        << "\n\n[log]\nfile = " << dir.filePath(QStringLiteral("console.log")) << '\n';
    return path;
}

QString inQObject(const char *source, const char *comment = nullptr)
{
    return QCoreApplication::translate("QObject", source, comment);
}

} // namespace

class TstConsoleStartWords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { Language::apply(QStringLiteral("en")); }

    void aPasswordAskedForSaysWhyInTheInterfaceLanguage_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void aPasswordAskedForSaysWhyInTheInterfaceLanguage()
    {
        QFETCH(QString, lang);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A server profile with neither password_env nor a keychain entry: asked at start.
        const QString config = writeConfig(dir, QStringLiteral("ask.ini"),
                                           QStringLiteral("driver = postgresql\nhost = 127.0.0.1"
                                                          "\nport = 1\ndatabase = oncepay_orders"
                                                          "\nuser = oncepay_console\n"));
        auto loaded = AppConfig::load(config);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().message));
        QVERIFY(loaded->orders.needsPassword());

        const ConsoleStartRun run = runConsoleStart(dir, config, lang, QStringLiteral("password"));
        QCOMPARE(run.exitCode, 0); // the question cancelled by the screenshot's quit
        Language::apply(lang);
        const QString prompt =
            inQObject("Password for the %1 database %2\n(%3):")
                .arg(inQObject("orders", "the orders database"), loaded->orders.describe(),
                     inQObject("its connection profile names no password environment variable"
                               " (password_env) and no keychain entry"));
        QVERIFY2(run.text.startsWith(inQObject("Database password") + u'\n'),
                 qPrintable(run.text + run.log));
        QVERIFY2(run.text.contains(prompt), qPrintable(run.text + run.log));
        // The profile key's English and the role's code are not what the person reads.
        QVERIFY2(!run.text.contains(QStringLiteral("no password_env variable")),
                 qPrintable(run.text));
        if (lang == u"en")
            QVERIFY(run.text.contains(QStringLiteral(
                "Password for the orders database postgresql://oncepay_console@127.0.0.1:1/"
                "oncepay_orders\n(its connection profile names no password environment variable"
                " (password_env) and no keychain entry):")));
        // The log keeps the English reason.
        QVERIFY2(run.log.contains(QStringLiteral("orders database: password asked for (no "
                                                 "password_env variable and no keychain entry"
                                                 " is set)")),
                 qPrintable(run.log));
    }

    void aConfigurationRefusedSaysWhatToDo_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }
    void aConfigurationRefusedSaysWhatToDo()
    {
        QFETCH(QString, lang);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString config = writeConfig(
            dir, QStringLiteral("secret.ini"),
            QStringLiteral("driver = postgresql\nhost = 127.0.0.1\nport = 1\ndatabase = "
                           "oncepay_orders\nuser = oncepay_console\noptions = "
                           "connect_timeout=5;password=hunter2-7Qx\n"));
        auto refused = AppConfig::load(config);
        QVERIFY(!refused.ok());

        const ConsoleStartRun run = runConsoleStart(dir, config, lang, QStringLiteral("config"));
        QCOMPARE(run.exitCode, 3);
        Language::apply(lang);
        const QString said =
            inQObject("The configuration cannot be used. Correct what is named below, in the"
                      " configuration file or the environment variable it names, and start the"
                      " console again.\n\n%1")
                .arg(refused.error().message);
        QVERIFY2(run.text.contains(said), qPrintable(run.text + run.log));
        QVERIFY2(run.text.contains(QStringLiteral("the option 'password' would carry a secret")),
                 qPrintable(run.text));
        QVERIFY2(!run.text.contains(QStringLiteral("hunter2")), qPrintable(run.text));
        QVERIFY2(!run.log.contains(QStringLiteral("hunter2")), qPrintable(run.log));
    }
};

QTEST_MAIN(TstConsoleStartWords)
#include "tst_console_start_words.moc"
