#include "language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QPointer>
#include <QSettings>
#include <QTranslator>

#include <spdlog/spdlog.h>

namespace OncePay::Language {

namespace {

const QString kKey = QStringLiteral("ui/language");

// Owned by the application object, so they go when it goes.
QPointer<QTranslator> g_app;
QPointer<QTranslator> g_qt;

void drop(QPointer<QTranslator> &t)
{
    if (t) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
}

} // namespace

QStringList choices()
{
    return {QString(), QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString displayName(const QString &code)
{
    if (code == u"en")
        return QStringLiteral("English");
    if (code == u"zh_CN")
        return QStringLiteral("简体中文");
    // What following the system gives here: the console has two languages, 简体中文 for a
    // Chinese system and English for any other (a C or POSIX locale included).
    return QCoreApplication::translate("OncePay::Language", "Follow the system (%1)")
        .arg(displayName(QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh_CN")
                                                                          : QStringLiteral("en")));
}

QString chosen()
{
    const QString code = QSettings().value(kKey).toString();
    return choices().contains(code) ? code : QString();
}

void choose(const QString &code)
{
    QSettings().setValue(kKey, choices().contains(code) ? code : QString());
}

QLocale apply(const QString &code)
{
    drop(g_app);
    drop(g_qt);
    const QLocale wanted = code.isEmpty() ? QLocale::system() : QLocale(code);
    QLocale used(QLocale::English, QLocale::UnitedStates);
    if (wanted.language() == QLocale::Chinese) {
        const QLocale zh(QLocale::Chinese, QLocale::China);
        auto *app = new QTranslator(QCoreApplication::instance());
        if (app->load(zh, QStringLiteral("oncepay"), QStringLiteral("_"),
                      QStringLiteral(":/i18n"))) {
            QCoreApplication::installTranslator(app);
            g_app = app;
            used = zh;
        } else {
            delete app;
            spdlog::warn("the 简体中文 translation is missing from this build");
        }
        auto *qt = new QTranslator(QCoreApplication::instance());
        if (qt->load(zh, QStringLiteral("qtbase"), QStringLiteral("_"),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(qt);
            g_qt = qt;
        } else {
            delete qt;
        }
    }
    if (!g_app) {
        // English (asked for, or what a missing 简体中文 leaves) is the source language; its plural
        // forms ("1 order", "3 orders") are a translation of the counted messages alone.
        auto *app = new QTranslator(QCoreApplication::instance());
        if (app->load(QStringLiteral(":/i18n/oncepay_en.qm"))) {
            QCoreApplication::installTranslator(app);
            g_app = app;
        } else {
            delete app;
            spdlog::warn("the English plural forms are missing from this build");
        }
    }
    QLocale::setDefault(used);
    return used;
}

} // namespace OncePay::Language
