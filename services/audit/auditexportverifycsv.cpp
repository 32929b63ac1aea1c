// A CSV export's rows against the audit log (AuditExporter::checkCsvRows, auditexporter.h):
// the manifest's filter, pinned to its head, written again by the CSV writer beside the file;
// the first row and column that differ are named, or the rows added or removed.

#include "auditexporter.h"

#include "auditexportformats.h"
#include "db/sql.h"
#include "settlement/csvreader.h"

#include <QBuffer>
#include <QFile>

#include <vector>

namespace OncePay {

namespace {

// What the CSV writer writes, compared with the file's bytes as it goes: the first offset
// where they part (the file changed, or ends early, or goes on), and which CSV record of the
// file holds it — the file and the writer's output are the same text up to there, so the
// records are counted on the writer's bytes (CRLF outside quotes ends one).
class CsvComparingDevice : public QIODevice {
public:
    explicit CsvComparingDevice(QFile *file)
        : m_file(file)
    {
        open(QIODevice::WriteOnly);
    }
    bool isSequential() const override { return true; }
    bool parted() const { return m_partedAt >= 0; }
    qint64 partedAt() const { return m_partedAt; }
    qint64 record() const { return m_record; }           // 0: the header line
    qint64 recordStart() const { return m_recordStart; } // its first byte in the file
    // After the writer's last byte: a file that goes on parts there.
    void end()
    {
        if (!parted() && !m_file->atEnd())
            m_partedAt = m_pos;
    }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 len) override
    {
        if (parted())
            return len;
        m_chunk.resize(len);
        const qint64 got = m_file->read(m_chunk.data(), len);
        for (qint64 i = 0; i < len; ++i) {
            if (i >= got || m_chunk[i] != data[i]) {
                m_partedAt = m_pos + i;
                return len;
            }
            const char c = data[i];
            if (c == '"')
                m_quoted = !m_quoted;
            else if (c == '\n' && !m_quoted && m_last == '\r') {
                ++m_record;
                m_recordStart = m_pos + i + 1;
            }
            m_last = c;
        }
        m_pos += len;
        return len;
    }

private:
    QFile *m_file;
    QByteArray m_chunk;
    qint64 m_pos = 0;
    qint64 m_partedAt = -1;
    qint64 m_record = 0;
    qint64 m_recordStart = 0;
    bool m_quoted = false;
    char m_last = 0;
};

// The CSV record of `file` that starts at `start` (its fields), read up to its CRLF.
QStringList csvRecordAt(QFile &file, qint64 start)
{
    if (!file.seek(start))
        return {};
    QByteArray bytes;
    bool quoted = false;
    char last = 0, c = 0;
    while (file.getChar(&c)) {
        bytes.append(c);
        if (c == '"')
            quoted = !quoted;
        else if (c == '\n' && !quoted && last == '\r')
            break;
        last = c;
    }
    auto records = Csv::read(bytes);
    return records && !records->isEmpty() ? records->first().fields : QStringList();
}

// A cell as a problem line quotes it: at most 80 characters.
QString shown(const QString &cell)
{
    return cell.size() > 80 ? cell.left(77) + QStringLiteral("…") : cell;
}

} // namespace

Result<void> AuditExporter::checkCsvRows(const QString &filePath, AuditExportCheck &check,
                                         const Actor &actor, const Progress &progress) const
{
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        check.rowsMatch = false;
        check.problems << QStringLiteral("%1 cannot be read: %2").arg(filePath, file.errorString());
        return {};
    }
    // The manifest's filter already holds the head it was pinned to (maxSeq).
    CsvComparingDevice compare(&file);
    AuditCsvWriter writer;
    AuditExportHeader header;
    header.filter = check.manifest.filter;
    header.head = check.manifest.head;
    if (auto b = writer.begin(&compare, header); !b)
        return b.error();
    std::vector<qint64> seqs; // of the rows written, in order: record k is seqs[k - 1]
    // An export pinned to an empty chain (head seq 0, made before empty exports were refused)
    // covers no row; a maxSeq of 0 would mean no bound.
    const bool none = check.manifest.head.seq == 0;
    Result<void> failure;
    const qint64 step = progressStep(check.manifest.rowCount);
    auto streamed = none ? Result<qint64>(0)
                         : m_query.forEachBytes(
                               header.filter, m_pageSize,
                               [&](const AuditLogRowBytes &row) {
                                   if (progress && qint64(seqs.size()) % step == 0 &&
                                       !progress(qint64(seqs.size()), check.manifest.rowCount)) {
                                       check.cancelled = true;
                                       return false;
                                   }
                                   seqs.push_back(row.seq);
                                   if (auto w = writer.writeBytes(row); !w) {
                                       failure = w;
                                       return false;
                                   }
                                   return !compare.parted();
                               },
                               actor);
    if (!streamed)
        return streamed.error();
    if (!failure)
        return failure.error();
    if (check.cancelled)
        return {};
    if (auto f = writer.finish(qint64(seqs.size())); !f)
        return f.error();
    compare.end();
    check.rowsCompared = qint64(seqs.size());
    if (!compare.parted())
        return {};
    check.rowsMatch = false;
    check.rowsCompared = qMax<qint64>(0, compare.record() - 1);
    const qint64 k = compare.record();
    if (k == 0) {
        check.problems << QStringLiteral("the file's header line is not the one an OncePay CSV"
                                         " export has");
        return {};
    }
    const QStringList inFile = csvRecordAt(file, compare.recordStart());
    if (k > qint64(seqs.size())) {
        check.problems << QStringLiteral("the file goes on after the %1 row(s) the audit log holds"
                                         " for its filter, from line %2: rows were added")
                              .arg(seqs.size())
                              .arg(k + 1);
        return {};
    }
    const qint64 seq = seqs[size_t(k - 1)];
    if (inFile.isEmpty()) {
        check.problems << QStringLiteral("the file ends before the audit log's row seq %1 (row %2"
                                         " of %3): rows were removed")
                              .arg(seq)
                              .arg(k)
                              .arg(seqs.size());
        return {};
    }
    // The audit log's row written alone, to say which column differs and how.
    auto q = Sql::exec(m_audit.db(),
                       QStringLiteral("SELECT ") + AuditChain::columns() +
                           QStringLiteral(" FROM audit_log WHERE seq = ?"),
                       {seq});
    if (!q)
        return q.error();
    QStringList inLog;
    if (q->next()) {
        QBuffer one;
        one.open(QIODevice::WriteOnly);
        AuditCsvWriter alone;
        if (alone.begin(&one, header) && alone.write(AuditChain::readRow(*q)) && alone.finish(1)) {
            auto records = Csv::read(one.data());
            if (records && records->size() == 2)
                inLog = records->at(1).fields;
        }
    }
    const QStringList names = AuditCsvWriter::columns();
    for (int c = 0; c < names.size(); ++c) {
        const QString a = c < inFile.size() ? inFile[c] : QString();
        const QString b = c < inLog.size() ? inLog[c] : QString();
        if (a == b)
            continue;
        check.problems << QStringLiteral("row %1 of the file (the audit log's seq %2) differs in"
                                         " %3: the file says \u201c%4\u201d, the audit log"
                                         " \u201c%5\u201d")
                              .arg(k)
                              .arg(seq)
                              .arg(names[c], shown(a), shown(b));
        return {};
    }
    check.problems << QStringLiteral("row %1 of the file (the audit log's seq %2) differs from the"
                                     " audit log's row")
                          .arg(k)
                          .arg(seq);
    return {};
}

} // namespace OncePay
