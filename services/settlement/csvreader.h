#pragma once

// RFC 4180 reading as the channels' exports need it: UTF-8 with or without BOM, CRLF or LF,
// quoted fields with commas, doubled quotes and line breaks inside quotes. Every record keeps
// the physical line it started on, so errors can name line and column.
// Thread contract: plain functions over bytes; safe from any thread.

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace OncePay::Csv {

struct Record {
    int line = 0; // 1-based physical line where the record starts
    QStringList fields;
    QString raw; // the record's text without its line ending
};

// Splits the whole file. A quote left open at the end of the file is refused, naming the
// line and column where the field began.
Result<QList<Record>> read(const QByteArray &data);

// Quotes a field when it needs it (comma, quote, CR/LF) or when `always` is set.
QString quote(const QString &field, bool always = false);
QString join(const QStringList &fields, bool quoteAll = false);

// "line 12, column 5 (gross): not an amount"
Error fieldError(int line, int column, const QString &name, const QString &what);

} // namespace OncePay::Csv
