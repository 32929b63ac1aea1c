// The console's log pane: it starts with what was logged before it existed (the backlog kept
// by services/logging since set-up), then shows each new line from any thread, in the same
// form, with none lost or repeated at the seam; the backlog keeps only the newest lines and
// the pane its maximum; and no password — the staff member's, typed at sign-in, or a
// database's, from its connection profile — reaches either, through the real sign-in dialog
// and main window, on every engine.

#include "auth/signindialog.h"
#include "auth/staffservice.h"
#include "db/migrator.h"
#include "log/logpane.h"
#include "logging/logging.h"
#include "shell/mainwindow.h"
#include "testdatabases.h"

#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include <spdlog/spdlog.h>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

// "14:03:07 info <message>": the pane's and the backlog's form of a line.
bool isPaneLine(const QString &line, const QString &message)
{
    static const QRegularExpression form(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d info (.*)$"));
    const auto m = form.match(line);
    return m.hasMatch() && m.captured(1) == message;
}

QStringList lines(const LogPane &pane)
{
    return pane.toPlainText().split(u'\n');
}

} // namespace

class TstLogPane : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        // As the console does at start: from here on lines are kept for panes made later.
        Logging::Options options;
        options.toStderr = false;
        QVERIFY(Logging::setup(options));
    }

    void lineLoggedBeforeThePaneIsInIt()
    {
        spdlog::info("logged before the pane, marker 7Q");
        LogPane pane; // no event loop turn: the backlog is there at once
        const QStringList shown = lines(pane);
        QVERIFY2(std::any_of(shown.begin(), shown.end(),
                             [](const QString &l) {
                                 return isPaneLine(
                                     l, QStringLiteral("logged before the pane, marker 7Q"));
                             }),
                 qPrintable(shown.join(u'\n')));
    }

    void lineFromAnotherThreadAfterwardsAppears()
    {
        LogPane pane;
        std::thread([] { spdlog::info("logged from a pool thread, marker 8R"); }).join();
        QTRY_VERIFY(pane.toPlainText().contains(u"marker 8R"));
        QVERIFY(
            isPaneLine(lines(pane).last(), QStringLiteral("logged from a pool thread, marker 8R")));
    }

    void linesFromTheGuiThreadAndOthersKeepTheirOrder()
    {
        LogPane pane;
        std::thread([] { spdlog::info("from a pool thread first, marker 9S"); }).join();
        spdlog::warn("then on the GUI thread, marker 9T");
        // Shown by the pane's one queued update, in the order they were logged.
        QTRY_VERIFY(pane.toPlainText().contains(u"marker 9T"));
        const QStringList shown = lines(pane);
        QVERIFY(shown.size() >= 2);
        QVERIFY2(shown.last().endsWith(u" warning then on the GUI thread, marker 9T"),
                 qPrintable(shown.last()));
        QVERIFY(isPaneLine(shown[shown.size() - 2],
                           QStringLiteral("from a pool thread first, marker 9S")));
    }

    // What a line's arrival sets off on the GUI thread (the pane's own signals, a status bar
    // following it) may log in turn: the pane shows lines outside the log's lock. Before, a
    // GUI-thread line was appended under that lock and such a slot deadlocked the program; a
    // watchdog turns that hang into a failure.
    void somethingConnectedToThePaneMayLog()
    {
        LogPane pane;
        int logged = 0;
        QObject::connect(&pane, &QPlainTextEdit::textChanged, &pane, [&logged] {
            if (logged++ == 0)
                spdlog::info("logged by a slot the pane's change set off, marker 6W");
        });
        std::atomic<bool> finished = false;
        std::thread watchdog([&finished] {
            for (int i = 0; i < 100 && !finished; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (!finished) {
                std::fprintf(stderr, "FAIL: a slot connected to the log pane that logs hung the "
                                     "GUI thread (the pane appended under the log's lock)\n");
                std::_Exit(1);
            }
        });
        spdlog::info("logged on the GUI thread, marker 6V");
        QTRY_VERIFY(pane.toPlainText().contains(u"marker 6W"));
        finished = true;
        watchdog.join();
        const QStringList shown = lines(pane);
        QVERIFY(isPaneLine(
            shown.last(), QStringLiteral("logged by a slot the pane's change set off, marker 6W")));
        QVERIFY(isPaneLine(shown[shown.size() - 2],
                           QStringLiteral("logged on the GUI thread, marker 6V")));
    }

    void backlogAndLiveLinesMeetWithoutGapOrRepeat()
    {
        // Panes made while another thread logs: the backlog each starts with and the lines
        // that follow are one unbroken run.
        for (int round = 0; round < 10; ++round) {
            std::atomic<bool> stop = false;
            std::atomic<int> written = 0;
            std::thread writer([&stop, &written, round] {
                for (int i = 0; !stop; ++i) {
                    spdlog::info("seam {} {}", round, i);
                    written = i + 1;
                    std::this_thread::yield();
                }
            });
            while (written < 50)
                std::this_thread::yield();
            LogPane pane;
            const int then = written;
            while (written < then + 200)
                std::this_thread::yield();
            stop = true;
            writer.join();
            const QString last = QStringLiteral(" seam %1 %2").arg(round).arg(written - 1);
            QTRY_VERIFY(lines(pane).last().endsWith(last));
            const QRegularExpression seam(QStringLiteral(" info seam %1 (\\d+)$").arg(round));
            QList<int> seen;
            for (const QString &l : lines(pane))
                if (const auto m = seam.match(l); m.hasMatch())
                    seen << m.captured(1).toInt();
            QVERIFY(!seen.isEmpty());
            for (int i = 1; i < seen.size(); ++i)
                QVERIFY2(
                    seen[i] == seen[i - 1] + 1,
                    qPrintable(QStringLiteral("line %1 after %2").arg(seen[i]).arg(seen[i - 1])));
        }
    }

    void backlogKeepsOnlyTheNewest()
    {
        const int n = Logging::kBacklogLines + 100;
        for (int i = 0; i < n; ++i)
            spdlog::info("kept {}", i);
        const QStringList kept = Logging::backlog();
        QCOMPARE(kept.size(), Logging::kBacklogLines);
        QVERIFY2(isPaneLine(kept.first(), QStringLiteral("kept 100")), qPrintable(kept.first()));
        QVERIFY2(isPaneLine(kept.last(), QStringLiteral("kept %1").arg(n - 1)),
                 qPrintable(kept.last()));
        LogPane pane;
        QCOMPARE(pane.document()->blockCount(), Logging::kBacklogLines);
    }

    void paneKeepsAtMostItsMaximum()
    {
        LogPane pane;
        const int n = LogPane::kMaxLines + 500;
        std::thread([n] {
            for (int i = 0; i < n; ++i)
                spdlog::info("flood {}", i);
        }).join();
        QTRY_VERIFY(isPaneLine(lines(pane).last(), QStringLiteral("flood %1").arg(n - 1)));
        QCOMPARE(pane.document()->blockCount(), LogPane::kMaxLines);
        QVERIFY(isPaneLine(pane.document()->firstBlock().text(), QStringLiteral("flood 500")));
    }

    void noPasswordReachesTheLog_data() { addEngineRows(); }
    void noPasswordReachesTheLog()
    {
        ONCEPAY_SCRATCH(dbs);
        AppConfig config = dbs->config();
        for (const ConnectionProfile &p : {config.orders, config.audit})
            QVERIFY(openMigrated(p, QStringLiteral("test")).ok());
        // A server profile carries its real password; give the SQLite ones one too (unused by
        // the driver, but in the profile all the same).
        if (config.orders.dialect == Dialect::Sqlite)
            for (ConnectionProfile *p : {&config.orders, &config.messages, &config.audit})
                p->password = QStringLiteral("profile-pw-Xy83kq");
        const QString dbPassword = config.orders.password;
        QVERIFY(!dbPassword.isEmpty());
        const QString staffPassword = QStringLiteral("Sesame-4vT9-open");
        // A name of this engine's own: lines left from another engine's run do not count.
        const QString user = QStringLiteral("lena-") + dialectName(config.orders.dialect);
        {
            auto c = openMigrated(config.orders, QStringLiteral("test"));
            QVERIFY(c.ok());
            StaffService staff(*c, Clock::system());
            QVERIFY(staff
                        .add({user, QStringLiteral("Lena"), StaffRole::Finance}, staffPassword,
                             Actor::system(QStringLiteral("cli:test")))
                        .ok());
        }

        SignInDialog dialog(config.orders);
        dialog.show();
        QSignalSpy refused(&dialog, &SignInDialog::refused);
        QSignalSpy signedIn(&dialog, &SignInDialog::signedIn);
        auto attempt = [&dialog](const QString &user, const QString &password) {
            dialog.findChild<QLineEdit *>("user")->setText(user);
            dialog.findChild<QLineEdit *>("password")->setText(password);
            QTest::mouseClick(dialog.findChild<QPushButton *>("signIn"), Qt::LeftButton);
        };
        // First the password typed into the user name field (it happens), then right.
        attempt(staffPassword, QStringLiteral("not-it"));
        QTRY_COMPARE_WITH_TIMEOUT(refused.count(), 1, 15000);
        attempt(user, staffPassword);
        QTRY_COMPARE_WITH_TIMEOUT(signedIn.count(), 1, 15000);

        QString windowPane;
        {
            MainWindow window(config, dialog.account());
            window.show();
            auto *pane = window.findChild<LogPane *>();
            QVERIFY(pane);
            // Its health check opened all three databases with the profiles' passwords.
            const QString audit =
                QStringLiteral("audit database opened: ") + config.audit.describe();
            QTRY_VERIFY_WITH_TIMEOUT(pane->toPlainText().contains(audit), 15000);
            windowPane = pane->toPlainText();
            QVERIFY2(windowPane.contains(user + QStringLiteral(" signed in as finance")),
                     qPrintable(windowPane));
            QVERIFY2(windowPane.contains(QStringLiteral("orders database opened: ") +
                                         config.orders.describe()),
                     qPrintable(windowPane));
            window.close();
        } // waits for the audited sign-out
        LogPane later;
        const QString backlog = Logging::backlog().join(u'\n');
        QVERIFY2(backlog.contains(user + QStringLiteral(" signed out")), qPrintable(backlog));
        for (const QString &text : {windowPane, later.toPlainText(), backlog}) {
            QVERIFY(!text.contains(staffPassword));
            QVERIFY(!text.contains(dbPassword));
        }
    }
};

QTEST_MAIN(TstLogPane)
#include "tst_log_pane.moc"
