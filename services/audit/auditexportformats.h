#pragma once

// The CSV and JSON formats of an audit export (DESIGN.md §6).
//
// CSV: RFC 4180 (comma, CRLF, fields with comma, quote, CR or LF quoted, quotes doubled),
// UTF-8 without BOM, one header line. Spreadsheet formulas are neutralised: a cell starting
// with = + - @ TAB or CR gets a leading apostrophe, except a plain integer ("-1250"), which no
// spreadsheet runs as a formula and which must stay an exact amount. NULL and empty are both
// empty in CSV; the JSON format keeps them apart.
//
// JSON: one object — format, filter, chain head, seal, generated_at/by — with "rows": one
// compact object per line holding every stored column (before/after JSON as the stored text,
// so a reader can recompute each row's hash with auditchain.h), plus amount_minor and
// currency as strings; "row_count" at the end.
// Thread contract: see auditexportwriter.h.

#include "auditexportwriter.h"

#include <memory>

namespace OncePay {

// AuditFilter::formatTime(ms) ("2023-11-14T22:13:20.000Z") into `out` (>= 24 bytes) without
// QDateTime, for 1970-01-01 to 9999-12-31; returns the length, or 0 outside that range.
int formatIsoTimeUtc(qint64 ms, char *out);

class AuditCsvWriter : public AuditExportWriter {
public:
    QString format() const override { return QStringLiteral("csv"); }
    QString description() const override;
    Result<void> begin(QIODevice *out, const AuditExportHeader &header) override;
    Result<void> write(const AuditLogRow &row) override;
    Result<void> writeBytes(const AuditLogRowBytes &row) override;
    Result<void> finish(qint64 rowCount) override;

    // One cell, neutralised and quoted as described above (appended to `out`).
    static void appendCell(QByteArray &out, const QString &value);
    static QStringList columns();

private:
    Result<void> flush(bool force);

    QIODevice *m_out = nullptr;
    QByteArray m_buffer;
    QByteArray m_amountStorage;
};

class AuditJsonWriter : public AuditExportWriter {
public:
    QString format() const override { return QStringLiteral("json"); }
    QString description() const override;
    Result<void> begin(QIODevice *out, const AuditExportHeader &header) override;
    Result<void> write(const AuditLogRow &row) override;
    Result<void> finish(qint64 rowCount) override;

    static void appendString(QByteArray &out, const QString &value); // a JSON string literal

private:
    Result<void> flush(bool force);

    QIODevice *m_out = nullptr;
    QByteArray m_buffer;
    bool m_first = true;
};

// The writer of a format services/ writes ("csv", "json"); nullptr for any other (the PDF
// report is models/audit/auditpdfwriter.h's).
std::unique_ptr<AuditExportWriter> makeAuditExportWriter(const QString &format);

} // namespace OncePay
