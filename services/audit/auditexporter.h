#pragma once

// Exports what an audit filter shows (DESIGN.md §6) and checks such an export later.
//
// run(): checks Action::ReadAudit (a refusal is audited), pins the chain head (rows appended
// meanwhile stay out), counts, streams the rows in seq order through an AuditExportWriter
// into a temporary file while hashing every byte, renames it into place, writes the manifest
// beside it (<file>.manifest.json: filter, row count, SHA-256 and size of the file, chain head
// seq + hash, the latest seal at or below the head, generated_at, generated_by), and records
// `audit.exported` (filter, row count, file digest, head) in the orders database's audit
// outbox. Cancelled or failed: no file, no manifest, no audit row.
//
// verify(): re-reads the file a manifest names, recomputes its SHA-256 and size, and checks
// that the head it covers is still in the audit database with the same hash, and its seal
// with the same signature; and finds the export's own `audit.exported` row (by the manifest's
// export id: in the audit log, re-hashed, or still in the outbox before the shipper moved it)
// and checks that it recorded this file's digest, size, format and row count and this
// manifest's filter, head and author — so an edited file, an edited manifest (its digest made
// to fit an edited file included: a CSV or PDF holds no row hashes of its own) or a rewritten
// chain shows.
//
// Thread contract: the thread that opened both connections; the progress callback runs on
// it and returning false cancels.

#include "auditexportwriter.h"
#include "audittrailquery.h"
#include "core/clock.h"

#include <QJsonObject>

#include <functional>

namespace OncePay {

struct AuditManifest {
    QString file;        // file name, relative to the manifest's folder
    QString fileFormat;  // csv, json, pdf
    QString description; // of the format
    QString sha256;      // lowercase hex of the file's bytes
    qint64 bytes = 0;
    qint64 rowCount = 0;
    AuditFilter filter;
    AuditHead head;
    qint64 generatedAt = 0;
    Actor generatedBy;
    QString exportId;

    QJsonObject toJson() const;
    static Result<AuditManifest> fromJson(const QJsonObject &json);
    static Result<AuditManifest> load(const QString &path);
    static QString pathFor(const QString &exportPath); // <file>.manifest.json
};

struct AuditExportResult {
    QString path;
    QString manifestPath;
    AuditManifest manifest;
    QString eventId; // the audit.exported event
    bool cancelled = false;
};

struct AuditExportCheck {
    AuditManifest manifest;
    QString actualSha256;
    qint64 actualBytes = 0;
    bool fileMatches = false;
    bool headMatches = false; // the head row is in the audit log with the same hash
    bool sealMatches = true;  // no seal named, or the checkpoint is there unchanged
    // JSON exports: every row in the file re-hashed (and linked to the one before it when
    // consecutive), and as many rows as the manifest says. -1: not a JSON export, not checked.
    qint64 rowsRehashed = -1;
    // CSV exports: rows found equal to the audit log's, written again by the CSV writer for
    // the manifest's filter up to its head (up to the first that differs). -1: not checked.
    qint64 rowsCompared = -1;
    bool rowsMatch = true;
    // The export's own `audit.exported` row: where it was found (its seq in the audit log, or
    // still waiting in the orders database's outbox), and whether it records this file and
    // this manifest. Missing: no such export was recorded here.
    enum class Record { Missing, InAuditLog, InOutbox };
    Record record = Record::Missing;
    qint64 recordSeq = 0;
    bool recordMatches = false;
    QStringList problems; // readable lines; empty when ok()
    // Stopped by its progress function before every check was made: nothing was concluded.
    bool cancelled = false;

    bool ok() const
    {
        return !cancelled && fileMatches && headMatches && sealMatches && rowsMatch &&
               recordMatches;
    }
    QString summary() const;
};

class AuditExporter {
public:
    using Progress = std::function<bool(qint64 done, qint64 total)>;

    AuditExporter(const Connection &audit, const Connection &orders, const Clock &clock);

    void setPageSize(int rows) { m_pageSize = qMax(1, rows); }
    // Where the export is made from ("cli:<OS account>@<host>", "console@<host>"): recorded as
    // "where" in its audit row beside the staff account it is made for, so an export made from
    // the command line for someone (`--as`) names who ran it. Empty: not recorded.
    void setOrigin(const QString &where) { m_origin = where; }

    Result<AuditExportResult> run(const AuditFilter &filter, const QString &path,
                                  AuditExportWriter &writer, const Actor &actor,
                                  const Progress &progress = {}) const;

    // `progress` (rows of the file checked, the manifest's row count) is called while a CSV
    // or JSON export's rows are checked; returning false stops the check (cancelled).
    Result<AuditExportCheck> verify(const QString &manifestPath, const Actor &actor,
                                    const Progress &progress = {}) const;

    static Result<QString> fileSha256(const QString &path, qint64 *bytes = nullptr);

private:
    // How often a row check reports its progress for `total` rows.
    static qint64 progressStep(qint64 total);
    // Re-hashes the rows of a JSON export (`check` says what it found).
    static void checkJsonRows(const QString &filePath, AuditExportCheck &check,
                              const Progress &progress);
    // Compares a CSV export's rows with the audit log's: the manifest's filter (pinned to its
    // head) streamed through the CSV writer again beside the file; names the first row and
    // column that differ, or the rows added or removed.
    Result<void> checkCsvRows(const QString &filePath, AuditExportCheck &check, const Actor &actor,
                              const Progress &progress) const;
    // Finds the export's `audit.exported` row and compares it with the file and the manifest.
    Result<void> checkRecord(AuditExportCheck &check) const;
    // A row of the export fails its hash or link: the refusal, logged and audited.
    Error rowBroken(const AuditProblem &problem, const AuditExportHeader &header,
                    const Actor &actor) const;

    const Connection &m_audit;
    const Connection &m_orders;
    const Clock &m_clock;
    AuditTrailQuery m_query;
    int m_pageSize = 5000;
    QString m_origin;
};

} // namespace OncePay
