// Reading an export back (AuditExporter::verify, auditexporter.h): its manifest, the file's
// digest, the chain head and seal it names, the export's own audit row, and for a JSON export
// every row re-hashed and linked. The writing side is auditexporter.cpp.

#include "auditexporter.h"

#include "db/sql.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <spdlog/spdlog.h>

namespace OncePay {

void AuditExporter::checkJsonRows(const QString &filePath, AuditExportCheck &check)
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
    for (const QJsonValue &value : rows) {
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
        if (AuditChain::computeHash(r) != r.hash) {
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
    // In the audit log (few rows per action: the (action, occurred_at) index finds them) ...
    QJsonObject recorded;
    Actor by;
    auto q = Sql::exec(m_audit.db(),
                       QStringLiteral("SELECT ") + AuditChain::columns() +
                           QStringLiteral(" FROM audit_log WHERE action = ? AND entity_kind = ?"
                                          " AND entity_id = ?"),
                       {action, kind, m.exportId});
    if (!q)
        return q.error();
    if (q->next()) {
        const AuditLogRow row = AuditChain::readRow(*q);
        check.record = AuditExportCheck::Record::InAuditLog;
        check.recordSeq = row.seq;
        if (AuditChain::computeHash(row) != row.hash) {
            check.problems << QStringLiteral("the export's audit row (seq %1) does not match its"
                                             " hash: it was altered")
                                  .arg(row.seq);
            return {};
        }
        recorded = QJsonDocument::fromJson(row.afterJson.value_or(QString()).toUtf8()).object();
        by = {row.actor, row.actorRole};
    } else {
        // ... or still in the outbox, not yet shipped.
        auto o = Sql::exec(m_orders.db(),
                           QStringLiteral("SELECT after_json, actor, actor_role FROM audit_outbox"
                                          " WHERE shipped_at IS NULL AND action = ? AND"
                                          " entity_kind = ? AND entity_id = ?"),
                           {action, kind, m.exportId});
        if (!o)
            return o.error();
        if (!o->next()) {
            check.problems << QStringLiteral("no export %1 is recorded in this audit trail: the"
                                             " manifest was not written by this OncePay, or its"
                                             " export id was changed")
                                  .arg(m.exportId.isEmpty() ? QStringLiteral("(no id)")
                                                            : m.exportId);
            return {};
        }
        check.record = AuditExportCheck::Record::InOutbox;
        recorded = QJsonDocument::fromJson(o->value(0).toString().toUtf8()).object();
        by = {o->value(1).toString(), o->value(2).toString()};
    }
    const QString where = check.record == AuditExportCheck::Record::InAuditLog
                              ? QStringLiteral("its audit row (seq %1)").arg(check.recordSeq)
                              : QStringLiteral("its audit event (not yet shipped)");
    const auto said = [&](const char *key) {
        return recorded.value(QLatin1String(key)).toString();
    };
    const QString sha = said("sha256");
    const qint64 bytes = said("bytes").toLongLong();
    if (sha != check.actualSha256 || bytes != check.actualBytes)
        check.problems << QStringLiteral("%1 has SHA-256 %2 (%3 bytes), but %4 recorded %5"
                                         " (%6 bytes) when it was exported: the file was changed")
                              .arg(m.file, check.actualSha256.left(16))
                              .arg(check.actualBytes)
                              .arg(where, sha.left(16))
                              .arg(bytes);
    // What the manifest says against what was recorded when it was written.
    QStringList differ;
    if (sha != m.sha256 || bytes != m.bytes)
        differ << QStringLiteral("the file's digest");
    if (said("format") != m.fileFormat)
        differ << QStringLiteral("the format");
    if (said("row_count").toLongLong() != m.rowCount)
        differ << QStringLiteral("the row count");
    if (recorded.value(QStringLiteral("filter")).toObject() != m.filter.toJson())
        differ << QStringLiteral("the filter");
    if (recorded.value(QStringLiteral("chain_head")).toObject() != auditHeadJson(m.head))
        differ << QStringLiteral("the chain head");
    if (by.id != m.generatedBy.id || by.role != m.generatedBy.role)
        differ << QStringLiteral("who made it");
    if (!differ.isEmpty())
        check.problems << QStringLiteral("the manifest differs from what %1 recorded in: %2 — the"
                                         " manifest was changed")
                              .arg(where, differ.join(QStringLiteral(", ")));
    check.recordMatches =
        sha == check.actualSha256 && bytes == check.actualBytes && differ.isEmpty();
    return {};
}

Result<AuditExportCheck> AuditExporter::verify(const QString &manifestPath,
                                               const Actor &actor) const
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
        checkJsonRows(filePath, check);
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
