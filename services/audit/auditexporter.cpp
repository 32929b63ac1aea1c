#include "auditexporter.h"

#include "auditfilesink.h"
#include "auditoutbox.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <spdlog/spdlog.h>

#include <memory>

namespace OncePay {

namespace {

QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

qint64 number(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString().toLongLong();
}

Error fileError(const QString &what, const QString &path, const QString &why)
{
    spdlog::error("audit export: {} {}: {}", what.toStdString(), path.toStdString(),
                  why.toStdString());
    // A file, not a database: Unavailable would have the console say the database cannot be
    // reached and the command line exit 4 ("unavailable").
    return makeError(ErrorCode::Internal, QStringLiteral("%1 %2: %3").arg(what, path, why),
                     QStringLiteral("file_error"));
}

AuditProblem exportProblem(AuditProblem::Kind kind, qint64 seq, QString message)
{
    AuditProblem p;
    p.kind = kind;
    p.seq = seq;
    p.message = std::move(message);
    return p;
}

} // namespace

// ---- manifest ----

QString AuditManifest::pathFor(const QString &exportPath)
{
    return exportPath + QStringLiteral(".manifest.json");
}

QJsonObject AuditManifest::toJson() const
{
    return {
        {QStringLiteral("format"), QStringLiteral("oncepay.audit.manifest.v1")},
        {QStringLiteral("export_id"), exportId},
        {QStringLiteral("file"), file},
        {QStringLiteral("file_format"), fileFormat},
        {QStringLiteral("file_description"), description},
        {QStringLiteral("sha256"), sha256},
        {QStringLiteral("bytes"), QString::number(bytes)},
        {QStringLiteral("row_count"), QString::number(rowCount)},
        {QStringLiteral("filter"), filter.toJson()},
        {QStringLiteral("filter_text"), filter.describe()},
        {QStringLiteral("chain_head"), auditHeadJson(head)},
        {QStringLiteral("seal"), auditSealJson(head)},
        {QStringLiteral("generated_at"), AuditFilter::formatTime(generatedAt)},
        {QStringLiteral("generated_at_ms"), QString::number(generatedAt)},
        {QStringLiteral("generated_by"), QJsonObject{{QStringLiteral("actor"), generatedBy.id},
                                                     {QStringLiteral("role"), generatedBy.role}}}};
}

Result<AuditManifest> AuditManifest::fromJson(const QJsonObject &o)
{
    if (text(o, "format") != u"oncepay.audit.manifest.v1")
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("not an OncePay audit export manifest (format '%1')")
                             .arg(text(o, "format")),
                         QStringLiteral("bad_manifest"));
    AuditManifest m;
    m.exportId = text(o, "export_id");
    m.file = text(o, "file");
    m.fileFormat = text(o, "file_format");
    m.description = text(o, "file_description");
    m.sha256 = text(o, "sha256");
    m.bytes = number(o, "bytes");
    m.rowCount = number(o, "row_count");
    auto filter = AuditFilter::fromJson(o.value(QStringLiteral("filter")).toObject());
    if (!filter)
        return filter.error();
    m.filter = *filter;
    const QJsonObject head = o.value(QStringLiteral("chain_head")).toObject();
    m.head.seq = number(head, "seq");
    m.head.hash = text(head, "hash");
    const QJsonObject seal = o.value(QStringLiteral("seal")).toObject();
    if (!seal.isEmpty()) {
        AuditCheckpoint cp;
        cp.id = number(seal, "checkpoint_id");
        cp.seq = number(seal, "seq");
        cp.headHash = text(seal, "head_hash");
        cp.keyId = text(seal, "key_id");
        cp.signature = text(seal, "signature");
        cp.sealedBy = text(seal, "sealed_by");
        m.head.seal = cp;
    }
    m.generatedAt = number(o, "generated_at_ms");
    const QJsonObject by = o.value(QStringLiteral("generated_by")).toObject();
    m.generatedBy = {text(by, "actor"), text(by, "role")};
    if (m.file.isEmpty() || m.sha256.size() != 64 || (m.head.hash.isEmpty() && m.head.seq))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("the manifest lacks the file, its SHA-256 or the head"),
                         QStringLiteral("bad_manifest"));
    return m;
}

Result<AuditManifest> AuditManifest::load(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("cannot read manifest %1: %2").arg(path, f.errorString()),
                         QStringLiteral("no_manifest"));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (!doc.isObject())
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("manifest %1 is not a JSON object: %2").arg(path, error.errorString()),
            QStringLiteral("bad_manifest"));
    return fromJson(doc.object());
}

QString AuditExportCheck::summary() const
{
    if (cancelled)
        return QStringLiteral("export verification cancelled: nothing was concluded");
    if (ok())
        return QStringLiteral("export ok: %1 matches its manifest (SHA-256 %2, %3 rows), chain"
                              " head seq %4 is in the audit log unchanged%5")
            .arg(manifest.file, actualSha256.left(16))
            .arg(manifest.rowCount)
            .arg(manifest.head.seq)
            .arg((manifest.head.seal ? QStringLiteral(", seal %1 (seq %2) unchanged")
                                           .arg(manifest.head.seal->id)
                                           .arg(manifest.head.seal->seq)
                                     : QString()) +
                 (record == Record::InAuditLog
                      ? QStringLiteral(", as its audit row (seq %1) recorded").arg(recordSeq)
                      : QStringLiteral(", as its audit event recorded (not yet shipped into"
                                       " the audit log)")) +
                 (rowsRehashed >= 0
                      ? QStringLiteral(", every row's hash recomputed (%1)").arg(rowsRehashed)
                      : QString()) +
                 (rowsCompared >= 0
                      ? QStringLiteral(", every row the same as in the audit log (%1)")
                            .arg(rowsCompared)
                      : QString()));
    return QStringLiteral("export does NOT verify: ") + problems.join(QStringLiteral("; "));
}

// ---- exporter ----

AuditExporter::AuditExporter(const Connection &audit, const Connection &orders, const Clock &clock)
    : m_audit(audit)
    , m_orders(orders)
    , m_clock(clock)
    , m_query(audit, orders, clock)
{}

Result<QString> AuditExporter::fileSha256(const QString &path, qint64 *bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fileError(QStringLiteral("cannot read"), path, f.errorString());
    auto sha = sha256OfFile(f, bytes);
    if (!sha)
        return fileError(QStringLiteral("cannot read"), path, sha.error().message);
    return sha;
}

Error AuditExporter::rowBroken(const AuditProblem &problem, const AuditExportHeader &header,
                               const Actor &actor) const
{
    const QString message =
        QStringLiteral("the audit chain is broken: %1; nothing was exported (run `oncepay audit"
                       " verify` or Verify chain)")
            .arg(problem.message);
    spdlog::error("audit export {} by {} refused: {}", header.exportId.toStdString(),
                  actor.id.toStdString(), message.toStdString());
    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = QStringLiteral("audit.export_refused");
    e.entityKind = QStringLiteral("export");
    e.entityId = header.exportId;
    e.after = {{QStringLiteral("filter"), header.filter.toJson()},
               {QStringLiteral("problem"), auditProblemKindName(problem.kind)},
               {QStringLiteral("seq"), QString::number(problem.seq)},
               {QStringLiteral("chain_head"), auditHeadJson(header.head)}};
    if (!m_origin.isEmpty())
        e.after.insert(QStringLiteral("where"), m_origin);
    e.reason = QStringLiteral("chain_broken");
    auto recorded = inTransaction(m_orders.db(), Transaction::Mode::Deferred,
                                  [&] { return AuditOutbox::record(m_orders.db(), e, m_clock); });
    if (!recorded)
        spdlog::error("audit export refusal could not be recorded: {}",
                      recorded.error().message.toStdString());
    return makeError(ErrorCode::Corrupt, message, QStringLiteral("chain_broken"));
}

Result<AuditExportResult> AuditExporter::run(const AuditFilter &requested, const QString &path,
                                             AuditExportWriter &writer, const Actor &actor,
                                             const Progress &progress) const
{
    if (auto ok = m_query.authorize(actor, QStringLiteral("export")); !ok)
        return ok.error();
    if (auto v = requested.validate(); !v)
        return v.error();
    if (path.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("export: no output file given"),
                         QStringLiteral("no_file"));

    AuditExportHeader header;
    auto head = AuditTrailQuery::readHead(m_audit);
    if (!head)
        return head.error();
    // An export is pinned to the head (below); with no row in the chain there is none to pin
    // to, and nothing to vouch for.
    if (head->seq == 0)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("the audit trail is empty: there is nothing to export"
                                        " (audited events reach it when they are shipped)"),
                         QStringLiteral("empty_trail"));
    header.head = *head;
    header.filter = requested;
    // Pin the head: the export covers exactly the rows up to it, whatever is appended meanwhile.
    if (!header.filter.maxSeq || header.filter.maxSeq > head->seq)
        header.filter.maxSeq = head->seq;
    header.generatedAt = m_clock.nowMs();
    header.generatedBy = actor;
    header.exportId = AuditOutbox::newEventId();
    // An export of every row up to the head must also have every seq (a gap is a deleted row,
    // refused below): it holds head.seq rows, which needs no count over the whole trail.
    AuditFilter everyRow;
    everyRow.maxSeq = header.filter.maxSeq;
    const bool contiguous = header.filter == everyRow;
    if (contiguous) {
        header.expectedRows = header.filter.maxSeq;
    } else {
        auto expected = m_query.count(header.filter, actor);
        if (!expected)
            return expected.error();
        header.expectedRows = *expected;
    }

    AuditExportResult result;
    result.path = QFileInfo(path).absoluteFilePath();
    result.manifestPath = AuditManifest::pathFor(result.path);
    QSaveFile file(result.path);
    if (!file.open(QIODevice::WriteOnly))
        return fileError(QStringLiteral("cannot create"), result.path, file.errorString());
    AuditFileSink out(&file);
    if (auto b = writer.begin(&out, header); !b)
        return b.error();

    qint64 rows = 0;
    Result<void> failure;
    // An export vouches for its rows (the manifest names the chain head and seal it covers):
    // each row must match its own hash, and a row that follows its predecessor must link to
    // it. A row that does not stops the export; nothing is written (rowBroken below).
    std::optional<AuditProblem> broken;
    AuditChain::RowHasher rowHash;
    if (!rowHash.ready())
        return makeError(ErrorCode::Internal,
                         QStringLiteral("export: OpenSSL gives no SHA-256; nothing was exported"),
                         QStringLiteral("crypto_unavailable"));
    qint64 lastSeq = 0;
    QByteArray lastHash = AuditChain::genesisHash().toLatin1();
    const qint64 step = qMax<qint64>(1, qMin<qint64>(m_pageSize, header.expectedRows / 100 + 1));
    auto streamed = m_query.forEachBytes(
        header.filter, m_pageSize,
        [&](const AuditLogRowBytes &row) {
            if (!rowHash.matches(row)) {
                broken = exportProblem(AuditProblem::Kind::Altered, row.seq,
                                       QStringLiteral("row seq %1 was altered (its content does"
                                                      " not match its hash)")
                                           .arg(row.seq));
                return false;
            }
            if (contiguous && row.seq != lastSeq + 1) {
                broken = exportProblem(AuditProblem::Kind::Missing, lastSeq + 1,
                                       QStringLiteral("row seq %1 is missing (next row found is"
                                                      " seq %2)")
                                           .arg(lastSeq + 1)
                                           .arg(row.seq));
                return false;
            }
            if (row.seq == lastSeq + 1 && row.prevHash != lastHash) {
                broken = exportProblem(AuditProblem::Kind::Relinked, row.seq,
                                       QStringLiteral("row seq %1 is reordered or relinked (its"
                                                      " prev_hash is not the hash of seq %2)")
                                           .arg(row.seq)
                                           .arg(lastSeq));
                return false;
            }
            lastSeq = row.seq;
            lastHash = row.hash.toByteArray();
            if (auto w = writer.writeBytes(row); !w) {
                failure = w;
                return false;
            }
            ++rows;
            if (progress && rows % step == 0 && !progress(rows, header.expectedRows)) {
                result.cancelled = true;
                return false;
            }
            return true;
        },
        actor);
    if (!streamed)
        return streamed.error();
    if (!failure)
        return failure.error();
    // Every row up to the head, and no fewer: rows at the top that vanished after the head
    // was read are missing as much as a gap is.
    if (contiguous && !broken && !result.cancelled && rows != header.filter.maxSeq)
        broken = exportProblem(AuditProblem::Kind::Missing, lastSeq + 1,
                               QStringLiteral("row seq %1 is missing (the chain ends at seq %2,"
                                              " its head was seq %3)")
                                   .arg(lastSeq + 1)
                                   .arg(lastSeq)
                                   .arg(header.filter.maxSeq));
    if (broken) {
        out.abandon();
        file.cancelWriting();
        return rowBroken(*broken, header, actor);
    }
    if (result.cancelled) {
        out.abandon();
        file.cancelWriting();
        spdlog::info("audit export to {} cancelled after {} rows", result.path.toStdString(), rows);
        return result;
    }
    if (auto f = writer.finish(rows); !f)
        return f.error();
    if (auto f = out.finish(); !f)
        return f.error();
    if (!file.commit())
        return fileError(QStringLiteral("cannot write"), result.path, file.errorString());
    if (progress)
        progress(rows, header.expectedRows);

    AuditManifest &m = result.manifest;
    m.file = QFileInfo(result.path).fileName();
    m.fileFormat = writer.format();
    m.description = writer.description();
    m.sha256 = out.hex();
    m.bytes = out.written();
    m.rowCount = rows;
    m.filter = header.filter;
    m.head = header.head;
    m.generatedAt = header.generatedAt;
    m.generatedBy = actor;
    m.exportId = header.exportId;
    QSaveFile manifestFile(result.manifestPath);
    if (!manifestFile.open(QIODevice::WriteOnly) ||
        manifestFile.write(QJsonDocument(m.toJson()).toJson(QJsonDocument::Indented)) < 0 ||
        !manifestFile.commit()) {
        QFile::remove(result.path);
        return fileError(QStringLiteral("cannot write"), result.manifestPath,
                         manifestFile.errorString());
    }

    AuditEvent e;
    e.actor = actor.id;
    e.actorRole = actor.role;
    e.action = QStringLiteral("audit.exported");
    e.entityKind = QStringLiteral("export");
    e.entityId = m.exportId;
    e.after = {{QStringLiteral("filter"), m.filter.toJson()},
               {QStringLiteral("format"), m.fileFormat},
               {QStringLiteral("file"), m.file},
               {QStringLiteral("row_count"), QString::number(m.rowCount)},
               {QStringLiteral("sha256"), m.sha256},
               {QStringLiteral("bytes"), QString::number(m.bytes)},
               {QStringLiteral("chain_head"), auditHeadJson(m.head)}};
    if (!m_origin.isEmpty())
        e.after.insert(QStringLiteral("where"), m_origin);
    auto recorded = inTransaction(m_orders.db(), Transaction::Mode::Deferred,
                                  [&] { return AuditOutbox::record(m_orders.db(), e, m_clock); });
    if (!recorded) {
        // An export nobody can see in the trail must not exist.
        QFile::remove(result.path);
        QFile::remove(result.manifestPath);
        return recorded.error();
    }
    result.eventId = *recorded;
    spdlog::info("audit export {} by {}: {} rows ({}) to {}, sha256 {}, head seq {}",
                 m.exportId.toStdString(), actor.id.toStdString(), rows,
                 m.filter.describe().toStdString(), result.path.toStdString(),
                 m.sha256.toStdString(), m.head.seq);
    return result;
}

} // namespace OncePay
