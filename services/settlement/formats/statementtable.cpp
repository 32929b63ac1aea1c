#include "statementtable.h"

#include "core/money.h"

#include <QDateTime>
#include <QRegularExpression>

namespace OncePay::StatementTable {

Result<Header> findHeader(const QList<Csv::Record> &records, const QStringList &required,
                          int maxScan)
{
    for (qsizetype i = 0; i < records.size() && i < maxScan; ++i) {
        Header h;
        h.recordIndex = int(i);
        for (qsizetype c = 0; c < records[i].fields.size(); ++c) {
            const QString name = records[i].fields[c].trimmed();
            h.names << name;
            if (!h.columns.contains(name.toLower()))
                h.columns.insert(name.toLower(), int(c));
            if (!h.columns.contains(name))
                h.columns.insert(name, int(c));
        }
        bool all = true;
        for (const QString &r : required)
            all = all && h.columns.contains(r.toLower());
        if (all)
            return h;
    }
    return makeError(ErrorCode::Corrupt,
                     QStringLiteral("no header row with the columns %1 in the first %2 lines")
                         .arg(required.join(QStringLiteral(", ")))
                         .arg(maxScan),
                     QStringLiteral("corrupt_statement"));
}

Error Row::error(const QString &name, const QString &what) const
{
    return Csv::fieldError(record.line, header.find(name) + 1, name, what);
}

Result<void> Row::requireSign(const QString &name, qint64 value, bool notNegative,
                              const QString &what) const
{
    if (notNegative ? value >= 0 : value <= 0)
        return {};
    return error(name, (notNegative ? QStringLiteral("'%1' is negative, impossible for a %2 line")
                                    : QStringLiteral("'%1' is positive, impossible for a %2 line"))
                           .arg(optional(name), what));
}

Result<QString> Row::text(const QString &name) const
{
    const int c = header.find(name);
    if (c < 0 || c >= record.fields.size())
        return Csv::fieldError(record.line, c + 1, name,
                               QStringLiteral("missing (the record has %1 fields, the header %2)")
                                   .arg(record.fields.size())
                                   .arg(header.names.size()));
    return record.fields.at(c).trimmed();
}

QString Row::optional(const QString &name) const
{
    const int c = header.find(name);
    return c >= 0 && c < record.fields.size() ? record.fields.at(c).trimmed() : QString();
}

Result<qint64> Row::amount(const QString &name, const QString &code, bool grouping) const
{
    auto t = text(name);
    if (!t)
        return t.error();
    auto v = Currency::parseDecimal(grouping ? ungroup(*t, false) : *t, code, false);
    if (!v)
        return error(
            name,
            QStringLiteral("'%1' is not an amount in %2: %3").arg(*t, code, v.error().message));
    return *v;
}

Result<qint64> Row::integer(const QString &name, bool grouping) const
{
    auto t = text(name);
    if (!t)
        return t.error();
    bool ok = false;
    const qint64 v = (grouping ? ungroup(*t, false) : *t).toLongLong(&ok);
    if (!ok)
        return error(name, QStringLiteral("'%1' is not a whole number").arg(*t));
    return v;
}

Result<qint64> Row::time(const QString &name, int offsetSeconds) const
{
    auto t = text(name);
    if (!t)
        return t.error();
    auto v = parseTime(*t, offsetSeconds);
    if (!v)
        return error(name, QStringLiteral("'%1' is not a date and time").arg(*t));
    return *v;
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

// "YYYY-MM-DD HH:MM:SS" exactly: the form every export here prints, parsed without
// allocating; anything else goes the general way.
std::optional<qint64> fastTime(QStringView t, int offsetSeconds)
{
    if (t.size() != 19 || t[10] != u' ' || t[13] != u':' || t[16] != u':' ||
        !(t[4] == u'-' || t[4] == u'/') || t[7] != t[4])
        return std::nullopt;
    int v[6];
    const int at[6] = {0, 5, 8, 11, 14, 17};
    const int len[6] = {4, 2, 2, 2, 2, 2};
    for (int k = 0; k < 6; ++k) {
        int x = 0;
        for (int c = 0; c < len[k]; ++c) {
            const QChar ch = t[at[k] + c];
            if (ch < u'0' || ch > u'9')
                return std::nullopt;
            x = x * 10 + (ch.unicode() - u'0');
        }
        v[k] = x;
    }
    if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > QDate(v[0], v[1], 1).daysInMonth() ||
        v[3] > 23 || v[4] > 59 || v[5] > 59)
        return std::nullopt;
    const qint64 seconds = daysFromCivil(v[0], unsigned(v[1]), unsigned(v[2])) * 86400 +
                           v[3] * 3600 + v[4] * 60 + v[5] - offsetSeconds;
    return seconds * 1000;
}

} // namespace

std::optional<qint64> parseTime(const QString &raw, int offsetSeconds)
{
    if (auto fast = fastTime(QStringView(raw), offsetSeconds))
        return fast;
    static const QRegularExpression re(QStringLiteral(
        R"(^(\d{4})[-/](\d{2})[-/](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$)"));
    const auto m = re.match(raw.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    const QTime time(m.captured(4).toInt(), m.captured(5).toInt(), m.captured(6).toInt());
    if (!date.isValid() || !time.isValid())
        return std::nullopt;
    int offset = offsetSeconds;
    const QString zone = m.captured(7);
    if (zone == u"Z" || zone == u"UTC") {
        offset = 0;
    } else if (!zone.isEmpty()) {
        const QString digits = QString(zone).remove(u':');
        offset = (digits.mid(1, 2).toInt() * 3600 + digits.mid(3, 2).toInt() * 60) *
                 (digits[0] == u'-' ? -1 : 1);
    }
    return QDateTime(date, time, Qt::UTC).toMSecsSinceEpoch() - qint64(offset) * 1000;
}

QString formatUtc(qint64 ms, const QString &format)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(format);
}

QString ungroup(QString text, bool spaces)
{
    text.remove(u',');
    if (spaces) {
        text.remove(u' ');
        text.remove(QChar(0x00A0));
        text.remove(QChar(0x202F));
    }
    return text;
}

Result<QString> currency(const Row &row, const QString &name)
{
    auto t = row.text(name);
    if (!t)
        return t.error();
    const QString code = t->toUpper();
    if (!Currency::isKnown(code))
        return row.error(name, QStringLiteral("unknown currency '%1'").arg(*t));
    return code;
}

} // namespace OncePay::StatementTable
