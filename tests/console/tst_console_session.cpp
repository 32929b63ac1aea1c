// A console session follows the account as it is now, and every way it ends is audited once
// (review rev-signin): a disabled or re-roled account's open window signs out by itself at the
// next health tick, or at once when a service refuses it; a dossier export by a just-disabled
// account is refused and leaves no file and no export row; the console ended by SIGTERM or
// SIGHUP, or by its --screenshot option, leaves exactly one sign-out row; the sign-in dialog
// says in its own words that the profile's login cannot sign staff in, or that the database
// is unreachable. On every engine.

#include "auth/signindialog.h"
#include "auth/staffservice.h"
#include "auth/staffsession.h"
#include "enginefixture.h"
#include "investigation/dossieraudit.h"
#include "orders/orderpage.h"
#include "serveraccount.h"
#include "shell/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>

#include <csignal>
#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kOperator = Actor::system(QStringLiteral("cli:test"));

// A fixture's orders database, its audit database migrated too (the window checks all three),
// with the staff accounts `agent` (agent) and `fin` (finance), and one order.
struct SessionFixture {
    explicit SessionFixture(const ScratchDatabases &dbs)
        : engine(dbs)
    {
        ok = openMigrated(engine.config.audit, QStringLiteral("test")).ok();
        StaffService staff(*engine.orders, Clock::system());
        auto a = staff.add({QStringLiteral("agent"), QString(), StaffRole::Agent},
                           QStringLiteral("agent-pw-73kq"), kOperator);
        auto f = staff.add({QStringLiteral("fin"), QString(), StaffRole::Finance},
                           QStringLiteral("fin-pw-73kq"), kOperator);
        ok = ok && a.ok() && f.ok();
        if (ok) {
            agent = *a;
            fin = *f;
        }
        engine.createOrder(QStringLiteral("ord-s1"), 4200);
    }

    StaffService staff() const { return StaffService(*engine.orders, Clock::system()); }
    qint64 rows(const QString &action, const QString &who) const
    {
        return engine.count(
            QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE action = ? AND actor = ?"),
            {action, who});
    }
    // The `after` of `who`'s latest `action` row.
    QJsonObject after(const QString &action, const QString &who) const
    {
        auto json = Sql::scalar(engine.orders->db(),
                                QStringLiteral("SELECT after_json FROM audit_outbox WHERE action"
                                               " = ? AND actor = ? ORDER BY id DESC LIMIT 1"),
                                {action, who});
        return json ? QJsonDocument::fromJson(json->toString().toUtf8()).object() : QJsonObject();
    }

    EngineFixture engine;
    StaffAccount agent;
    StaffAccount fin;
    bool ok = false;
};

// The built console, signed in as `user`, on the databases of `dbs`; `extra` arguments after.
struct ConsoleProcess {
    ConsoleProcess(const ScratchDatabases &dbs, const QString &user, const QString &password,
                   const QStringList &extra = {})
    {
        QProcessEnvironment env;
        const QString config = dbs.writeConfigFile(&env);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        process.start(qEnvironmentVariable("ONCEPAY_BIN_DIR") + QStringLiteral("/oncepay-console"),
                      QStringList{QStringLiteral("--config"), config, QStringLiteral("--user"),
                                  user, QStringLiteral("--password-stdin"),
                                  QStringLiteral("--lang"), QStringLiteral("en")} +
                          extra);
        process.waitForStarted();
        process.write((password + u'\n').toUtf8());
        process.closeWriteChannel();
    }
    ~ConsoleProcess()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
    // What it logged so far (stderr).
    QString log()
    {
        err += QString::fromUtf8(process.readAllStandardError());
        return err;
    }
    // The main window is up: its health check opened the orders database.
    bool windowUp() { return log().contains(QStringLiteral("orders database opened")); }

    QProcess process;
    QString err;
};

} // namespace

class TstConsoleSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // An administrator disables `agent` and gives `fin` another role while their consoles are
    // open: each window signs out by itself at its next tick, audited with the reason, and
    // says why for the sign-in dialog. Before the change, ticks come and go without a word.
    void changedAccountSignsOutWithinTheTick_data() { addEngineRows(); }
    void changedAccountSignsOutWithinTheTick()
    {
        ONCEPAY_SCRATCH(dbs);
        SessionFixture f(*dbs);
        QVERIFY(f.ok);
        {
            MainWindow agentWindow(f.engine.config, f.agent);
            MainWindow finWindow(f.engine.config, f.fin);
            QSignalSpy agentOut(&agentWindow, &MainWindow::signedOut);
            QSignalSpy finOut(&finWindow, &MainWindow::signedOut);
            for (MainWindow *w : {&agentWindow, &finWindow}) {
                w->setHealthCheckInterval(150);
                w->show();
            }
            QTest::qWait(800); // several ticks
            QCOMPARE(agentOut.count() + finOut.count(), 0);

            QVERIFY(f.staff().disable("agent", kOperator, "left the company").ok());
            QVERIFY(f.staff().setRole("fin", "auditor", kOperator, "moved to audit").ok());
            QTRY_COMPARE_WITH_TIMEOUT(agentOut.count(), 1, 10000);
            QTRY_COMPARE_WITH_TIMEOUT(finOut.count(), 1, 10000);
            QVERIFY(!agentWindow.isVisible());
            QVERIFY(!finWindow.isVisible());
            QVERIFY(!agentWindow.centralWidget()->isEnabled());
            QVERIFY2(agentWindow.sessionEndNotice().contains(u"disabled your account"),
                     qPrintable(agentWindow.sessionEndNotice()));
            QVERIFY2(finWindow.sessionEndNotice().contains(u"changed your role"),
                     qPrintable(finWindow.sessionEndNotice()));
            // Closing what is left does not sign out a second time.
            agentWindow.close();
            finWindow.close();
        } // the windows wait for their audited sign-outs
        QCOMPARE(f.rows("logout", "agent"), 1);
        QCOMPARE(f.rows("logout", "fin"), 1);
        QCOMPARE(f.after("logout", "agent").value("reason").toString(),
                 QStringLiteral("account_disabled"));
        QCOMPARE(f.after("logout", "fin").value("reason").toString(),
                 QStringLiteral("role_changed"));
    }

    // A refusal for staff_disabled does not wait for the tick: the page's failure has the
    // window read the account at once. The export it refused left nothing.
    void aRefusalEndsTheSessionAtOnce_data() { addEngineRows(); }
    void aRefusalEndsTheSessionAtOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        SessionFixture f(*dbs);
        QVERIFY(f.ok);
        const QString path = QDir(dbs->tempPath()).filePath("dossier-refused.pdf");
        {
            MainWindow window(f.engine.config, f.agent);
            window.setHealthCheckInterval(3600 * 1000); // no tick during this test
            window.show();
            QSignalSpy out(&window, &MainWindow::signedOut);
            OrderPage *page = window.orderPage();
            QVERIFY(page);
            QSignalSpy loaded(page, &OrderPage::orderLoaded);
            QSignalSpy failed(page, &OrderPage::failed);
            window.openOrder("ord-s1");
            QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
            QVERIFY(f.staff().disable("agent", kOperator, "left the company").ok());
            page->exportDossier(path);
            QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
            QTRY_COMPARE_WITH_TIMEOUT(out.count(), 1, 10000);
            QVERIFY(window.sessionEndNotice().contains(u"disabled your account"));
        }
        QVERIFY(!QFile::exists(path));
        QCOMPARE(f.rows("export.dossier", "agent"), 0);
        QCOMPARE(f.rows("export.dossier_refused", "agent"), 1);
        QCOMPARE(f.rows("logout", "agent"), 1);
    }

    // The dossier export asks for the account as it is now: a just-disabled account is refused
    // before any file is written, and so is one whose role changed (every role may read orders:
    // the role it signed in with is what its open page shows). Each refusal is audited; no
    // export row, no file.
    void dossierExportOfAChangedAccountIsRefused_data() { addEngineRows(); }
    void dossierExportOfAChangedAccountIsRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        SessionFixture f(*dbs);
        QVERIFY(f.ok);
        OrderPage page(f.engine.config.orders, f.agent.actor());
        page.show();
        QSignalSpy loaded(&page, &OrderPage::orderLoaded);
        QSignalSpy failed(&page, &OrderPage::failed);
        QSignalSpy exported(&page, &OrderPage::dossierExported);
        page.openOrder("ord-s1");
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QVERIFY(f.staff().disable("agent", kOperator, "left the company").ok());
        const QString path = QDir(dbs->tempPath()).filePath("dossier-disabled.pdf");
        page.exportDossier(path);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(exported.count(), 0);
        QVERIFY(!QFile::exists(path));
        QCOMPARE(f.rows("export.dossier", "agent"), 0);
        QCOMPARE(f.rows("export.dossier_refused", "agent"), 1);
        QCOMPARE(f.after("export.dossier_refused", "agent").value("reason").toString(),
                 QStringLiteral("staff_disabled"));

        // A role change, seen by the service itself: at the check before the file, and again
        // when the export is recorded (an account changed while the file was written).
        DossierAudit audit(*f.engine.orders, Clock::system());
        const Actor fin = f.fin.actor();
        QVERIFY(audit.authorizeExport("ord-s1", fin).ok());
        QVERIFY(f.staff().setRole("fin", "agent", kOperator, "moved to the desk").ok());
        const DossierExportFacts facts{"ord-s1", 1, QString(64, u'a'), 1234};
        auto asked = audit.authorizeExport("ord-s1", fin);
        QVERIFY(!asked.ok());
        QCOMPARE(asked.error().reason, QStringLiteral("role_changed"));
        auto recorded = audit.recordExport(facts, fin);
        QVERIFY(!recorded.ok());
        QCOMPARE(recorded.error().code, ErrorCode::Forbidden);
        QCOMPARE(recorded.error().reason, QStringLiteral("role_changed"));
        QCOMPARE(f.rows("export.dossier", "fin"), 0);
        QCOMPARE(f.rows("export.dossier_refused", "fin"), 2);
        // The account as it is now may export.
        QVERIFY(audit.recordExport(facts, f.staff().find("fin")->actor()).ok());
        QCOMPARE(f.rows("export.dossier", "fin"), 1);
    }

    // SIGTERM (a shutdown) and SIGHUP (a desktop logout) close the console as Quit does:
    // exit 0, exactly one sign-out row, with the signal as its reason.
    void signalSignsOutOnce_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<int>("signo");
        for (const auto &[engine, dialect] :
             {std::pair{"sqlite", Dialect::Sqlite}, std::pair{"postgresql", Dialect::Postgres},
              std::pair{"mariadb", Dialect::MySql}}) {
            QTest::addRow("%s-sigterm", engine) << int(dialect) << SIGTERM;
            QTest::addRow("%s-sighup", engine) << int(dialect) << SIGHUP;
        }
    }
    void signalSignsOutOnce()
    {
        QFETCH(int, signo);
        ONCEPAY_SCRATCH(dbs);
        SessionFixture f(*dbs);
        QVERIFY(f.ok);
        ConsoleProcess console(*dbs, "agent", "agent-pw-73kq");
        QTRY_VERIFY2_WITH_TIMEOUT(console.windowUp(), qPrintable(console.log()), 30000);
        QCOMPARE(f.rows("login.succeeded", "agent"), 1);
        QCOMPARE(f.rows("logout", "agent"), 0);
        QVERIFY(::kill(pid_t(console.process.processId()), signo) == 0);
        QVERIFY(console.process.waitForFinished(30000));
        QCOMPARE(console.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(console.process.exitCode(), 0);
        QCOMPARE(f.rows("logout", "agent"), 1);
        QCOMPARE(f.after("logout", "agent").value("reason").toString(),
                 signo == SIGTERM ? QStringLiteral("sigterm") : QStringLiteral("sighup"));
    }

    // --screenshot saves the window and quits: signed out once.
    void screenshotExitSignsOutOnce_data() { addEngineRows(); }
    void screenshotExitSignsOutOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        SessionFixture f(*dbs);
        QVERIFY(f.ok);
        const QString png = QDir(dbs->tempPath()).filePath("window.png");
        ConsoleProcess console(*dbs, "agent", "agent-pw-73kq",
                               {"--screenshot", png, "--screenshot-delay", "6000"});
        QVERIFY(console.process.waitForFinished(60000));
        QVERIFY2(console.windowUp(), qPrintable(console.log())); // the window was captured
        QCOMPARE(console.process.exitCode(), 0);
        QVERIFY(QFile::exists(png));
        QCOMPARE(f.rows("login.succeeded", "agent"), 1);
        QCOMPARE(f.rows("logout", "agent"), 1);
        QCOMPARE(f.after("logout", "agent").value("reason").toString(),
                 QStringLiteral("screenshot"));
    }

    // The whole console: disabled while signed in, it signs out within its tick and goes back
    // to the sign-in dialog (it keeps running); closed there, nothing more is recorded.
    void disabledConsoleReturnsToSignIn_data() { addEngineRows(); }
    void disabledConsoleReturnsToSignIn()
    {
        ONCEPAY_SCRATCH(dbs);
        SessionFixture f(*dbs);
        QVERIFY(f.ok);
        ConsoleProcess console(*dbs, "agent", "agent-pw-73kq", {"--health-interval", "300"});
        QTRY_VERIFY2_WITH_TIMEOUT(console.windowUp(), qPrintable(console.log()), 30000);
        QVERIFY(f.staff().disable("agent", kOperator, "left the company").ok());
        QTRY_COMPARE_WITH_TIMEOUT(f.rows("logout", "agent"), 1, 15000);
        QCOMPARE(f.after("logout", "agent").value("reason").toString(),
                 QStringLiteral("account_disabled"));
        QTRY_VERIFY2_WITH_TIMEOUT(console.log().contains(u"sign-in dialog shown again"),
                                  qPrintable(console.log()), 10000);
        QTest::qWait(500);
        QCOMPARE(console.process.state(), QProcess::Running); // at the sign-in dialog
        console.process.terminate();
        QVERIFY(console.process.waitForFinished(30000));
        QCOMPARE(console.process.exitCode(), 0);
        QCOMPARE(f.rows("logout", "agent"), 1);
    }

    // A database that cannot be reached: the dialog says to check the profile and press Sign
    // in, not the pages' "tried again on the next refresh" (nothing refreshes here).
    void unreachableDatabaseInTheDialogsWords_data() { addServerEngineRows(); }
    void unreachableDatabaseInTheDialogsWords()
    {
        ONCEPAY_SCRATCH(dbs);
        ConnectionProfile profile = dbs->orders();
        QTcpServer closed; // a port nothing listens on once it is closed again
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        profile.host = QStringLiteral("127.0.0.1");
        profile.port = closed.serverPort();
        closed.close();
        const QString text = signInMessage(profile);
        QCOMPARE(text, QStringLiteral("The database cannot be reached. Check the connection"
                                      " profile (Databases…) and press Sign in to try again."));
    }

    // A profile whose database login may not read staff accounts (the engine's): the dialog
    // says the login cannot sign staff in, not "Your role may not see this." (no one is
    // signed in).
    void loginThatCannotSignInInTheDialogsWords_data() { addServerEngineRows(); }
    void loginThatCannotSignInInTheDialogsWords()
    {
        ONCEPAY_SCRATCH(dbs);
        QVERIFY(openMigrated(dbs->orders(), QStringLiteral("test")).ok());
        auto admin = Connection::open(dbs->orders(), QStringLiteral("test-admin"));
        QVERIFY(admin.ok());
        const bool pg = dbs->dialect() == Dialect::Postgres;
        const QString password = QStringLiteral("no-staff-7Hq2");
        ServerAccount login(*admin, QStringLiteral("oncepay_nostaff"), password);
        QVERIFY(login.created());
        // The schema version (to open the database), not the staff table.
        if (pg)
            QVERIFY(login.exec(
                QStringLiteral("GRANT USAGE ON SCHEMA public TO %1").arg(login.account())));
        QVERIFY(login.exec(
            QStringLiteral("GRANT SELECT ON %1 TO %2")
                .arg(pg ? QStringLiteral("schema_version")
                        : QStringLiteral("`%1`.schema_version").arg(dbs->orders().database),
                     login.account())));
        ConnectionProfile profile = dbs->orders();
        profile.user = QStringLiteral("oncepay_nostaff");
        profile.password = password;
        QCOMPARE(signInMessage(profile),
                 QStringLiteral("This connection profile's database login cannot sign staff in;"
                                " use the console's login (Databases…)."));
    }

    // The notice the window leaves is what the next sign-in dialog shows first.
    void noticeShownInTheDialog()
    {
        SignInDialog dialog(ConnectionProfile{});
        dialog.showNotice(QStringLiteral("You were signed out: test."));
        QCOMPARE(dialog.message(), QStringLiteral("You were signed out: test."));
    }

private:
    // What the sign-in dialog on `profile` says after a try.
    static QString signInMessage(const ConnectionProfile &profile)
    {
        SignInDialog dialog(profile);
        dialog.show();
        QSignalSpy refused(&dialog, &SignInDialog::refused);
        dialog.prefill(QStringLiteral("agent"), QStringLiteral("whatever-pw"));
        QTest::mouseClick(dialog.findChild<QPushButton *>("signIn"), Qt::LeftButton);
        if (!refused.wait(30000))
            return QStringLiteral("(no answer)");
        return dialog.message();
    }
};

QTEST_MAIN(TstConsoleSession)
#include "tst_console_session.moc"
