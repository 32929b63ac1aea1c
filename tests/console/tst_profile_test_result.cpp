// The connection profile's Test result (QA finding B5): one sentence, red only when it did not
// connect, amber when it connected to a database whose schema needs `oncepay db migrate` (or is
// newer than this console), green when connected and current — the form's own Test on every
// engine (a fresh database, the same migrated, a server or file that is not there), and the
// sentence for a status as the QA saw it (PostgreSQL, schema 0 of 1), in English and 简体中文.

#include "auth/staffaccount.h"
#include "common/errortext.h"
#include "common/language.h"
#include "connections/connectionstatusmodel.h"
#include "connections/profileform.h"
#include "dashboard/dashboardpage.h"
#include "db/connection.h"
#include "db/migrator.h"
#include "shell/mainwindow.h"
#include "testdatabases.h"

#include <QDir>
#include <QLabel>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

QLabel *resultLabel(ProfileForm &form)
{
    return form.findChild<QLabel *>(QStringLiteral("testResult"));
}

QString outcome(ProfileForm &form)
{
    return resultLabel(form)->property("outcome").toString();
}

// The colour the result is drawn in, as a person sees it: the label's text colour.
QString colour(ProfileForm &form)
{
    QLabel *l = resultLabel(form);
    l->ensurePolished();
    return l->palette().color(l->foregroundRole()).name();
}

// Runs the form's Test on `profile` and returns what it reported.
RoleStatus tested(ProfileForm &form, const ConnectionProfile &profile)
{
    form.setProfile(profile);
    QSignalSpy spy(&form, &ProfileForm::tested);
    form.test();
    if (!spy.wait(30000))
        return {};
    return spy.first().first().value<RoleStatus>();
}

void shoot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("ONCEPAY_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    w->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

const QString kRed = QStringLiteral("#b31b1b");
const QString kAmber = QStringLiteral("#9a5b00");
const QString kGreen = QStringLiteral("#1b7f3b");

} // namespace

class TstProfileTestResult : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { Language::apply(QStringLiteral("en")); }

    // Swapped profiles (an audit database behind the orders profile): the status says "Wrong
    // database" and why in words, not "Unreachable" — the server answered.
    void aSwappedDatabaseIsTheWrongOneNotUnreachable()
    {
        RoleStatus s;
        s.role = DbRole::Orders;
        s.wrongSchema = true;
        s.error = QStringLiteral("this is an audit database, not an orders database: check the"
                                 " orders connection profile");
        QCOMPARE(ConnectionStatusModel::healthText(s), QStringLiteral("Wrong database"));
        QCOMPARE(ConnectionStatusModel::reasonText(s),
                 QStringLiteral("Reachable, but not this profile's database: ") + s.error);
        s.wrongSchema = false;
        QCOMPARE(ConnectionStatusModel::healthText(s), QStringLiteral("Unreachable"));
        // The same refusal from a page's read or the sign-in (InvestigationDb::open).
        QCOMPARE(errorText(makeError(ErrorCode::Invalid, s.error, QStringLiteral("wrong_schema"))),
                 QStringLiteral("This is not the database this profile is for: ") + s.error +
                     QLatin1Char('.'));
    }

    // The database refusing this console's login (a desk console's login asked to decide a
    // fix) is told apart from the signed-in person's role: it names the login to use.
    void aDatabaseRefusalIsNotARoleRefusal()
    {
        const Error db = makeError(ErrorCode::Forbidden,
                                   QStringLiteral("recording the decision: ERROR: permission denied"
                                                  " for table fix_decisions"),
                                   QStringLiteral("permission_denied"));
        QVERIFY(errorText(db).startsWith(QStringLiteral("The database refused this console's")));
        QVERIFY(errorText(db).contains(QStringLiteral("oncepay_console")));
        QCOMPARE(actionErrorText(db), errorText(db));
        const Error role =
            makeError(ErrorCode::Forbidden, QStringLiteral("agent may not approve fixes"),
                      QStringLiteral("role_forbidden"));
        QCOMPARE(errorText(role), QStringLiteral("Your role may not see this."));
        QCOMPARE(actionErrorText(role),
                 QStringLiteral("The request was refused: agent may not approve fixes"));
    }

    // The form's Test: a fresh database (no schema yet) is amber with the migrate command, the
    // same database migrated is green, a database that is not there is red; each one sentence,
    // none carrying the check's English schema note again.
    void testOfAFreshMigratedAndMissingDatabase_data() { addEngineRows(); }
    void testOfAFreshMigratedAndMissingDatabase()
    {
        ONCEPAY_SCRATCH(dbs);
        const ConnectionProfile profile = dbs->orders();
        // A fresh database: on SQLite the file is made (opened once), on a server it is there.
        {
            auto c = Connection::open(profile, QStringLiteral("make"));
            QVERIFY2(c.ok(), qPrintable(c ? QString() : c.error().message));
        }
        ProfileForm form(DbRole::Orders, false);
        form.resize(720, 420);

        RoleStatus s = tested(form, profile);
        QVERIFY2(s.reachable, qPrintable(s.error));
        QCOMPARE(s.schemaVersion, 0);
        QCOMPARE(outcome(form), QStringLiteral("pending"));
        QCOMPARE(colour(form), kAmber);
        const QString pending = form.testResult();
        QVERIFY2(pending.startsWith(u"Connected to ") &&
                     pending.contains(u"(driver " + dialectName(profile.dialect) + u')') &&
                     pending.contains(u"no OncePay schema yet") &&
                     pending.contains(u"`oncepay db migrate`") &&
                     pending.contains(QString::number(s.latestVersion)),
                 qPrintable(pending));
        QCOMPARE(pending.count(u"migrat"), 1); // said once
        QVERIFY2(pending.endsWith(u'.') && !pending.chopped(1).contains(u". "),
                 qPrintable(pending));                             // one sentence
        QVERIFY2(!pending.contains(s.error), qPrintable(pending)); // not repeated in English
        QVERIFY2(!pending.contains(u"Connected."), qPrintable(pending));
        shoot(&form, QStringLiteral("profile-test-pending-") + dialectName(profile.dialect));

        {
            auto c = Connection::open(profile, QStringLiteral("migrate"));
            QVERIFY(c.ok());
            QVERIFY(Migrator::migrate(*c).ok());
        }
        s = tested(form, profile);
        QVERIFY2(s.reachable && s.error.isEmpty(), qPrintable(s.error));
        QCOMPARE(outcome(form), QStringLiteral("current"));
        QCOMPARE(colour(form), kGreen);
        QCOMPARE(form.testResult(),
                 QStringLiteral("Connected to %1 (driver %2); the schema is current (version %3).")
                     .arg(s.serverVersion.section(QStringLiteral(" on "), 0, 0)
                              .section(QStringLiteral(" ("), 0, 0)
                              .trimmed(),
                          s.driver)
                     .arg(s.latestVersion));
        shoot(&form, QStringLiteral("profile-test-current-") + dialectName(profile.dialect));

        ConnectionProfile gone = profile;
        if (gone.dialect == Dialect::Sqlite)
            gone.path = dbs->tempPath() + QStringLiteral("/not-there.db");
        else
            gone.port = 1; // nothing listens there
        s = tested(form, gone);
        QVERIFY(!s.reachable);
        QCOMPARE(outcome(form), QStringLiteral("failed"));
        QCOMPARE(colour(form), kRed);
        QVERIFY2(form.testResult().startsWith(u"Not reachable: "), qPrintable(form.testResult()));
        shoot(&form, QStringLiteral("profile-test-failed-") + dialectName(profile.dialect));
    }

    // A server that answers and refuses the login (a wrong password in the profile) is not
    // "unreachable": the profile's Test, the Databases page, the status bar and a page on it
    // say the login was refused, which waiting will not cure — the password never shown; in
    // English and in 简体中文.
    void refusedLoginSaysSo_data() { addServerEngineRows(); }
    void refusedLoginSaysSo()
    {
        ONCEPAY_SCRATCH(dbs);
        ConnectionProfile p = dbs->orders();
        p.password = QStringLiteral("not-the-password-7f3a");
        ProfileForm form(DbRole::Orders, false);
        form.resize(720, 420);
        const RoleStatus status = tested(form, p);
        QVERIFY(!status.reachable && status.loginRefused);
        QCOMPARE(outcome(form), QStringLiteral("failed"));
        QCOMPARE(colour(form), kRed);
        QVERIFY2(form.testResult().startsWith("Login refused: "), qPrintable(form.testResult()));
        QVERIFY(!form.testResult().contains(p.password));
        shoot(&form, QStringLiteral("profile-test-refused-") + dialectName(p.dialect));
        // The Databases page's row and the status bar's tooltip say so too.
        QCOMPARE(ConnectionStatusModel::healthText(status), QStringLiteral("Login refused"));
        QVERIFY2(ConnectionStatusModel::reasonText(status).startsWith(
                     "The server refused the login; check the user, its password and the"
                     " database name in the connection profile: "),
                 qPrintable(ConnectionStatusModel::reasonText(status)));

        // The main window's status bar.
        AppConfig config = dbs->config();
        config.orders.password = p.password;
        StaffAccount amy;
        amy.username = QStringLiteral("amy");
        amy.role = StaffRole::Agent;
        {
            MainWindow window(config, amy);
            window.resize(1100, 700);
            window.show();
            auto *health = window.findChild<QLabel *>(QStringLiteral("ordersHealth"));
            QVERIFY(health);
            QTRY_COMPARE_WITH_TIMEOUT(health->property("health").toString(), QStringLiteral("down"),
                                      30000);
            QCOMPARE(health->text(), QStringLiteral("Orders: ✕ login refused"));
            QVERIFY(!health->toolTip().contains(p.password));
            shoot(&window, QStringLiteral("status-refused-") + dialectName(p.dialect));
        }

        DashboardPage page(p, Actor{QStringLiteral("amy"), QStringLiteral("agent")});
        QSignalSpy failed(&page, &DashboardPage::failed);
        page.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(failed.first().first().toString(),
                 QStringLiteral("The database server refused the login. Check the user, its"
                                " password and the database name in the connection profile."));

        // 简体中文: the same, translated.
        QCOMPARE(Language::apply(QStringLiteral("zh_CN")).language(), QLocale::Chinese);
        ProfileForm zh(DbRole::Orders, false);
        zh.resize(720, 420);
        tested(zh, p);
        QVERIFY2(zh.testResult().startsWith(u"登录被拒绝："), qPrintable(zh.testResult()));
        shoot(&zh, QStringLiteral("profile-test-refused-zh-") + dialectName(p.dialect));
        QCOMPARE(ConnectionStatusModel::healthText(status), QStringLiteral("登录被拒绝"));
        MainWindow window(config, amy);
        window.resize(1100, 700);
        window.show();
        auto *health = window.findChild<QLabel *>(QStringLiteral("ordersHealth"));
        QVERIFY(health);
        QTRY_COMPARE_WITH_TIMEOUT(health->property("health").toString(), QStringLiteral("down"),
                                  30000);
        QVERIFY2(health->text().endsWith(u"✕ 登录被拒绝"), qPrintable(health->text()));
        shoot(&window, QStringLiteral("status-refused-zh-") + dialectName(p.dialect));
    }

    // What the QA saw — PostgreSQL 15.18, schema 0 of 1 — reads as one sentence in amber, in
    // English and 简体中文; a migration pending from a real version, and a schema newer than the
    // console, are amber too; only an unreachable database is red.
    void sentencesAndColours_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("English") << QStringLiteral("en");
        QTest::newRow("简体中文") << QStringLiteral("zh_CN");
    }
    void sentencesAndColours()
    {
        QFETCH(QString, language);
        Language::apply(language);
        ProfileForm form(DbRole::Audit, false);
        form.resize(720, 420);
        RoleStatus s;
        s.role = DbRole::Audit;
        s.driver = QStringLiteral("postgresql");
        s.target = QStringLiteral("postgresql://oncepay@127.0.0.1:55409/qa_h5_audit");
        s.reachable = true;
        s.serverVersion = QStringLiteral("PostgreSQL 15.18 (Debian 15.18-1.pgdg120+1) on "
                                         "x86_64-pc-linux-gnu");
        s.schemaVersion = 0;
        s.latestVersion = 1;
        s.error = QStringLiteral("schema 0, migration to 1 pending");
        form.showTestResult(s);
        QCOMPARE(outcome(form), QStringLiteral("pending"));
        QCOMPARE(colour(form), kAmber);
        QCOMPARE(resultLabel(form)->toolTip(), s.serverVersion);
        if (language == u"en")
            QCOMPARE(form.testResult(),
                     QStringLiteral("Connected to PostgreSQL 15.18 (driver postgresql), but the"
                                    " database has no OncePay schema yet: run `oncepay db"
                                    " migrate` to create it (version 1)."));
        QVERIFY(!form.testResult().contains(s.error));
        shoot(&form, QStringLiteral("profile-test-qa-case-") + language);

        s.schemaVersion = 3;
        s.latestVersion = 9;
        s.error = QStringLiteral("schema 3, migration to 9 pending");
        form.showTestResult(s);
        QCOMPARE(outcome(form), QStringLiteral("pending"));
        QCOMPARE(colour(form), kAmber);
        if (language == u"en")
            QCOMPARE(form.testResult(),
                     QStringLiteral("Connected to PostgreSQL 15.18 (driver postgresql), but its"
                                    " schema is at version 3 and this console needs version 9:"
                                    " run `oncepay db migrate` before using it."));

        s.schemaVersion = 10;
        s.error = QStringLiteral("schema 10 is newer than this program (9)");
        form.showTestResult(s);
        QCOMPARE(outcome(form), QStringLiteral("newer"));
        QCOMPARE(colour(form), kAmber);
        QVERIFY(!form.testResult().contains(s.error));

        s.schemaVersion = 9;
        s.error.clear();
        form.showTestResult(s);
        QCOMPARE(outcome(form), QStringLiteral("current"));
        QCOMPARE(colour(form), kGreen);
        shoot(&form, QStringLiteral("profile-test-qa-current-") + language);

        s = RoleStatus{};
        s.driver = QStringLiteral("postgresql");
        s.error = QStringLiteral("connection to server at \"127.0.0.1\", port 1 failed");
        form.showTestResult(s);
        QCOMPARE(outcome(form), QStringLiteral("failed"));
        QCOMPARE(colour(form), kRed);
        QVERIFY(form.testResult().contains(s.error));
        QVERIFY(resultLabel(form)->toolTip().isEmpty());
        shoot(&form, QStringLiteral("profile-test-qa-failed-") + language);
    }
};

QTEST_MAIN(TstProfileTestResult)
#include "tst_profile_test_result.moc"
