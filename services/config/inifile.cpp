#include "inifile.h"

#include <QFile>
#include <QRegularExpression>

namespace OncePay {

Result<IniFile> IniFile::parse(const QString &text, const QString &origin)
{
    static const QRegularExpression sectionRe(QStringLiteral(R"(^\[([A-Za-z0-9_.\-]+)\]$)"));
    static const QRegularExpression keyRe(QStringLiteral(R"(^([A-Za-z0-9_.\-]+)\s*=\s*(.*)$)"));

    IniFile ini;
    QString current;
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(u'#') || line.startsWith(u';'))
            continue;
        if (const auto m = sectionRe.match(line); m.hasMatch()) {
            current = m.captured(1).toLower();
            ini.m_sections[current];
            if (!ini.m_lines.contains(current + u'\n'))
                ini.m_lines.insert(current + u'\n', int(i + 1));
            continue;
        }
        const auto m = keyRe.match(line);
        if (!m.hasMatch())
            return makeError(
                ErrorCode::Invalid,
                QStringLiteral("%1:%2: expected '[section]' or 'key = value', got '%3'")
                    .arg(origin)
                    .arg(i + 1)
                    .arg(line.left(60)));
        if (current.isEmpty())
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("%1:%2: key '%3' outside of any [section]")
                                 .arg(origin)
                                 .arg(i + 1)
                                 .arg(m.captured(1)));
        QString value = m.captured(2).trimmed();
        if (value.size() >= 2 && value.startsWith(u'"') && value.endsWith(u'"'))
            value = value.mid(1, value.size() - 2);
        ini.m_sections[current][m.captured(1).toLower()] = value;
        ini.m_lines.insert(current + u'\n' + m.captured(1).toLower(), int(i + 1));
    }
    return ini;
}

Result<IniFile> IniFile::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray bytes = file.readAll();
    const QString text = QString::fromUtf8(bytes);
    if (text.toUtf8() != bytes)
        return makeError(ErrorCode::Invalid, QStringLiteral("%1: not valid UTF-8").arg(path));
    return parse(text, path);
}

QString IniFile::value(const QString &section, const QString &key, const QString &fallback) const
{
    return m_sections.value(section).value(key, fallback);
}

} // namespace OncePay
