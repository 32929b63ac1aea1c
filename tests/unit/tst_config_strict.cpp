// The configuration file outside the connection profiles (review of what a newcomer meets,
// findings 1, 3 and 6): README promises "Unknown sections and keys are errors naming their
// line", so a typo'd [general], [log], [seal], [worker] or [channel.*] key, an unknown channel
// section, a channel variable naming no key, or a whole number that is none (tolerance_seconds
// = 5m) is refused at load with `file:line:` — never a setting silently not applied; every
// configuration the repository ships or writes still loads. The configuration keeps the path
// it was resolved to (--config > $ONCEPAY_CONFIG > default) when no file is there yet, so the
// profile editor saves there; and saving the profiles keeps the file's owner and group.

#include "config/appconfig.h"
#include "config/profilestore.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace OncePay;

namespace {

QString writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
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

class TstConfigStrict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void unknownKeysAndBadNumbersAreRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error"); // after "<path>:"
        QTest::newRow("general data_dri")
            << QByteArray("[general]\ndata_dri = /srv\n") << "2: [general] unknown key 'data_dri'";
        QTest::newRow("log levl") << QByteArray("# x\n[log]\nlevl = info\n")
                                  << "3: [log] unknown key 'levl'";
        QTest::newRow("log fil") << QByteArray("[log]\nfil = /x.log\n")
                                 << "2: [log] unknown key 'fil'";
        QTest::newRow("seal keyfile")
            << QByteArray("[seal]\nkeyfile = /k\n") << "2: [seal] unknown key 'keyfile'";
        QTest::newRow("worker lease_second") << QByteArray("[worker]\nlease_second = 5\n")
                                             << "2: [worker] unknown key 'lease_second'";
        QTest::newRow("stripe webhook_secrt") << QByteArray("[channel.stripe]\nwebhook_secrt = x\n")
                                              << "2: [channel.stripe] unknown key 'webhook_secrt'";
        // [gateway]'s keys and numbers are refused by every command (db check, work, …), not
        // only by `oncepay gateway` when it starts (its listen address is parsed then).
        QTest::newRow("gateway lisen")
            << QByteArray("[gateway]\nlisen = 127.0.0.1:9\n") << "2: [gateway] unknown key 'lisen'";
        QTest::newRow("gateway max_batch 1e4")
            << QByteArray("[gateway]\nlisten = 127.0.0.1:9\nmax_batch = 1e4\n")
            << "3: [gateway] max_batch '1e4' is not a whole number from 1 to 5000";
        QTest::newRow("gateway read_timeout_ms 50")
            << QByteArray("[gateway]\nread_timeout_ms = 50\n")
            << "2: [gateway] read_timeout_ms '50' is not a whole number from 100 to 3600000";
        QTest::newRow("paypal has no webhook_secret")
            << QByteArray("[channel.paypal]\nwebhook_id = WH-1\nwebhook_secret = x\n")
            << "3: [channel.paypal] unknown key 'webhook_secret'";
        QTest::newRow("channel.strpe")
            << QByteArray("[log]\n\n[channel.strpe]\nwebhook_secret = x\n")
            << "3: unknown section [channel.strpe]";
        QTest::newRow("tolerance 5m")
            << QByteArray("[channel.stripe]\ntolerance_seconds = 5m\n")
            << "2: [channel.stripe] tolerance_seconds '5m' is not a whole number from 1 to 604800";
        QTest::newRow("tolerance 0")
            << QByteArray("[channel.fedapay]\ntolerance_seconds = 0\n")
            << "2: [channel.fedapay] tolerance_seconds '0' is not a whole number from 1 to 604800";
        QTest::newRow("lease 5s") << QByteArray("[worker]\nlease_seconds = 5s\n")
                                  << "2: [worker] lease_seconds '5s' is not a whole number above 0";
        QTest::newRow("max_attempts 0")
            << QByteArray("[worker]\nmax_attempts = 0\n")
            << "2: [worker] max_attempts '0' is not a whole number above 0";
        QTest::newRow("batch 5000") << QByteArray("[worker]\nbatch = 5000\n")
                                    << "2: [worker] batch '5000' is not a whole number from 1 to "
                                       "1000";
    }
    void unknownKeysAndBadNumbersAreRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString path = writeFile(dir.filePath(QStringLiteral("t.ini")), text);
        auto c = AppConfig::load(path, cleanEnv(dir));
        QVERIFY(!c.ok());
        QCOMPARE(c.error().code, ErrorCode::Invalid);
        QCOMPARE(c.error().message, path + u':' + error);
    }

    // ONCEPAY_<CHANNEL>_<KEY> names a key of [channel.<channel>]: one that names none, or a
    // number that is none, is refused naming the variable.
    void channelVariablesAreChecked()
    {
        QTemporaryDir dir;
        const QString absent = dir.filePath(QStringLiteral("absent.ini"));
        QProcessEnvironment env = cleanEnv(dir);
        env.insert(QStringLiteral("ONCEPAY_STRIPE_WEBHOOK_SECRT"), QStringLiteral("whsec"));
        auto c = AppConfig::load(absent, env);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().message, QStringLiteral("ONCEPAY_STRIPE_WEBHOOK_SECRT: "
                                                   "[channel.stripe] unknown key 'webhook_secrt'"));

        env = cleanEnv(dir);
        env.insert(QStringLiteral("ONCEPAY_KAKAOPAY_TOLERANCE_SECONDS"), QStringLiteral("5m"));
        c = AppConfig::load(absent, env);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().message,
                 QStringLiteral("ONCEPAY_KAKAOPAY_TOLERANCE_SECONDS: [channel.kakaopay] "
                                "tolerance_seconds '5m' is not a whole number from 1 to 604800"));

        env = cleanEnv(dir);
        env.insert(QStringLiteral("ONCEPAY_STRIPE_WEBHOOK_SECRET"), QStringLiteral("whsec_a"));
        env.insert(QStringLiteral("ONCEPAY_PAYPAL_TOLERANCE_SECONDS"), QStringLiteral("60"));
        c = AppConfig::load(absent, env);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->channels.value("stripe").value("webhook_secret"), QStringLiteral("whsec_a"));
        QCOMPARE(c->channels.value("paypal").value("tolerance_seconds"), QStringLiteral("60"));
    }

    // Every key README lists loads and reaches what reads it.
    void everyDocumentedKeyLoads()
    {
        QTemporaryDir dir;
        const QString path = writeFile(
            dir.filePath(QStringLiteral("t.ini")),
            "[general]\ndata_dir = " + dir.filePath("d").toUtf8() +
                "\n[log]\nlevel = warn\nfile = /tmp/x.log\n"
                "[worker]\nlease_seconds = 1\nmax_attempts = 5\nbackoff_base_ms = 100\n"
                "backoff_max_ms = 1000\nbatch = 20\n"
                "[seal]\nkey_file = /k/s.key\npublic_key_file = /k/s.pub\n"
                "[gateway]\nlisten = 127.0.0.1:8080\nbatch_wait_ms = 2\nmax_batch = 256\n"
                "max_queue = 10000\nmax_body_bytes = 262144\nmax_connections = 1024\n"
                "read_timeout_ms = 15000\nidle_timeout_ms = 60000\ndrain_timeout_ms = 25000\n"
                "[channel.stripe]\nwebhook_secret = a,b\ntolerance_seconds = 300\n"
                "[channel.fedapay]\nwebhook_secrets = c\n"
                "[channel.kakaopay]\nwebhook_secret = d\ntolerance_seconds = 604800\n"
                "[channel.paypal]\nwebhook_id = WH-1\ncert_file = /p.pem\ntolerance_seconds = 1\n");
        auto c = AppConfig::load(path, QProcessEnvironment());
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->dataDir, dir.filePath("d"));
        QCOMPARE(c->logLevel, QStringLiteral("warn"));
        QCOMPARE(c->worker.value("batch"), QStringLiteral("20"));
        QCOMPARE(c->seal.value("public_key_file"), QStringLiteral("/k/s.pub"));
        QCOMPARE(c->channels.value("stripe").value("webhook_secret"), QStringLiteral("a,b"));
        QCOMPARE(c->channels.value("paypal").value("cert_file"), QStringLiteral("/p.pem"));
    }

    // The annotated example the package installs, and the configurations the repository's
    // scripts write (docs/screenshots/take.sh, packaging/debcheck.sh), load.
    void shippedConfigurationsLoad()
    {
        QTemporaryDir dir;
        auto example =
            AppConfig::load(QStringLiteral(ONCEPAY_SOURCE_DIR "/packaging/oncepay.ini.example"),
                            QProcessEnvironment());
        QVERIFY2(example.ok(), qPrintable(example.ok() ? QString() : example.error().message));
        QCOMPARE(example->channels.value("paypal").value("webhook_id"),
                 QStringLiteral("WH-REPLACE-ME"));
        for (const QByteArray &text :
             {QByteArray("[general]\ndata_dir = /tmp/w/data\n"),
              QByteArray(
                  "[general]\ndata_dir = /tmp/s/data\n\n[log]\nfile = /tmp/s/oncepay.log\n")}) {
            const QString path = writeFile(dir.filePath(QStringLiteral("s.ini")), text);
            auto c = AppConfig::load(path, QProcessEnvironment());
            QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        }
    }

    // A configuration file that is not there yet keeps its path: --config, else
    // $ONCEPAY_CONFIG, else the default; the profile editor saves there.
    void aMissingFileKeepsItsPath()
    {
        QTemporaryDir dir;
        QDir::setCurrent(dir.path());
        QProcessEnvironment env = cleanEnv(dir);
        env.insert(QStringLiteral("ONCEPAY_CONFIG"), dir.filePath(QStringLiteral("env/y.ini")));

        auto c = AppConfig::load(QStringLiteral("newcfg/x.ini"), env);
        QVERIFY(c.ok());
        QCOMPARE(c->sourcePath, dir.filePath(QStringLiteral("newcfg/x.ini")));
        QVERIFY(!c->fromFile);

        c = AppConfig::load(QString(), env);
        QVERIFY(c.ok());
        QCOMPARE(c->sourcePath, dir.filePath(QStringLiteral("env/y.ini")));
        QVERIFY(!c->fromFile);

        c = AppConfig::load(QString(), cleanEnv(dir));
        QVERIFY(c.ok());
        QCOMPARE(c->sourcePath, AppConfig::defaultConfigPath());

        // Saving the profiles to it creates the file there, which then loads from there.
        auto first = AppConfig::load(QStringLiteral("newcfg/x.ini"), env);
        QVERIFY(ProfileStore::save(first->sourcePath, first->orders, first->audit).ok());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("newcfg/x.ini"))));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("env/y.ini"))));
        auto again = AppConfig::load(QStringLiteral("newcfg/x.ini"), env);
        QVERIFY(again.ok());
        QVERIFY(again->fromFile);
        QCOMPARE(again->sourcePath, first->sourcePath);
    }

    // A 0640 root:daemon file stays 0640 root:daemon after Save (QSaveFile writes a new file
    // owned by whoever saves): /etc/oncepay/oncepay.ini, 0640 root:oncepay, must stay readable
    // by the oncepay units.
    void saveKeepsOwnerGroupAndMode()
    {
        if (::geteuid() != 0)
            QSKIP("changing a file's group to one the user is not in needs root (CI runs as root)");
        const group *daemon = ::getgrnam("daemon");
        if (!daemon)
            QSKIP("no group 'daemon' on this machine");
        QTemporaryDir dir;
        const QString path =
            writeFile(dir.filePath(QStringLiteral("oncepay.ini")),
                      "# kept\n[general]\ndata_dir = " + dir.filePath("d").toUtf8() + "\n");
        const QByteArray native = QFile::encodeName(path);
        QCOMPARE(::chown(native.constData(), 0, daemon->gr_gid), 0);
        QCOMPARE(::chmod(native.constData(), 0640), 0);

        auto c = AppConfig::load(path, QProcessEnvironment());
        QVERIFY(c.ok());
        ConnectionProfile orders = c->orders;
        orders.path = dir.filePath(QStringLiteral("elsewhere/orders.db"));
        QVERIFY(ProfileStore::save(path, orders, c->audit).ok());

        struct stat st {};
        QCOMPARE(::stat(native.constData(), &st), 0);
        QCOMPARE(st.st_uid, uid_t(0));
        QCOMPARE(st.st_gid, daemon->gr_gid);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));
        auto back = AppConfig::load(path, QProcessEnvironment());
        QVERIFY(back.ok());
        QCOMPARE(back->orders.path, orders.path);

        // Someone who may write the folder but cannot give the new file root:daemon (here
        // "nobody") is refused, and the file is left as it was.
        const passwd *nobody = ::getpwnam("nobody");
        if (!nobody)
            QSKIP("no user 'nobody' on this machine");
        QCOMPARE(::chmod(QFile::encodeName(dir.path()).constData(), 0777), 0);
        QCOMPARE(::chmod(native.constData(), 0666), 0); // readable and writable by nobody
        const QByteArray before = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        ConnectionProfile moved = orders;
        moved.path = dir.filePath(QStringLiteral("moved/orders.db"));
        const pid_t child = ::fork();
        if (child == 0) {
            if (::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0)
                ::_exit(2);
            auto r = ProfileStore::save(path, moved, c->audit);
            ::_exit(!r.ok() && r.error().reason == u"owner_not_kept" &&
                            r.error().message.contains(u"cannot keep the owner and group of")
                        ? 0
                        : 1);
        }
        int status = -1;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QFile after(path);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
        QCOMPARE(::stat(native.constData(), &st), 0);
        QCOMPARE(st.st_gid, daemon->gr_gid);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary file left
    }
};

QTEST_GUILESS_MAIN(TstConfigStrict)
#include "tst_config_strict.moc"
