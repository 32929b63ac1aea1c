// The connection profile's Test uses the password the saved profile would run with (review of
// what a newcomer meets, finding 2): with ONCEPAY_ORDERS_PASSWORD holding a wrong password,
// choosing "From an environment variable" and typing the right password in the Password field
// said "Connected … schema is current", Save wrote password_env, this session went on with the
// typed password and `oncepay db check` or a restarted console were refused. Now, from the
// environment, the password field is disabled and the Test and the switch use the variable's
// value (a variable not set is said so, nothing tested); kept in the keychain, Test uses the
// stored entry unless a password was typed (what Save then stores). On PostgreSQL and MariaDB
// (a SQLite profile has no password to refuse). And the Test of a profile pointing at the
// other role's database names it (finding 5), on every engine.

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
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

class PasswordSourceStore : public SecretStore {
public:
    QMap<QString, QString> entries;
    bool available() const override { return true; }
    Result<QString> read(const QString &key) override
    {
        if (!entries.contains(key))
            return makeError(ErrorCode::NotFound, "no keychain entry " + key);
        return entries.value(key);
    }
    Result<void> write(const QString &key, const QString &secret) override
    {
        entries.insert(key, secret);
        return {};
    }
    Result<void> remove(const QString &key) override
    {
        entries.remove(key);
        return {};
    }
};

const char *const kVar = "ONCEPAY_ORDERS_PASSWORD";

QString outcome(ProfileForm *form)
{
    return form->findChild<QLabel *>(QStringLiteral("testResult"))->property("outcome").toString();
}

// Runs Test; true when it connected (the status it reported is in *status).
bool runTest(ProfileForm *form, RoleStatus *status)
{
    QSignalSpy spy(form, &ProfileForm::tested);
    form->test();
    if (!spy.wait(30000))
        return false;
    *status = spy.first().first().value<RoleStatus>();
    return status->reachable;
}

void choose(ProfileForm *form, ProfileForm::PasswordSource source)
{
    auto *box = form->findChild<QComboBox *>(QStringLiteral("passwordSource"));
    box->setCurrentIndex(box->findData(int(source)));
}

} // namespace

class TstProfilePasswordSource : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fromTheEnvironmentTestsTheVariable_data() { addServerEngineRows(); }
    void fromTheEnvironmentTestsTheVariable()
    {
        ONCEPAY_SCRATCH(dbs);
        {
            auto c = Connection::open(dbs->orders(), QStringLiteral("migrate"));
            QVERIFY(c.ok());
            QVERIFY(Migrator::migrate(*c).ok());
        }
        const QByteArray before = qgetenv(kVar);
        const bool had = qEnvironmentVariableIsSet(kVar);
        auto restore = qScopeGuard([&] { had ? qputenv(kVar, before) : qunsetenv(kVar); });
        const QString right = dbs->orders().password;
        QVERIFY(!right.isEmpty());
        qputenv(kVar, "wrongpw");

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("oncepay.ini"));
        PasswordSourceStore store;
        ConnectionProfilesDialog dialog(AppConfig::defaults(dir.path()), path, &store);
        ProfileForm *form = dialog.form(DbRole::Orders);
        form->setProfile(dbs->orders()); // the right password typed
        choose(form, ProfileForm::Environment);
        auto *password = form->findChild<QLineEdit *>(QStringLiteral("password"));
        QVERIFY(!password->isEnabled());
        QCOMPARE(form->profile().passwordEnv, QString::fromLatin1(kVar));
        QCOMPARE(form->profile().password, QStringLiteral("wrongpw"));

        // The variable's wrong password is refused, whatever the field holds.
        RoleStatus s;
        QVERIFY(!runTest(form, &s));
        QVERIFY2(s.loginRefused, qPrintable(s.error));
        QCOMPARE(outcome(form), QStringLiteral("failed"));
        QVERIFY2(form->testResult().startsWith(u"Login refused"), qPrintable(form->testResult()));

        // Not set: said so, nothing tested.
        qunsetenv(kVar);
        QSignalSpy spy(form, &ProfileForm::tested);
        form->test();
        QCOMPARE(spy.count(), 0);
        QCOMPARE(outcome(form), QStringLiteral("failed"));
        QCOMPARE(form->testResult(),
                 QStringLiteral("Not tested: the environment variable ONCEPAY_ORDERS_PASSWORD is "
                                "not set for this console. Set it before starting the console, "
                                "or choose another source under “Password from”."));

        // The right one passes, and the switch carries the variable's value.
        qputenv(kVar, right.toUtf8());
        QVERIFY2(runTest(form, &s), qPrintable(s.error));
        QCOMPARE(outcome(form), QStringLiteral("current"));
        qputenv(kVar, "wrongpw");
        password->setText(right); // what a person may have left there
        dialog.saveButton()->click();
        QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.message()));
        QCOMPARE(dialog.config().orders.passwordEnv, QString::fromLatin1(kVar));
        // This session switches with what a restart would read: the variable's value.
        QCOMPARE(dialog.config().orders.password, QStringLiteral("wrongpw"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("password_env = ONCEPAY_ORDERS_PASSWORD"));
        QVERIFY(!text.contains(right.toUtf8()));
    }

    void fromTheKeychainTestsTheStoredEntry_data() { addServerEngineRows(); }
    void fromTheKeychainTestsTheStoredEntry()
    {
        ONCEPAY_SCRATCH(dbs);
        {
            auto c = Connection::open(dbs->orders(), QStringLiteral("migrate"));
            QVERIFY(c.ok());
            QVERIFY(Migrator::migrate(*c).ok());
        }
        const QString right = dbs->orders().password;
        ConnectionProfile saved = dbs->orders();
        saved.password.clear();
        saved.passwordKeychain = ProfileStore::keychainKey(saved);
        PasswordSourceStore store;
        store.entries.insert(saved.passwordKeychain, QStringLiteral("wrongpw"));

        QTemporaryDir dir;
        AppConfig config = AppConfig::defaults(dir.path());
        config.orders = saved;
        ConnectionProfilesDialog dialog(config, dir.filePath(QStringLiteral("o.ini")), &store);
        ProfileForm *form = dialog.form(DbRole::Orders);
        QCOMPARE(form->passwordSource(), ProfileForm::Keychain);

        // Nothing typed: the stored (wrong) entry is what is tested.
        RoleStatus s;
        QVERIFY(!runTest(form, &s));
        QVERIFY2(s.loginRefused, qPrintable(s.error));
        // Retyped: that is what Save stores, so that is what is tested.
        form->findChild<QLineEdit *>(QStringLiteral("password"))->setText(right);
        QVERIFY2(runTest(form, &s), qPrintable(s.error));
        // The entry right and nothing typed: green.
        form->findChild<QLineEdit *>(QStringLiteral("password"))->clear();
        store.entries.insert(saved.passwordKeychain, right);
        QVERIFY2(runTest(form, &s), qPrintable(s.error));
        QCOMPARE(outcome(form), QStringLiteral("current"));
        // No entry yet for a changed profile: said so, nothing tested.
        form->findChild<QLineEdit *>(QStringLiteral("user"))->setText(QStringLiteral("other"));
        QSignalSpy spy(form, &ProfileForm::tested);
        form->test();
        QCOMPARE(spy.count(), 0);
        QCOMPARE(form->testResult(),
                 QStringLiteral("Not tested: type the password once so it can be kept in the "
                                "keychain."));
    }

    void theOtherRolesDatabaseIsNamed_data() { addEngineRows(); }
    void theOtherRolesDatabaseIsNamed()
    {
        ONCEPAY_SCRATCH(dbs);
        for (const ConnectionProfile &p : {dbs->orders(), dbs->audit()}) {
            auto c = Connection::open(p, QStringLiteral("migrate"));
            QVERIFY(c.ok());
            QVERIFY(Migrator::migrate(*c).ok());
        }
        ProfileForm orders(DbRole::Orders, false);
        ConnectionProfile swapped = dbs->audit();
        swapped.role = DbRole::Orders;
        orders.setProfile(swapped);
        RoleStatus s;
        QVERIFY(!runTest(&orders, &s));
        QVERIFY(s.wrongSchema);
        QCOMPARE(outcome(&orders), QStringLiteral("wrongSchema"));
        QVERIFY2(orders.testResult().endsWith(u"but this is an audit database, not an orders "
                                              u"database: choose the orders database here."),
                 qPrintable(orders.testResult()));
        ProfileForm audit(DbRole::Audit, false);
        swapped = dbs->orders();
        swapped.role = DbRole::Audit;
        audit.setProfile(swapped);
        QVERIFY(!runTest(&audit, &s));
        QVERIFY2(audit.testResult().endsWith(u"but this is an orders database, not an audit "
                                             u"database: choose the audit database here."),
                 qPrintable(audit.testResult()));
    }
};

QTEST_MAIN(TstProfilePasswordSource)
#include "tst_profile_password_source.moc"
