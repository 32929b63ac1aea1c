// Reading an export back (AuditExporter::verify, auditexporter.h): its manifest, the file's
// digest, the chain head and seal it names, the export's own audit row, and for a JSON export
// every row re-hashed and linked. A CSV export's rows are auditexportverifycsv.cpp's; the
// writing side is auditexporter.cpp.

#include "auditexporter.h"

#include "auditexportformats.h"
#include "db/sql.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <spdlog/spdlog.h>

namespace OncePay {

// How often a row check reports: about every 1 % of the rows, at least every 5,000.
qint64 AuditExporter::progressStep(qint64 total)
{
    return qBound(qint64(1), total / 100 + 1, qint64(5000));
}

void AuditExporter::checkJsonRows(const QString &filePath, AuditExportCheck &check,
                                  const Progress &progress)
{
    QFile f(filePath);
    if (!f.open(QIODevice::ReadOnly)) {
        check.rowsMatch = false;
        check.problems << QStringLiteral("%1 cannot be read: %2").arg(filePath, f.errorString());
        return;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    const QJsonValue rowsValue = doc.object().value(QStringLiteral("rows"));
    if (error.error != QJsonParseError::NoError || !rowsValue.isArray()) {
        check.rowsMatch = false;
        check.problems << QStringLiteral("%1 is no OncePay JSON export (%2)")
                              .arg(check.manifest.file, error.errorString());
        return;
    }
    const auto text = [](const QJsonObject &o, const char *key) {
        return o.value(QLatin1String(key)).toString();
    };
    const auto optional = [](const QJsonObject &o, const char *key) -> std::optional<QString> {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isNull() || v.isUndefined())
            return std::nullopt;
        return v.toString();
    };
    const QJsonArray rows = rowsValue.toArray();
    qint64 lastSeq = 0;
    QString lastHash = AuditChain::genesisHash();
    check.rowsRehashed = 0;
    AuditChain::RowHasher hasher;
    if (!hasher.ready()) {
        check.rowsMatch = false;
        check.problems << QStringLiteral("the rows cannot be re-hashed: OpenSSL gives no SHA-256");
        return;
    }
    const qint64 step = progressStep(check.manifest.rowCount);
    for (const QJsonValue &value : rows) {
        if (progress && check.rowsRehashed % step == 0 &&
            !progress(check.rowsRehashed, check.manifest.rowCount)) {
            check.cancelled = true;
            return;
        }
        const QJsonObject o = value.toObject();
        AuditLogRow r;
        r.seq = o.value(QStringLiteral("seq")).toInteger();
        r.eventId = text(o, "event_id");
        r.occurredAt = o.value(QStringLiteral("occurred_at_ms")).toInteger();
        r.recordedAt = o.value(QStringLiteral("recorded_at_ms")).toInteger();
        r.actor = text(o, "actor");
        r.actorRole = text(o, "actor_role");
        r.action = text(o, "action");
        r.entityKind = text(o, "entity_kind");
        r.entityId = text(o, "entity_id");
        r.orderId = optional(o, "order_id");
        r.callbackId = optional(o, "callback_id");
        r.beforeJson = optional(o, "before_json");
        r.afterJson = optional(o, "after_json");
        r.reason = optional(o, "reason");
        r.prevHash = text(o, "prev_hash");
        r.hash = text(o, "hash");
        if (!hasher.matches(r)) {
            check.rowsMatch = false;
            check.problems << QStringLiteral("row seq %1 in the file does not match its hash:"
                                             " it was altered")
                                  .arg(r.seq);
            return;
        }
        // The amount columns are read from the row, not hashed themselves: they must say what
        // the hashed row says.
        const AuditAmount amount = auditRowAmount(r);
        const std::optional<QString> fileMinor = optional(o, "amount_minor");
        const std::optional<QString> fileCurrency = optional(o, "currency");
        if (fileMinor.value_or(QString()) != amount.minor ||
            (amount.minor.isEmpty() ? fileCurrency.has_value()
                                    : fileCurrency.value_or(QString()) != amount.currency)) {
            check.rowsMatch = false;
            check.problems << QStringLiteral("row seq %1 in the file shows the amount %2 %3, but"
                                             " its hashed content says %4 %5")
                                  .arg(r.seq)
                                  .arg(fileMinor.value_or(QStringLiteral("(none)")),
                                       fileCurrency.value_or(QString()),
                                       amount.minor.isEmpty() ? QStringLiteral("(none)")
                                                              : amount.minor,
                                       amount.currency);
            return;
        }
        if (r.seq == lastSeq + 1 && r.prevHash != lastHash) {
            check.rowsMatch = false;
            check.problems << QStringLiteral("row seq %1 in the file is not linked to seq %2"
                                             " before it: reordered or relinked")
                                  .arg(r.seq)
                                  .arg(lastSeq);
            return;
        }
        lastSeq = r.seq;
        lastHash = r.hash;
        ++check.rowsRehashed;
    }
    if (check.rowsRehashed != check.manifest.rowCount) {
        check.rowsMatch = false;
        check.problems << QStringLiteral("the file holds %1 row(s), the manifest says %2")
                              .arg(check.rowsRehashed)
                              .arg(check.manifest.rowCount);
    }
}

Result<void> AuditExporter::checkRecord(AuditExportCheck &check) const
{
    const AuditManifest &m = check.manifest;
    const QString action = QStringLiteral("audit.exported");
    const QString kind = QStringLiteral("export");
    // The export's rows in the audit log (few rows per action: the (action, occurred_at) index
    // finds them), compared exactly here (a MariaDB collation ignores trailing spaces).
    const auto inLog = [&]() -> Result<QList<AuditLogRow>> {
        auto q = Sql::exec(m_audit.db(),
                           QStringLiteral("SELECT ") + AuditChain::columns() +
                               QStringLiteral(" FROM audit_log WHERE action = ? AND entity_kind = ?"
                                              " AND entity_id = ? ORDER BY seq"),
                           {action, kind, m.exportId});
        if (!q)
            return q.error();
        QList<AuditLogRow> rows;
        while (q->next()) {
            AuditLogRow row = AuditChain::readRow(*q);
            if (row.entityId == m.exportId)
                rows << std::move(row);
        }
        return rows;
    };
    auto logged = inLog();
    if (!logged)
        return logged.error();
    QJsonObject recorded;
    Actor by;
    if (logged->isEmpty()) {
        // Not shipped yet: in the outbox. A shipper that moved it since the read above has
        // written it into the audit log before marking it shipped, so a miss here reads the
        // log once more.
        auto o = Sql::exec(m_orders.db(),
                           QStringLiteral("SELECT after_json, actor, actor_role, entity_id FROM"
                                          " audit_outbox WHERE shipped_at IS NULL AND action = ?"
                                          " AND entity_kind = ? AND entity_id = ?"),
                           {action, kind, m.exportId});
        if (!o)
            return o.error();
        int waiting = 0;
        while (o->next()) {
            if (o->value(3).toString() != m.exportId || ++waiting > 1)
                continue;
            check.record = AuditExportCheck::Record::InOutbox;
            recorded = QJsonDocument::fromJson(o->value(0).toString().toUtf8()).object();
            by = {o->value(1).toString(), o->value(2).toString()};
        }
        if (waiting > 1) {
            check.problems << QStringLiteral("export %1 is recorded more than once in the"
                                             " outbox: rows were added to it")
                                  .arg(m.exportId);
            return {};
        }
        if (check.record == AuditExportCheck::Record::Missing) {
            logged = inLog();
            if (!logged)
                return logged.error();
            if (logged->isEmpty()) {
                check.problems << QStringLiteral("no export %1 is recorded in this audit trail:"
                                                 " the manifest was not written by this OncePay,"
                                                 " or its export id was changed")
                                      .arg(m.exportId.isEmpty() ? QStringLiteral("(no id)")
                                                                : m.exportId);
                return {};
            }
        }
    }
    if (!logged->isEmpty()) {
        const AuditLogRow &row = logged->first();
        check.record = AuditExportCheck::Record::InAuditLog;
        check.recordSeq = row.seq;
        if (logged->size() > 1) {
            check.problems << QStringLiteral("export %1 is recorded more than once in the audit"
                                             " log (seq %2 and %3): rows were added to the trail")
                                  .arg(m.exportId)
                                  .arg(row.seq)
                                  .arg(logged->at(1).seq);
            return {};
        }
        if (AuditChain::computeHash(row) != row.hash) {
            check.problems << QStringLiteral("the export's audit row (seq %1) does not match its"
                                             " hash: it was altered")
                                  .arg(row.seq);
            return {};
        }
        // Written after the rows it covers, and linked into the chain on both sides.
        auto before =
            Sql::scalar(m_audit.db(), QStringLiteral("SELECT hash FROM audit_log WHERE seq = ?"),
                        {row.seq - 1});
        auto after = Sql::scalar(m_audit.db(),
                                 QStringLiteral("SELECT prev_hash FROM audit_log WHERE seq = ?"),
                                 {row.seq + 1});
        if (!before)
            return before.error();
        if (!after)
            return after.error();
        const QString previous = row.seq == 1 ? AuditChain::genesisHash() : before->toString();
        if (row.seq <= m.head.seq || row.prevHash != previous ||
            (!after->isNull() && after->toString() != row.hash)) {
            check.problems << QStringLiteral("the export's audit row (seq %1) is not where the"
                                             " export wrote it (after seq %2, linked into the"
                                             " chain): it was inserted or moved")
                                  .arg(row.seq)
                                  .arg(m.head.seq);
            return {};
        }
        recorded = QJsonDocument::fromJson(row.afterJson.value_or(QString()).toUtf8()).object();
        by = {row.actor, row.actorRole};
    }
    const bool inAuditLog = check.record == AuditExportCheck::Record::InAuditLog;
    const auto said = [&](const char *key) {
        return recorded.value(QLatin1String(key)).toString();
    };
    const QString sha = said("sha256");
    const qint64 bytes = said("bytes").toLongLong();
    // Said once: a file that no longer fits an intact manifest is already a problem above.
    const bool manifestFitsRecord = sha == m.sha256 && bytes == m.bytes;
    if ((sha != check.actualSha256 || bytes != check.actualBytes) &&
        (check.fileMatches || !manifestFitsRecord)) {
        if (inAuditLog)
            check.problems << QStringLiteral("%1 has SHA-256 %2 (%3 bytes), but its audit row"
                                             " (seq %4) recorded %5 (%6 bytes) when it was"
                                             " exported: the file was changed")
                                  .arg(m.file, check.actualSha256.left(16))
                                  .arg(check.actualBytes)
                                  .arg(check.recordSeq)
                                  .arg(sha.left(16))
                                  .arg(bytes);
        else
            check.problems << QStringLiteral("%1 has SHA-256 %2 (%3 bytes), but its audit event"
                                             " (not yet shipped) recorded %4 (%5 bytes) when it"
                                             " was exported: the file was changed")
                                  .arg(m.file, check.actualSha256.left(16))
                                  .arg(check.actualBytes)
                                  .arg(sha.left(16))
                                  .arg(bytes);
    }
    // What the manifest says against what was recorded when it was written, one line each.
    const auto differs = [&](const QString &what) {
        if (inAuditLog)
            check.problems << QStringLiteral("the manifest's %1 differs from what its audit row"
                                             " (seq %2) recorded: the manifest was changed")
                                  .arg(what)
                                  .arg(check.recordSeq);
        else
            check.problems << QStringLiteral("the manifest's %1 differs from what its audit event"
                                             " (not yet shipped) recorded: the manifest was"
                                             " changed")
                                  .arg(what);
    };
    const qsizetype problemsBefore = check.problems.size();
    if (!manifestFitsRecord)
        differs(QStringLiteral("file digest"));
    if (said("format") != m.fileFormat)
        differs(QStringLiteral("format"));
    if (said("row_count").toLongLong() != m.rowCount)
        differs(QStringLiteral("row count"));
    if (recorded.value(QStringLiteral("filter")).toObject() != m.filter.toJson())
        differs(QStringLiteral("filter"));
    if (recorded.value(QStringLiteral("chain_head")).toObject() != auditHeadJson(m.head))
        differs(QStringLiteral("chain head"));
    if (by.id != m.generatedBy.id || by.role != m.generatedBy.role)
        differs(QStringLiteral("author"));
    check.recordMatches = sha == check.actualSha256 && bytes == check.actualBytes &&
                          check.problems.size() == problemsBefore;
    return {};
}

Result<AuditExportCheck> AuditExporter::verify(const QString &manifestPath, const Actor &actor,
                                               const Progress &progress) const
{
    if (auto ok = m_query.authorize(actor, QStringLiteral("verify-export")); !ok)
        return ok.error();
    auto manifest = AuditManifest::load(manifestPath);
    if (!manifest)
        return manifest.error();
    AuditExportCheck check;
    check.manifest = *manifest;
    const QString filePath = QFileInfo(manifestPath).dir().filePath(manifest->file);
    auto sha = fileSha256(filePath, &check.actualBytes);
    if (!sha)
        return sha.error();
    check.actualSha256 = *sha;
    check.fileMatches = *sha == manifest->sha256 && check.actualBytes == manifest->bytes;
    if (!check.fileMatches)
        check.problems << QStringLiteral("%1 has SHA-256 %2 (%3 bytes) but the manifest says %4"
                                         " (%5 bytes): the file was changed")
                              .arg(manifest->file, *sha)
                              .arg(check.actualBytes)
                              .arg(manifest->sha256)
                              .arg(manifest->bytes);

    if (manifest->fileFormat == u"json")
        checkJsonRows(filePath, check, progress);
    else if (manifest->fileFormat == u"csv")
        if (auto compared = checkCsvRows(filePath, check, actor, progress); !compared)
            return compared.error();
    if (check.cancelled) {
        spdlog::info("audit export {}: verification cancelled; nothing was concluded",
                     manifestPath.toStdString());
        return check;
    }
    if (progress)
        progress(check.manifest.rowCount, check.manifest.rowCount);
    if (auto recorded = checkRecord(check); !recorded)
        return recorded.error();

    if (manifest->head.seq == 0) {
        check.headMatches = manifest->head.hash.isEmpty();
    } else {
        auto hash =
            Sql::scalar(m_audit.db(), QStringLiteral("SELECT hash FROM audit_log WHERE seq = ?"),
                        {manifest->head.seq});
        if (!hash)
            return hash.error();
        check.headMatches = !hash->isNull() && hash->toString() == manifest->head.hash;
        if (hash->isNull())
            check.problems << QStringLiteral("the chain head seq %1 is no longer in the audit log")
                                  .arg(manifest->head.seq);
        else if (!check.headMatches)
            check.problems << QStringLiteral("the audit log's row seq %1 has hash %2, not the"
                                             " manifest's %3")
                                  .arg(manifest->head.seq)
                                  .arg(hash->toString().left(16), manifest->head.hash.left(16));
    }
    if (const auto &seal = manifest->head.seal) {
        auto q = Sql::exec(m_audit.db(),
                           QStringLiteral("SELECT seq, head_hash, signature FROM"
                                          " audit_checkpoints WHERE id = ?"),
                           {seal->id});
        if (!q)
            return q.error();
        check.sealMatches = q->next() && q->value(0).toLongLong() == seal->seq &&
                            q->value(1).toString() == seal->headHash &&
                            q->value(2).toString() == seal->signature;
        if (!check.sealMatches)
            check.problems << QStringLiteral("seal %1 (seq %2) named by the manifest is missing or"
                                             " changed in the audit database")
                                  .arg(seal->id)
                                  .arg(seal->seq);
    }
    if (check.ok())
        spdlog::info("audit export {} verified", manifestPath.toStdString());
    else
        spdlog::warn("audit export {} does not verify: {}", manifestPath.toStdString(),
                     check.problems.join(QStringLiteral("; ")).toStdString());
    return check;
}

} // namespace OncePay
