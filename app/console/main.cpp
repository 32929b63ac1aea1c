// oncepay-console — the desktop console. Loads the configuration, picks the language, opens
// the main window. Everything else lives in views/ and below.

#include "config/appconfig.h"
#include "db/migrator.h"
#include "logging/logging.h"
#include "shell/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QMessageBox>
#include <QTimer>
#include <QTranslator>

#include <spdlog/spdlog.h>

using namespace OncePay;

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
    const QCommandLineOption configOption(QStringLiteral("config"),
                                          QStringLiteral("Configuration file."), QStringLiteral("FILE"));
    const QCommandLineOption langOption(QStringLiteral("lang"),
                                        QStringLiteral("Interface language (en, zh_CN); default: system."),
                                        QStringLiteral("LANG"));
    const QCommandLineOption shotOption(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a PNG of the window after start-up and quit."),
                                        QStringLiteral("FILE"));
    parser.addOptions({configOption, langOption, shotOption});
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
    }

    auto config = AppConfig::load(parser.value(configOption));
    if (!config) {
        QMessageBox::critical(nullptr, QObject::tr("OncePay Console"),
                              QObject::tr("The configuration cannot be used:\n%1")
                                  .arg(config.error().message));
        return 3;
    }
    Logging::Options log;
    log.level = config->logLevel;
    log.file = config->logFile;
    Logging::setup(log);
    spdlog::info("console starting on {}", config->orders.describe().toStdString());

    MainWindow window(*config);
    window.show();

    if (parser.isSet(shotOption)) {
        const QString file = parser.value(shotOption);
        QTimer::singleShot(2500, &window, [&window, file] {
            window.grab().save(file);
            QApplication::quit();
        });
    }
    return app.exec();
}
