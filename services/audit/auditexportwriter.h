#pragma once

// One export format of the audit trail (DESIGN.md §6): the exporter streams the filtered rows
// into a writer, which encodes them onto a device. CSV and JSON live here in services
// (auditexportformats.h); the PDF report needs QtGui and lives in models/audit/auditpdf.h.
// Amounts stay exact: integer minor units and currency codes are written as text, never as
// floating point.
// Thread contract: one writer per export, used on the exporting thread only.

#include "auditchain.h"
#include "auditfilter.h"
#include "audittrailquery.h"
#include "core/actor.h"
#include "core/result.h"

#include <QIODevice>

namespace OncePay {

// What every format states at its top: what was asked, what it covers, who and when.
struct AuditExportHeader {
    AuditFilter filter;
    AuditHead head;
    qint64 expectedRows = 0; // from a count at the start; the file states the real count
    qint64 generatedAt = 0;  // epoch ms
    Actor generatedBy;
    QString exportId;
};

class AuditExportWriter {
public:
    virtual ~AuditExportWriter() = default;
    virtual QString format() const = 0;      // "csv", "json", "pdf": the file's suffix
    virtual QString description() const = 0; // for the manifest, e.g. "RFC 4180 CSV, UTF-8"
    virtual Result<void> begin(QIODevice *out, const AuditExportHeader &header) = 0;
    virtual Result<void> write(const AuditLogRow &row) = 0;
    // The same row as UTF-8 bytes (what the exporter streams); must write exactly what
    // write(row.toRow()) writes. The default does just that; CSV encodes the bytes directly.
    virtual Result<void> writeBytes(const AuditLogRowBytes &row) { return write(row.toRow()); }
    virtual Result<void> finish(qint64 rowCount) = 0;
};

// The amount an audit row records, if any, taken from after_json (else before_json) without
// going through floating point: "amount_minor", else the first "*_minor" key, and "currency".
struct AuditAmount {
    QString minor; // integer minor units as text, e.g. "-1250"; empty: none
    QString currency;
};
AuditAmount auditRowAmount(const AuditLogRow &row);

// The same as auditRowAmount(row.toRow()), without a QString per cell where the JSON is plain
// (keys and the values read without escapes, integer amounts as -?digits); anything else is
// decided by auditRowAmount itself. Views point into `row` (or into `*storage` when the slow
// path decided); valid while both live.
struct AuditAmountBytes {
    QByteArrayView minor; // empty: none
    QByteArrayView currency;
};
AuditAmountBytes auditRowAmountBytes(const AuditLogRowBytes &row, QByteArray *storage);

} // namespace OncePay

namespace OncePay {

// {"seq": "...", "hash": "..."} and the seal as JSON objects (null when there is none), the
// same in the JSON export, the manifest and the audit row of the export.
QJsonObject auditHeadJson(const AuditHead &head);
QJsonValue auditSealJson(const AuditHead &head);

} // namespace OncePay
