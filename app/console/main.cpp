// oncepay-console — the desktop console. Loads the configuration, picks the language, asks
// who is there (sign-in), opens the main window. Everything else lives in views/ and below.
//
// Demo and development only: `--user NAME --password-stdin` signs in with the password
// read from the first line of stdin (never from an argument), `--view NAME` and `--order ID`
// (with `--order-callback ROW`) choose what the window shows, and `--screenshot FILE` saves a
// PNG of the window after start-up and quits (or of the dialog showing then: a refused
// configuration, a password asked for, the sign-in; `--screenshot-text FILE` writes its title
// and labels too). The scripted screenshots in docs/screenshots use them.
// `--health-interval MS` shortens the health and account check (tests).
//
// SIGTERM, SIGHUP and SIGINT (a desktop logout, a shutdown, Ctrl+C) close the console as its
// Quit does: the handler only writes the signal's number into a pipe (async-signal-safe); the
// event loop reads it, records the audited sign-out and closes the window.

#include "auth/signindialog.h"
#include "buildinfo.h"
#include "common/enginetext.h"
#include "common/language.h"
#include "config/appconfig.h"
#include "config/secretstore.h"
#include "connections/connectionprofilesdialog.h"
#include "connections/keychainstore.h"
#include "logging/logging.h"
#include "orders/orderpage.h"
#include "shell/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

using namespace OncePay;

namespace {

constexpr int kSignedOut = 10;
constexpr int kRebuildWindow = 11; // another language was chosen
constexpr int kEditProfiles = 12;  // "Databases…" in the sign-in dialog

// A database's role as the console names it.
QString databaseRoleWord(DbRole role)
{
    switch (role) {
    case DbRole::Orders: return QObject::tr("orders", "the orders database");
    case DbRole::Messages: return QObject::tr("messages", "the messages database");
    case DbRole::Audit: return QObject::tr("audit", "the audit database");
    }
    return roleName(role);
}

// Why a password is asked for (SecretStoreAskReason's code), in the interface language; the
// keychain's own failure, which has no code, as it said it.
QString passwordAskedBecause(const SecretStoreAskReason &why)
{
    if (why.code == u"no_source")
        return QObject::tr("its connection profile names no password environment variable"
                           " (password_env) and no keychain entry");
    if (why.code == u"no_keychain")
        return QObject::tr("no keychain is available on this machine");
    if (why.code == u"keychain_entry_missing")
        return QObject::tr("the keychain has no entry %1").arg(why.keychainEntry);
    if (why.code == u"keychain_entry_empty")
        return QObject::tr("the keychain entry %1 is empty").arg(why.keychainEntry);
    if (why.code == u"keychain_refused")
        return QObject::tr("the keychain refused access to the entry %1").arg(why.keychainEntry);
    return QObject::tr("the keychain entry %1 could not be read: %2")
        .arg(why.keychainEntry, why.message);
}

// Server passwords that come neither from the environment nor from the keychain are asked
// for here, once per start; they stay in memory.
bool passwordsReady(AppConfig &config, SecretStore &keychain)
{
    auto ask = [](const ConnectionProfile &p,
                  const SecretStoreAskReason &why) -> std::optional<QString> {
        bool ok = false;
        const QString password = QInputDialog::getText(
            nullptr, QObject::tr("Database password"),
            QObject::tr("Password for the %1 database %2\n(%3):")
                .arg(databaseRoleWord(p.role), p.describe(), passwordAskedBecause(why)),
            QLineEdit::Password, QString(), &ok);
        if (!ok)
            return std::nullopt;
        return password;
    };
    auto r = OncePay::resolvePasswords(config, &keychain, ask);
    if (!r)
        QMessageBox::warning(
            nullptr, QObject::tr("OncePay Console"),
            r.error().reason == u"password_not_given"
                ? QObject::tr("No password was given for a database, so the console cannot"
                              " connect and closes. Start it again to type the password, or"
                              " give it through the profile's password_env or keychain entry.")
                : r.error().message);
    return r.ok();
}

// The self-pipe of the termination signals: [0] read by the event loop, [1] written by the
// handler.
int g_signalPipe[2] = {-1, -1};

extern "C" void onTerminationSignal(int signo)
{
    const int saved = errno; // write() may set it under the interrupted code's feet
    const unsigned char byte = static_cast<unsigned char>(signo);
    [[maybe_unused]] const ssize_t written = ::write(g_signalPipe[1], &byte, 1);
    errno = saved;
}

// The audit reason of a signal's sign-out.
QString signalReason(int signo)
{
    switch (signo) {
    case SIGTERM: return QStringLiteral("sigterm");
    case SIGHUP: return QStringLiteral("sighup");
    case SIGINT: return QStringLiteral("sigint");
    default: return QStringLiteral("signal");
    }
}

// Every signed-in window records its sign-out (`reason`) and closes.
void closeWindows(const QString &reason)
{
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *window = qobject_cast<MainWindow *>(w)) {
            window->recordSignOut(reason);
            window->close();
        }
}

void closeOnTerminationSignals(QApplication &app)
{
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        spdlog::warn("termination signals keep their default action: no pipe ({})", errno);
        return;
    }
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [] {
        unsigned char byte = 0;
        int signo = 0;
        while (::read(g_signalPipe[0], &byte, 1) == 1)
            signo = byte;
        if (signo == 0)
            return;
        spdlog::info("{} received: the console closes", signalReason(signo).toStdString());
        closeWindows(signalReason(signo));
        // Whatever else is open (the sign-in dialog, a dialog over the window) ends too.
        QApplication::exit(0);
    });
    struct sigaction action = {};
    action.sa_handler = onTerminationSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int signo : {SIGTERM, SIGHUP, SIGINT})
        ::sigaction(signo, &action, nullptr);
}

// The captured window's title and the texts of its visible labels, one a line (the wording of a
// dialog shown before any window, for tests).
void writeScreenshotText(QWidget *target, const QString &file)
{
    QStringList lines{target->windowTitle()};
    for (const QLabel *label : target->findChildren<QLabel *>())
        if (label->isVisible() && !label->text().isEmpty())
            lines << label->text();
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        out.write((lines.join(u'\n') + u'\n').toUtf8()) < 0)
        spdlog::error("screenshot text: cannot write {}", file.toStdString());
}

void scheduleScreenshot(const QString &file, int delayMs, const QString &textFile)
{
    QTimer::singleShot(delayMs, qApp, [file, textFile] {
        QWidget *target = QApplication::activeModalWidget();
        if (!target)
            for (QWidget *w : QApplication::topLevelWidgets())
                if (w->isVisible() && qobject_cast<MainWindow *>(w))
                    target = w;
        if (target) {
            target->grab().save(file);
            if (!textFile.isEmpty())
                writeScreenshotText(target, textFile);
        } else
            spdlog::error("screenshot: no window to capture");
        closeWindows(QStringLiteral("screenshot"));
        QApplication::exit(0);
    });
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OncePay"));
    QApplication::setApplicationName(QStringLiteral("oncepay-console"));
    QApplication::setApplicationVersion(
        QStringLiteral(ONCEPAY_VERSION " (build " ONCEPAY_BUILD_ID ", " ONCEPAY_BUILD_DATE ")"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("OncePay console"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption configOption(
        QStringLiteral("config"), QStringLiteral("Configuration file."), QStringLiteral("FILE"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"), QStringLiteral("Interface language (en, zh_CN); default: system."),
        QStringLiteral("LANG"));
    const QCommandLineOption shotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Save a PNG of the window after start-up and quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption delayOption(
        QStringLiteral("screenshot-delay"),
        QStringLiteral("Milliseconds to wait before the screenshot (3000)."), QStringLiteral("MS"),
        QStringLiteral("3000"));
    const QCommandLineOption shotTextOption(
        QStringLiteral("screenshot-text"),
        QStringLiteral("Demo/dev: with --screenshot, also write the captured window's title and "
                       "label texts to FILE, one a line."),
        QStringLiteral("FILE"));
    const QCommandLineOption healthOption(
        QStringLiteral("health-interval"),
        QStringLiteral("Milliseconds between health and account checks (30000)."),
        QStringLiteral("MS"), QStringLiteral("30000"));
    const QCommandLineOption userOption(QStringLiteral("user"),
                                        QStringLiteral("Demo/dev: user name to sign in with."),
                                        QStringLiteral("NAME"));
    const QCommandLineOption passwordStdinOption(
        QStringLiteral("password-stdin"),
        QStringLiteral("Demo/dev: read the password from the first line of stdin."));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        QStringLiteral("View to open: %1 (those the signed-in role is offered); or profiles "
                       "(the connection profiles editor) or preferences.")
            .arg(MainWindow::allViewNames().join(QStringLiteral(", "))),
        QStringLiteral("NAME"));
    const QCommandLineOption orderOption(
        QStringLiteral("order"), QStringLiteral("Search for this identifier on the order page."),
        QStringLiteral("ID"));
    const QCommandLineOption callbackOption(
        QStringLiteral("order-callback"),
        QStringLiteral("With --order: show the order's callback at this row (0 = the first), "
                       "its headers, body and signature scheme."),
        QStringLiteral("ROW"));
    parser.addOptions({configOption, langOption, shotOption, delayOption, shotTextOption,
                       healthOption, userOption, passwordStdinOption, viewOption, orderOption,
                       callbackOption});
    parser.process(app);
    closeOnTerminationSignals(app);

    // Logging with the defaults until the configuration says otherwise: what is logged while it
    // loads (a refused profile option, a missing translation) is kept for the log pane too.
    Logging::setup(Logging::Options());

    // --lang wins for this run; otherwise the language chosen in Preferences, else the system's.
    const QLocale locale =
        Language::apply(parser.isSet(langOption) ? parser.value(langOption) : Language::chosen());

    const bool screenshot = parser.isSet(shotOption);
    const int delay = parser.value(delayOption).toInt();
    // Captures whatever is showing then: a refused configuration, a password asked for, the
    // sign-in dialog (with its refusal) or the window.
    if (screenshot)
        scheduleScreenshot(parser.value(shotOption), delay, parser.value(shotTextOption));

    auto config = AppConfig::load(parser.value(configOption));
    if (!config) {
        // What is wrong in the loader's words (English, naming the file, the line and the
        // option, never a secret's value: an engine sentence in the interface language if it
        // is one); what to do in the interface language.
        QMessageBox::critical(nullptr, QObject::tr("OncePay Console"),
                              QObject::tr("The configuration cannot be used. Correct what is named"
                                          " below, in the configuration file or the environment"
                                          " variable it names, and start the console again.\n\n%1")
                                  .arg(Labels::engineText(config.error().message)));
        return 3;
    }
    Logging::Options log;
    log.level = config->logLevel;
    log.file = config->logFile;
    QString logError;
    if (!Logging::setup(log, &logError))
        spdlog::warn("log file {} unavailable: {}", log.file.toStdString(), logError.toStdString());
    // The profile without its password; each database is opened (and its schema read) by the
    // main window's health check once signed in, and logged then.
    spdlog::info("oncepay-console {} starting: configuration {}, orders database {}, language {}",
                 QApplication::applicationVersion().toStdString(),
                 config->fromFile ? config->sourcePath.toStdString()
                                  : config->sourcePath.toStdString() + " (not there yet: defaults)",
                 config->orders.describe().toStdString(), locale.name().toStdString());

    QString scriptedPassword;
    if (parser.isSet(passwordStdinOption)) {
        std::string line;
        std::getline(std::cin, line);
        scriptedPassword = QString::fromStdString(line).trimmed();
    }
    KeychainStore keychain;
    QString notice; // why the console ended the last session itself, for the next sign-in
    for (bool first = true;; first = false) {
        if (!passwordsReady(*config, keychain))
            return 0;
        SignInDialog signIn(config->orders);
        if (!notice.isEmpty()) {
            spdlog::info("sign-in dialog shown again: the console ended the session");
            signIn.showNotice(std::exchange(notice, QString()));
        }
        QObject::connect(&signIn, &SignInDialog::editProfilesRequested, &signIn,
                         [&signIn] { signIn.done(kEditProfiles); });
        if (first && parser.isSet(userOption)) {
            signIn.prefill(parser.value(userOption), scriptedPassword);
            QTimer::singleShot(0, &signIn, &SignInDialog::signIn);
        }
        const int answer = signIn.exec();
        if (answer == kEditProfiles) {
            const QString path =
                config->sourcePath.isEmpty() ? AppConfig::defaultConfigPath() : config->sourcePath;
            ConnectionProfilesDialog profiles(*config, path, &keychain);
            if (profiles.exec() == QDialog::Accepted)
                *config = profiles.config();
            continue;
        }
        if (answer != QDialog::Accepted)
            return 0;

        std::optional<AppConfig> switchTo;
        int code = kRebuildWindow;
        for (bool firstWindow = true; code == kRebuildWindow; firstWindow = false) {
            MainWindow window(*config, signIn.account());
            if (const int ms = parser.value(healthOption).toInt(); ms > 0)
                window.setHealthCheckInterval(ms);
            QObject::connect(&window, &MainWindow::signedOut, &app, [&window, &notice] {
                notice = window.sessionEndNotice();
                QApplication::exit(kSignedOut);
            });
            QObject::connect(&window, &MainWindow::profilesSwitched, &app,
                             [&switchTo](const AppConfig &c) { switchTo = c; });
            QObject::connect(&window, &MainWindow::languageChanged, &app, [] {
                const QLocale now = Language::apply(Language::chosen());
                spdlog::info("interface language changed to {}", now.name().toStdString());
                QApplication::exit(kRebuildWindow);
            });
            if (first && firstWindow && parser.isSet(viewOption)) {
                const QString view = parser.value(viewOption);
                if (view == u"profiles")
                    QTimer::singleShot(0, &window, &MainWindow::editProfiles);
                else if (view == u"preferences")
                    QTimer::singleShot(0, &window, &MainWindow::editPreferences);
                else
                    window.showView(view);
            }
            if (first && firstWindow && parser.isSet(orderOption)) {
                window.openOrder(parser.value(orderOption));
                if (parser.isSet(callbackOption)) {
                    OrderPage *page = window.orderPage();
                    const int row = parser.value(callbackOption).toInt();
                    QObject::connect(
                        page, &OrderPage::orderLoaded, page,
                        [page, row] { page->showCallback(row); }, Qt::SingleShotConnection);
                }
            }
            window.show();
            code = app.exec();
            // However the loop ended (a quit from the desktop session too), unless only the
            // window is rebuilt: the session ends here, audited once.
            if (code != kRebuildWindow)
                window.recordSignOut();
        }
        if (code != kSignedOut)
            return 0;
        if (switchTo)
            *config = *switchTo;
    }
}
