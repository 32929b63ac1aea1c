#pragma once

// A strict INI reader: `[section]`, `key = value`, `#`/`;` comments. Unlike QSettings it
// refuses what it does not understand and names the line, so a typo in a connection
// profile is an error instead of a silent default.
// Thread contract: plain value.

#include "core/result.h"

#include <QMap>
#include <QString>

namespace OncePay {

class IniFile {
public:
    static Result<IniFile> parse(const QString &text, const QString &origin);
    static Result<IniFile> load(const QString &path);

    bool hasSection(const QString &section) const { return m_sections.contains(section); }
    QStringList sections() const { return m_sections.keys(); }
    QMap<QString, QString> section(const QString &name) const { return m_sections.value(name); }
    QString value(const QString &section, const QString &key, const QString &fallback = {}) const;
    // The 1-based line a section's header (key empty) or a key stood on; 0 when absent.
    int line(const QString &section, const QString &key = {}) const
    {
        return m_lines.value(section + QLatin1Char('\n') + key);
    }

private:
    QMap<QString, QMap<QString, QString>> m_sections;
    QMap<QString, int> m_lines; // "section\nkey" -> line
};

} // namespace OncePay
