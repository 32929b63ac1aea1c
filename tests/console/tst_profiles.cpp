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
                "path = /old/orders.db\n\n[channel.stripe]\nwebhook_secret_env = STRIPE\n"
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
        QVERIFY(text.contains("webhook_secret_env = STRIPE"));
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
        QCOMPARE(loaded->channels.value("stripe").value("webhook_secret_env"),
                 QStringLiteral("STRIPE"));

        // Bad input changes nothing.
        ConnectionProfile broken = orders;
        broken.database.clear();
        QVERIFY(!ProfileStore::save(path, broken, audit).ok());
        QCOMPARE(readAll(path), text);
        // A password key in the file is still refused by the loader.
        QVERIFY(f.open(QIODevice::Append));
        f.write("[gateway]\n");
        f.close();
        QVERIFY(AppConfig::load(path, env).ok());
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
        auto ask = [&](const ConnectionProfile &p, const QString &why) -> std::optional<QString> {
            asked << roleName(p.role) + ": " + why;
            return QStringLiteral("typed");
        };
        QVERIFY(resolvePasswords(config, &store, ask).ok());
        QCOMPARE(config.orders.password, QStringLiteral("kept"));
        QCOMPARE(config.audit.password, QStringLiteral("typed"));
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().startsWith("audit"));

        // No keychain on this machine: asked; cancelled: an error and nothing changed.
        AppConfig again = AppConfig::defaults("/tmp/none");
        again.orders = server(DbRole::Orders, Dialect::Postgres);
        again.orders.passwordKeychain = "orders/key";
        store.up = false;
        asked.clear();
        QVERIFY(resolvePasswords(again, &store, ask).ok());
        QCOMPARE(again.orders.password, QStringLiteral("typed"));
        QVERIFY2(asked.first().contains("no keychain"), qPrintable(asked.first()));
        AppConfig cancelled = AppConfig::defaults("/tmp/none");
        cancelled.audit = server(DbRole::Audit, Dialect::MySql);
        auto r =
            resolvePasswords(cancelled, &store, [](const ConnectionProfile &, const QString &) {
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
