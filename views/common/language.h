#pragma once

// The interface language: follows the system unless the person chose one in Preferences
// (kept in the per-user settings, key ui/language: "" = system, "en", "zh_CN"). apply()
// installs the console's and Qt's own translations and replaces those installed before.
// Thread contract: GUI thread only.

#include <QLocale>
#include <QStringList>

namespace OncePay::Language {

QStringList choices();                    // "", "en", "zh_CN"
QString displayName(const QString &code); // "Follow the system", "English", "简体中文"
QString chosen();                         // from the settings; "" when none
void choose(const QString &code);         // an unknown code is stored as ""
QLocale apply(const QString &code);       // "" = the system language; returns the locale used

} // namespace OncePay::Language
