#pragma once

// Shared parsing help for header-addressed CSV statements: finds the header row among title
// lines, maps column names to positions, and reads typed fields whose errors name the line,
// the column number and the column's name.
// Thread contract: plain values.

#include "settlement/csvreader.h"

#include <QHash>

namespace OncePay::StatementTable {

struct Header {
    int recordIndex = -1;        // index into the records of the header row
    QHash<QString, int> columns; // lower-cased, trimmed name -> 0-based position
    QStringList names;

    int find(const QString &name) const
    {
        const auto it = columns.constFind(name); // the exact spelling first: no allocation
        return it != columns.constEnd() ? *it : columns.value(name.toLower(), -1);
    }
};

// The first record that holds every one of `required` (case-insensitive) within the first
// `maxScan` records; an error naming the missing columns otherwise.
Result<Header> findHeader(const QList<Csv::Record> &records, const QStringList &required,
                          int maxScan = 20);

struct Row {
    const Csv::Record &record;
    const Header &header;

    // The field, or an error if the column is absent from this record.
    Result<QString> text(const QString &name) const;
    QString optional(const QString &name) const;
    Result<qint64> amount(const QString &name, const QString &currency, bool grouping) const;
    Result<qint64> integer(const QString &name, bool grouping) const;
    // "YYYY-MM-DD HH:MM:SS" (or with T / Z / an offset, or a bare date) at `offsetSeconds`
    // from UTC when the text carries no offset of its own.
    Result<qint64> time(const QString &name, int offsetSeconds = 0) const;
    Error error(const QString &name, const QString &what) const;
    // Refuses a value whose sign a line of this kind cannot have (`what` names the kind as
    // the channel prints it: "charge", "T1107", "취소"): `notNegative` asks >= 0, otherwise
    // <= 0. The error names the line, the column and the text found there.
    Result<void> requireSign(const QString &name, qint64 value, bool notNegative,
                             const QString &what) const;
};

// Parses the date-time forms the channels print; nothing on failure.
std::optional<qint64> parseTime(const QString &text, int offsetSeconds = 0);
QString formatUtc(qint64 ms, const QString &format = QStringLiteral("yyyy-MM-dd HH:mm:ss"));

// Removes the grouping separators a channel uses: ',' and, for French locales, spaces.
QString ungroup(QString text, bool spaces);

// Upper-cased ISO code, refused when OncePay does not know it.
Result<QString> currency(const Row &row, const QString &name);

} // namespace OncePay::StatementTable
