#include "csvreader.h"

namespace OncePay::Csv {

Result<QList<Record>> read(const QByteArray &bytes)
{
    QByteArray data = bytes;
    if (data.startsWith("\xEF\xBB\xBF"))
        data.remove(0, 3);
    const QString text = QString::fromUtf8(data);
    if (text.contains(QChar::ReplacementCharacter) && !data.contains("\xEF\xBF\xBD"))
        return makeError(ErrorCode::Corrupt, QStringLiteral("the file is not UTF-8"),
                         QStringLiteral("encoding"));

    QList<Record> records;
    Record current;
    QString field;
    int line = 1;
    int column = 1;
    int fieldStartLine = 1;
    int fieldStartColumn = 1;
    bool inQuotes = false;
    bool fieldWasQuoted = false;
    qsizetype recordStart = 0;
    current.line = 1;

    auto endField = [&] {
        current.fields << field;
        field.clear();
        fieldWasQuoted = false;
    };
    auto endRecord = [&](qsizetype endPos, qsizetype nextStart) {
        endField();
        current.raw = text.mid(recordStart, endPos - recordStart);
        const bool blank = current.fields.size() == 1 && current.fields.first().isEmpty();
        if (!blank)
            records << current;
        current = Record();
        recordStart = nextStart;
    };

    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = text.at(i);
        if (inQuotes) {
            if (c == u'"') {
                if (i + 1 < n && text.at(i + 1) == u'"') {
                    field += u'"';
                    ++i;
                    column += 2;
                    continue;
                }
                inQuotes = false;
                ++column;
                continue;
            }
            field += c;
            if (c == u'\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
            continue;
        }
        if (c == u'"' && field.isEmpty() && !fieldWasQuoted) {
            inQuotes = true;
            fieldWasQuoted = true;
            fieldStartLine = line;
            fieldStartColumn = int(current.fields.size()) + 1;
            ++column;
            continue;
        }
        if (c == u'"')
            return fieldError(line, int(current.fields.size()) + 1, {},
                              QStringLiteral("stray quote inside an unquoted field"));
        if (c == u',') {
            endField();
            ++column;
            continue;
        }
        if (c == u'\r' || c == u'\n') {
            qsizetype next = i + 1;
            if (c == u'\r' && next < n && text.at(next) == u'\n')
                ++next;
            endRecord(i, next);
            i = next - 1;
            ++line;
            column = 1;
            current.line = line;
            continue;
        }
        if (fieldWasQuoted)
            return fieldError(line, int(current.fields.size()) + 1, {},
                              QStringLiteral("text after the closing quote"));
        // Fast path: the rest of an unquoted field up to the next separator in one slice.
        qsizetype j = i + 1;
        const QChar *p = text.constData();
        while (j < n && p[j] != u',' && p[j] != u'\r' && p[j] != u'\n' && p[j] != u'"')
            ++j;
        field += QStringView(p + i, j - i);
        column += int(j - i);
        i = j - 1;
    }
    if (inQuotes)
        return fieldError(fieldStartLine, fieldStartColumn, {},
                          QStringLiteral("quoted field never closed"));
    if (!field.isEmpty() || !current.fields.isEmpty())
        endRecord(n, n);
    return records;
}

QString quote(const QString &field, bool always)
{
    const bool needs = always || field.contains(u',') || field.contains(u'"') ||
                       field.contains(u'\n') || field.contains(u'\r');
    if (!needs)
        return field;
    QString out = field;
    out.replace(u'"', QStringLiteral("\"\""));
    return u'"' + out + u'"';
}

QString join(const QStringList &fields, bool quoteAll)
{
    QString out;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            out += u',';
        out += quote(fields[i], quoteAll);
    }
    return out;
}

Error fieldError(int line, int column, const QString &name, const QString &what)
{
    const QString where =
        name.isEmpty() ? QStringLiteral("line %1, column %2").arg(line).arg(column)
                       : QStringLiteral("line %1, column %2 (%3)").arg(line).arg(column).arg(name);
    return makeError(ErrorCode::Corrupt, where + QStringLiteral(": ") + what,
                     QStringLiteral("corrupt_statement"));
}

} // namespace OncePay::Csv
