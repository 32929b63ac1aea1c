// oncepay-console — the desktop console. Loads the configuration, picks the language, asks
// who is there (sign-in), opens the main window. Everything else lives in views/ and below.
//
// Demo and development only: `--user NAME --password-stdin` signs in with the password
// read from the first line of stdin (never from an argument), `--view NAME` and
// `--order ID` choose what the window shows, and `--screenshot FILE` saves a PNG of the
// window after start-up and quits. The scripted screenshots in docs/screenshots use them.

#include "auth/signindialog.h"
#include "config/appconfig.h"
#include "logging/logging.h"
#include "shell/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <QTranslator>

#include <iostream>
#include <string>

#include <spdlog/spdlog.h>

using namespace OncePay;

namespace {

constexpr int kSignedOut = 10;

void scheduleScreenshot(const QString &file, int delayMs)
{
    QTimer::singleShot(delayMs, qApp, [file] {
        QWidget *target = QApplication::activeModalWidget();
        if (!target)
            for (QWidget *w : QApplication::topLevelWidgets())
                if (w->isVisible() && qobject_cast<MainWindow *>(w))
                    target = w;
        if (target)
            target->grab().save(file);
        else
            spdlog::error("screenshot: no window to capture");
        QApplication::exit(0);
    });
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OncePay"));
    QApplication::setApplicationName(QStringLiteral("oncepay-console"));
    QApplication::setApplicationVersion(QStringLiteral(ONCEPAY_VERSION " (" ONCEPAY_GIT_ID ")"));

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
    const QCommandLineOption userOption(QStringLiteral("user"),
                                        QStringLiteral("Demo/dev: user name to sign in with."),
                                        QStringLiteral("NAME"));
    const QCommandLineOption passwordStdinOption(
        QStringLiteral("password-stdin"),
        QStringLiteral("Demo/dev: read the password from the first line of stdin."));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        QStringLiteral("View to open: dashboard, orders, stuck, databases."),
        QStringLiteral("NAME"));
    const QCommandLineOption orderOption(
        QStringLiteral("order"), QStringLiteral("Search for this identifier on the order page."),
        QStringLiteral("ID"));
    parser.addOptions({configOption, langOption, shotOption, delayOption, userOption,
                       passwordStdinOption, viewOption, orderOption});
    parser.process(app);

    const QLocale locale = parser.isSet(langOption) ? QLocale(parser.value(langOption)) : QLocale();
    QTranslator appTranslator;
    QTranslator qtTranslator;
    if (locale.language() == QLocale::Chinese) {
        if (appTranslator.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("oncepay"),
                               QStringLiteral("_"), QStringLiteral(":/i18n")))
            QApplication::installTranslator(&appTranslator);
        if (qtTranslator.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("qtbase"),
                              QStringLiteral("_"),
                              QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QApplication::installTranslator(&qtTranslator);
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    }

    auto config = AppConfig::load(parser.value(configOption));
    if (!config) {
        QMessageBox::critical(
            nullptr, QObject::tr("OncePay Console"),
            QObject::tr("The configuration cannot be used:\n%1").arg(config.error().message));
        return 3;
    }
    Logging::Options log;
    log.level = config->logLevel;
    log.file = config->logFile;
    Logging::setup(log);
    spdlog::info("console starting on {}", config->orders.describe().toStdString());

    QString scriptedPassword;
    if (parser.isSet(passwordStdinOption)) {
        std::string line;
        std::getline(std::cin, line);
        scriptedPassword = QString::fromStdString(line).trimmed();
    }
    const bool screenshot = parser.isSet(shotOption);
    const int delay = parser.value(delayOption).toInt();

    // Captures whatever is showing then: the sign-in dialog (with its refusal) or the window.
    if (screenshot)
        scheduleScreenshot(parser.value(shotOption), delay);

    for (bool first = true;; first = false) {
        SignInDialog signIn(config->orders);
        if (first && parser.isSet(userOption)) {
            signIn.prefill(parser.value(userOption), scriptedPassword);
            QTimer::singleShot(0, &signIn, &SignInDialog::signIn);
        }
        if (signIn.exec() != QDialog::Accepted)
            return 0;

        MainWindow window(*config, signIn.account());
        QObject::connect(&window, &MainWindow::signedOut, &app,
                         [] { QApplication::exit(kSignedOut); });
        if (first && parser.isSet(viewOption))
            window.showView(parser.value(viewOption));
        if (first && parser.isSet(orderOption))
            window.openOrder(parser.value(orderOption));
        window.show();
        if (app.exec() != kSignedOut)
            return 0;
    }
}
