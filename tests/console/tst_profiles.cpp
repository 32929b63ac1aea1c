// Connection profiles (issue 8): the editor's rules in services/config (checked like
// AppConfig::load, saved without ever writing a password, other sections kept), passwords
// from a keychain entry or asked at start, and the editor dialog offscreen — test a profile
// (driver, server and schema versions), refuse bad input with nothing written, save and
// switch with the password in the keychain only. On PostgreSQL and MariaDB when configured.

#include "config/appconfig.h"
#include "config/profilestore.h"
#include "config/secretstore.h"
#include "connections/connectionprofilesdialog.h"
#include "connections/profileform.h"
#include "db/connection.h"
#include "db/migrator.h"
#include "logcapture.h"
#include "testdatabases.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

class MemoryStore : public SecretStore {
public:
    bool up = true;
    QMap<QString, QString> entries;
    bool available() const override { return up; }
    Result<QString> read(const QString &key) override
    {
        if (!up)
            return makeError(ErrorCode::Unavailable, "no keychain");
        if (!entries.contains(key))
            return makeError(ErrorCode::NotFound, "no entry " + key);
        return entries.value(key);
    }
    Result<void> write(const QString &key, const QString &secret) override
    {
        if (!up)
            return makeError(ErrorCode::Unavailable, "no keychain");
        entries.insert(key, secret);
        return {};
    }
    Result<void> remove(const QString &key) override
    {
        entries.remove(key);
        return {};
    }
};

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

ConnectionProfile server(DbRole role, Dialect d)
{
    ConnectionProfile p;
    p.role = role;
    p.dialect = d;
    p.host = "db.example";
    p.port = d == Dialect::Postgres ? 5432 : 3306;
    p.database = "oncepay";
    p.user = "console";
    return p;
}

} // namespace

class TstProfiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validateUsesTheLoadersRules()
    {
        ConnectionProfile p = server(DbRole::Orders, Dialect::Postgres);
        QVERIFY(ProfileStore::validate(p).ok());
        p.database.clear();
        auto r = ProfileStore::validate(p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains("database"), qPrintable(r.error().message));
        p = server(DbRole::Audit, Dialect::MySql);
        p.host.clear();
        QVERIFY(!ProfileStore::validate(p).ok());
        p = server(DbRole::Audit, Dialect::MySql);
        p.options = "a=1\n[orders]";
        QVERIFY(!ProfileStore::validate(p).ok()); // no line breaks smuggled into the file
        ConnectionProfile sqlite;
        sqlite.role = DbRole::Orders;
        QVERIFY(!ProfileStore::validate(sqlite).ok()); // needs a path
        sqlite.path = "/tmp/x.db";
        QVERIFY(ProfileStore::validate(sqlite).ok());
    }

    void saveKeepsOtherSectionsAndNeverWritesAPassword()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("conf/oncepay.ini");
        QVERIFY(QDir().mkpath(dir.filePath("conf")));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# my settings\n[general]\ndata_dir = /srv/oncepay\n\n[orders]\ndriver = sqlite\n"
                "path = /old/orders.db\n\n[channel.stripe]\nwebhook_secret = whsec_kept\n"
                "[audit]\ndriver = sqlite\npath = /old/audit.db\n");
        f.close();

        ConnectionProfile orders = server(DbRole::Orders, Dialect::Postgres);
        orders.password = "s3cret-typed";
        orders.passwordKeychain = ProfileStore::keychainKey(orders);
        ConnectionProfile audit = server(DbRole::Audit, Dialect::MySql);
        audit.password = "another-s3cret";
        audit.passwordEnv = "AUDIT_PW";
        QVERIFY(ProfileStore::save(path, orders, audit).ok());

        const QString text = readAll(path);
        QVERIFY(!text.contains("s3cret"));
        QVERIFY(text.contains("# my settings"));
        QVERIFY(text.contains("webhook_secret = whsec_kept"));
        QVERIFY(!text.contains("/old/"));
        QCOMPARE(text.count("[orders]"), 1);

        QProcessEnvironment env;
        env.insert("AUDIT_PW", "from-env");
        auto loaded = AppConfig::load(path, env);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().message));
        QCOMPARE(loaded->dataDir, QStringLiteral("/srv/oncepay"));
        QCOMPARE(loaded->orders.dialect, Dialect::Postgres);
        QCOMPARE(loaded->orders.passwordKeychain,
                 QStringLiteral("orders/console@db.example:5432/oncepay"));
        QVERIFY(loaded->orders.needsPassword());
        QCOMPARE(loaded->audit.password, QStringLiteral("from-env"));
        QVERIFY(loaded->messages.sameAsOrders);
        QCOMPARE(loaded->channels.value("stripe").value("webhook_secret"),
                 QStringLiteral("whsec_kept"));

        // Bad input changes nothing.
        ConnectionProfile broken = orders;
        broken.database.clear();
        QVERIFY(!ProfileStore::save(path, broken, audit).ok());
        QCOMPARE(readAll(path), text);
        // (The loader's refusal of a `password` key in the file is tst_config's badFiles
        // "plain password"; a secret in `options` is secretOptionsAreRefused below.)
    }

    void secretOptionsAreRefused_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("key"); // empty: allowed
        QTest::newRow("password") << "password=hunter2"
                                  << "password";
        QTest::newRow("after another, any case") << "sslmode=require;PassWord = hunter2"
                                                 << "PassWord";
        QTest::newRow("libpq conninfo, spaces") << "sslmode=require password='hunter2'"
                                                << "password";
        QTest::newRow("passfile") << "passfile=/home/me/.pgpass"
                                  << "passfile";
        QTest::newRow("sslpassword") << "sslkey=/k.pem;sslpassword=hunter2"
                                     << "sslpassword";
        QTest::newRow("mysql passwd") << "MYSQL_OPT_CONNECT_TIMEOUT=3;passwd=hunter2"
                                      << "passwd";
        QTest::newRow("pwd") << "PWD=hunter2"
                             << "PWD";
        QTest::newRow("tls passphrase") << "MARIADB_OPT_TLS_PASSPHRASE=hunter2"
                                        << "MARIADB_OPT_TLS_PASSPHRASE";
        QTest::newRow("uri credentials") << "dbname=postgresql://app:hunter2@db/oncepay"
                                         << "dbname";
        QTest::newRow("ssl options") << "sslmode=verify-full;sslrootcert=/ca.pem"
                                     << "";
        QTest::newRow("mysql options") << "SSL_KEY=/k.pem;SSL_CERT=/c.pem;CLIENT_COMPRESS=1"
                                       << "";
        QTest::newRow("a value with pass in it") << "application_name=passenger"
                                                 << "";
        QTest::newRow("uri without password") << "dbname=postgresql://app@db/oncepay"
                                              << "";
    }

    // Issue 8: a password in the free-text driver options would be written to the file in
    // clear. Refused by the rule, by the editor's check and save, and by the loader (a file
    // or an environment variable that has one is not loaded), naming the option and never
    // its value, in the error and in the log.
    void secretOptionsAreRefused()
    {
        QFETCH(QString, options);
        QFETCH(QString, key);
        QCOMPARE(secretOption(options), key);
        if (key.isEmpty()) {
            ConnectionProfile p = server(DbRole::Orders, Dialect::Postgres);
            p.options = options;
            QVERIFY(ProfileStore::validate(p).ok());
            return;
        }

        LogCapture log;

        for (Dialect d : {Dialect::Postgres, Dialect::MySql}) {
            ConnectionProfile p = server(DbRole::Audit, d);
            p.options = options;
            auto r = ProfileStore::validate(p);
            QVERIFY(!r.ok());
            QCOMPARE(r.error().reason, QStringLiteral("secret_in_options"));
            QVERIFY2(r.error().message.contains("'" + key + "'"), qPrintable(r.error().message));
            QVERIFY(!r.error().message.contains("hunter2"));
        }

        // Saving refuses it: nothing written.
        QTemporaryDir dir;
        const QString path = dir.filePath("oncepay.ini");
        ConnectionProfile orders = server(DbRole::Orders, Dialect::Postgres);
        orders.options = options;
        ConnectionProfile audit;
        audit.role = DbRole::Audit;
        audit.path = dir.filePath("audit.db");
        QVERIFY(!ProfileStore::save(path, orders, audit).ok());
        QVERIFY(!QFile::exists(path));

        // An existing file with such an option is not loaded: the error names the key.
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("[orders]\ndriver = postgresql\ndatabase = oncepay\noptions = %1\n")
                    .arg(options)
                    .toUtf8());
        f.close();
        auto loaded = AppConfig::load(path, QProcessEnvironment());
        QVERIFY(!loaded.ok());
        const QString why = loaded.error().message;
        QVERIFY2(why.contains("[orders]") && why.contains("'" + key + "'"), qPrintable(why));
        QVERIFY2(why.contains(path), qPrintable(why));
        QVERIFY2(!why.contains("hunter2"), qPrintable(why));
        QCOMPARE(loaded.error().reason, QStringLiteral("secret_in_options"));

        // Nor from the environment (ONCEPAY_<ROLE>_OPTIONS).
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("[audit]\ndriver = mysql\ndatabase = oncepay_audit\n");
        f.close();
        QProcessEnvironment env;
        env.insert("ONCEPAY_AUDIT_OPTIONS", options);
        loaded = AppConfig::load(path, env);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().message.contains("ONCEPAY_AUDIT_OPTIONS"),
                 qPrintable(loaded.error().message));
        QVERIFY(!loaded.error().message.contains("hunter2"));

        const QString logged = log.text();
        QVERIFY2(logged.contains("option '" + key + "'"), qPrintable(logged));
        QVERIFY2(!logged.contains("hunter2"), qPrintable(logged));
    }

    void theEditorRefusesASecretOption()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("oncepay.ini");
        MemoryStore store;
        ConnectionProfilesDialog dialog(AppConfig::defaults(dir.path()), path, &store);
        LogCapture log;

        ProfileForm *orders = dialog.form(DbRole::Orders);
        ConnectionProfile p = server(DbRole::Orders, Dialect::Postgres);
        p.password = "typed";
        p.options = "sslmode=require password=hunter2";
        orders->setProfile(p);
        // Not even tested with it.
        QSignalSpy tested(orders, &ProfileForm::tested);
        orders->test();
        QVERIFY2(orders->testResult().contains("“password”"), qPrintable(orders->testResult()));
        QVERIFY(!orders->testResult().contains("hunter2"));
        QTest::qWait(50);
        QCOMPARE(tested.count(), 0);

        dialog.saveButton()->click();
        QVERIFY(dialog.result() != QDialog::Accepted);
        QVERIFY2(dialog.message().contains("“password”"), qPrintable(dialog.message()));
        QVERIFY(!dialog.message().contains("hunter2"));
        QVERIFY(!QFile::exists(path));
        const QString logged = log.text();
        QVERIFY2(logged.contains("'password'"), qPrintable(logged));
        QVERIFY(!logged.contains("hunter2"));

        // Without it, the same profile saves.
        orders->findChild<QLineEdit *>("options")->setText("sslmode=require");
        dialog.saveButton()->click();
        QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.message()));
        QVERIFY(readAll(path).contains("options = sslmode=require\n"));
    }

    void staleKeychainEntries()
    {
        ConnectionProfile orders = server(DbRole::Orders, Dialect::Postgres);
        orders.passwordKeychain = "orders/a";
        ConnectionProfile audit = server(DbRole::Audit, Dialect::MySql);
        audit.passwordKeychain = "shared";
        ConnectionProfile orders2 = orders;
        orders2.passwordKeychain = "orders/b";
        ConnectionProfile audit2 = audit;
        QCOMPARE(ProfileStore::staleKeychainEntries({orders, audit}, {orders2, audit2}),
                 QStringList{"orders/a"});
        // An entry another profile still names stays.
        orders2.passwordKeychain = "shared";
        audit2.passwordKeychain.clear();
        QCOMPARE(ProfileStore::staleKeychainEntries({orders, audit}, {orders2, audit2}),
                 QStringList{"orders/a"});
        // Now SQLite: its entry is no longer used.
        orders2 = ConnectionProfile();
        orders2.path = "/tmp/o.db";
        orders2.passwordKeychain = "orders/a"; // a SQLite profile uses no password
        QCOMPARE(ProfileStore::staleKeychainEntries({orders, audit}, {orders2, audit}),
                 QStringList{"orders/a"});
        QVERIFY(ProfileStore::staleKeychainEntries({orders, audit}, {orders, audit}).isEmpty());
    }

    // Issue 8: the editor removes the keychain entry no profile names any more once it has
    // saved: the server, user or database changed (a new entry), the password is no longer
    // kept there, the profile became SQLite. A failed save leaves the keychain as it was.
    void theEditorRemovesStaleKeychainEntries()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("oncepay.ini");
        AppConfig config = AppConfig::defaults(dir.path());
        config.orders = server(DbRole::Orders, Dialect::Postgres);
        config.orders.password = "orders-pw";
        config.orders.passwordKeychain = ProfileStore::keychainKey(config.orders);
        config.audit = server(DbRole::Audit, Dialect::MySql);
        config.audit.password = "audit-pw";
        config.audit.passwordKeychain = ProfileStore::keychainKey(config.audit);
        const QString oldOrders = config.orders.passwordKeychain;
        const QString oldAudit = config.audit.passwordKeychain;
        MemoryStore store;
        store.entries.insert(oldOrders, "orders-pw");
        store.entries.insert(oldAudit, "audit-pw");

        // The orders database changes: a new entry, the old one removed; audit unchanged.
        {
            ConnectionProfilesDialog dialog(config, path, &store);
            ProfileForm *orders = dialog.form(DbRole::Orders);
            QCOMPARE(orders->passwordSource(), ProfileForm::Keychain);
            orders->findChild<QLineEdit *>("database")->setText("oncepay2");
            orders->findChild<QLineEdit *>("password")->setText("orders-pw2");
            dialog.saveButton()->click();
            QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.message()));
            const QString newOrders = ProfileStore::keychainKey(dialog.config().orders);
            QCOMPARE(newOrders, QStringLiteral("orders/console@db.example:5432/oncepay2"));
            QCOMPARE(store.entries.value(newOrders), QStringLiteral("orders-pw2"));
            QVERIFY(!store.entries.contains(oldOrders));
            QCOMPARE(store.entries.value(oldAudit), QStringLiteral("audit-pw"));
            QCOMPARE(store.entries.size(), 2);
            config = dialog.config();
        }
        const QString newOrders = config.orders.passwordKeychain;

        // A save that fails (the folder cannot be made) writes nothing, keychain included.
        QFile blocker(dir.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        {
            ConnectionProfilesDialog dialog(config, dir.filePath("file/oncepay.ini"), &store);
            ProfileForm *orders = dialog.form(DbRole::Orders);
            orders->findChild<QLineEdit *>("user")->setText("someone");
            orders->findChild<QLineEdit *>("password")->setText("other");
            orders = dialog.form(DbRole::Audit);
            orders->findChild<QLineEdit *>("password")->setText("audit-pw-new");
            dialog.saveButton()->click();
            QVERIFY(dialog.result() != QDialog::Accepted);
            QCOMPARE(store.entries.size(), 2);
            QCOMPARE(store.entries.value(newOrders), QStringLiteral("orders-pw2"));
            QCOMPARE(store.entries.value(oldAudit), QStringLiteral("audit-pw"));
        }

        // The password field cleared while the keychain keeps it: refused, nothing removed.
        {
            ConnectionProfilesDialog dialog(config, path, &store);
            dialog.form(DbRole::Orders)->findChild<QLineEdit *>("password")->clear();
            dialog.saveButton()->click();
            QVERIFY(dialog.result() != QDialog::Accepted);
            QVERIFY2(dialog.message().contains("cleared"), qPrintable(dialog.message()));
            QCOMPARE(store.entries.size(), 2);
        }

        // Orders' password now asked at each start, audit on SQLite: both entries removed.
        {
            ConnectionProfilesDialog dialog(config, path, &store);
            auto *source = dialog.form(DbRole::Orders)->findChild<QComboBox *>("passwordSource");
            source->setCurrentIndex(source->findData(int(ProfileForm::AskAtStart)));
            ProfileForm *audit = dialog.form(DbRole::Audit);
            auto *driver = audit->findChild<QComboBox *>("driver");
            driver->setCurrentIndex(driver->findData(int(Dialect::Sqlite)));
            audit->findChild<QLineEdit *>("path")->setText(dir.filePath("audit.db"));
            dialog.saveButton()->click();
            QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.message()));
            QVERIFY2(store.entries.isEmpty(), qPrintable(store.entries.keys().join(", ")));
            const QString text = readAll(path);
            QVERIFY(!text.contains("password_keychain"));
            QVERIFY(!text.contains("-pw"));
        }
    }

    // DESIGN.md §1: the message table commits with the orders, so the editor has no messages
    // profile to edit; it says so.
    void messagesFollowTheOrdersProfile()
    {
        QTemporaryDir dir;
        ConnectionProfilesDialog dialog(AppConfig::defaults(dir.path()), dir.filePath("x.ini"),
                                        nullptr);
        auto *label = dialog.findChild<QLabel *>("messagesProfile");
        QVERIFY(label);
        QVERIFY(label->text().contains("always use the orders database"));
        QVERIFY(dialog.findChildren<ProfileForm *>().size() == 2);
    }

    void passwordsComeFromTheKeychainOrAreAsked()
    {
        AppConfig config = AppConfig::defaults("/tmp/none");
        config.orders = server(DbRole::Orders, Dialect::Postgres);
        config.orders.passwordKeychain = "orders/key";
        config.audit = server(DbRole::Audit, Dialect::Postgres);
        MemoryStore store;
        store.entries.insert("orders/key", "kept");
        QStringList asked;
        // Why, as a code the console words in its language (rev-shell 3b), and in English.
        QStringList codes;
        auto ask = [&](const ConnectionProfile &p,
                       const SecretStoreAskReason &why) -> std::optional<QString> {
            asked << roleName(p.role) + ": " + why.message;
            codes << why.code + u' ' + why.keychainEntry;
            return QStringLiteral("typed");
        };
        QVERIFY(resolvePasswords(config, &store, ask).ok());
        QCOMPARE(config.orders.password, QStringLiteral("kept"));
        QCOMPARE(config.audit.password, QStringLiteral("typed"));
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().startsWith("audit"));
        QCOMPARE(codes, QStringList{QStringLiteral("no_source ")});

        // An entry the keychain does not have, and an empty one.
        for (const auto &[value, code] :
             {std::pair{QStringLiteral("missing"), QStringLiteral("keychain_entry_missing")},
              std::pair{QStringLiteral("empty"), QStringLiteral("keychain_entry_empty")}}) {
            AppConfig named = AppConfig::defaults("/tmp/none");
            named.orders = server(DbRole::Orders, Dialect::Postgres);
            named.orders.passwordKeychain = "orders/" + value;
            if (value == u"empty")
                store.entries.insert("orders/empty", QString());
            codes.clear();
            QVERIFY(resolvePasswords(named, &store, ask).ok());
            QCOMPARE(codes, QStringList{code + QStringLiteral(" orders/") + value});
        }

        // No keychain on this machine: asked; cancelled: an error and nothing changed.
        AppConfig again = AppConfig::defaults("/tmp/none");
        again.orders = server(DbRole::Orders, Dialect::Postgres);
        again.orders.passwordKeychain = "orders/key";
        store.up = false;
        asked.clear();
        QVERIFY(resolvePasswords(again, &store, ask).ok());
        QCOMPARE(again.orders.password, QStringLiteral("typed"));
        QVERIFY2(asked.first().contains("no keychain"), qPrintable(asked.first()));
        QCOMPARE(codes.last(), QStringLiteral("no_keychain orders/key"));
        AppConfig cancelled = AppConfig::defaults("/tmp/none");
        cancelled.audit = server(DbRole::Audit, Dialect::MySql);
        auto r = resolvePasswords(cancelled, &store,
                                  [](const ConnectionProfile &, const SecretStoreAskReason &) {
                                      return std::optional<QString>();
                                  });
        QVERIFY(!r.ok());
        QCOMPARE(r.error().reason, QStringLiteral("password_not_given"));
        QVERIFY(cancelled.audit.password.isEmpty());
        // SQLite needs no password.
        AppConfig embedded = AppConfig::defaults("/tmp/none");
        QVERIFY(resolvePasswords(embedded, nullptr, {}).ok());
    }

    void dialogTestsRefusesAndSwitches_data() { addEngineRows(); }
    void dialogTestsRefusesAndSwitches()
    {
        ONCEPAY_SCRATCH(dbs);
        // Migrated databases, so the test shows a current schema.
        for (const ConnectionProfile &p : {dbs->orders(), dbs->audit()}) {
            auto c = Connection::open(p, "migrate");
            QVERIFY(c.ok());
            QVERIFY(Migrator::migrate(*c).ok());
        }
        QTemporaryDir dir;
        const QString path = dir.filePath("oncepay.ini");
        AppConfig start = AppConfig::defaults(dir.path());
        MemoryStore store;
        ConnectionProfilesDialog dialog(start, path, &store);
        dialog.show();
        ProfileForm *orders = dialog.form(DbRole::Orders);
        ProfileForm *audit = dialog.form(DbRole::Audit);
        orders->setProfile(dbs->orders());
        audit->setProfile(dbs->audit());

        // Test: driver, server and schema versions.
        QSignalSpy tested(orders, &ProfileForm::tested);
        orders->test();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 20000);
        const auto status = tested.first().first().value<RoleStatus>();
        QVERIFY2(status.reachable, qPrintable(status.error));
        QCOMPARE(status.schemaVersion, status.latestVersion);
        QVERIFY2(orders->testResult().contains(QString::number(status.latestVersion)),
                 qPrintable(orders->testResult()));
        QVERIFY(orders->testResult().contains(dialectName(dbs->dialect())));

        // Bad input: no database name on a server, or no file for SQLite.
        if (dbs->dialect() == Dialect::Sqlite) {
            orders->findChild<QLineEdit *>("path")->clear();
        } else {
            orders->findChild<QLineEdit *>("database")->clear();
        }
        dialog.saveButton()->click();
        QVERIFY(dialog.isVisible());
        QVERIFY(!dialog.message().isEmpty());
        QVERIFY(!QFile::exists(path));
        orders->setProfile(dbs->orders());

        if (dbs->dialect() != Dialect::Sqlite) {
            // The password goes to the keychain, the file names the entry only.
            auto *source = orders->findChild<QComboBox *>("passwordSource");
            source->setCurrentIndex(source->findData(int(ProfileForm::Keychain)));
        }
        dialog.saveButton()->click();
        QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.message()));
        const QString text = readAll(path);
        QVERIFY(!text.isEmpty());
        if (!dbs->orders().password.isEmpty()) {
            QVERIFY(!text.contains(dbs->orders().password));
            const QString key = ProfileStore::keychainKey(dbs->orders());
            QCOMPARE(store.entries.value(key), dbs->orders().password);
            QVERIFY(text.contains("password_keychain = " + key));
        }
        // The new configuration is the one to switch to, and it reads back the same.
        QCOMPARE(dialog.config().orders.describe(), dbs->orders().describe());
        auto loaded = AppConfig::load(path, QProcessEnvironment());
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().message));
        QCOMPARE(loaded->orders.describe(), dbs->orders().describe());
        QCOMPARE(loaded->audit.describe(), dbs->audit().describe());
    }

    void unreachableServerSaysSoInTheTest()
    {
        QTemporaryDir dir;
        MemoryStore store;
        ConnectionProfilesDialog dialog(AppConfig::defaults(dir.path()),
                                        dir.filePath("oncepay.ini"), &store);
        ProfileForm *orders = dialog.form(DbRole::Orders);
        ConnectionProfile p = server(DbRole::Orders, Dialect::Postgres);
        p.host = "127.0.0.1";
        p.port = 1; // nothing listens there
        p.password = "x";
        orders->setProfile(p);
        QSignalSpy tested(orders, &ProfileForm::tested);
        orders->test();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 30000);
        QVERIFY(!tested.first().first().value<RoleStatus>().reachable);
        QVERIFY(orders->testResult().startsWith("Not reachable"));
        // A SQLite file that does not exist is not created by testing it.
        ConnectionProfile missing;
        missing.role = DbRole::Orders;
        missing.path = dir.filePath("nope/orders.db");
        orders->setProfile(missing);
        orders->test();
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 2, 10000);
        QVERIFY(!QFile::exists(missing.path));
    }
};

QTEST_MAIN(TstProfiles)
#include "tst_profiles.moc"
