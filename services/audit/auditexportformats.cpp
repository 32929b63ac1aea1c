#include "auditexportformats.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay {

namespace {

constexpr qsizetype kFlushBytes = 1 << 20;

Result<void> writeOut(QIODevice *out, QByteArray &buffer)
{
    if (buffer.isEmpty())
        return {};
    if (out->write(buffer) != buffer.size())
        return makeError(
            ErrorCode::Unavailable,
            QStringLiteral("export: cannot write the file: %1").arg(out->errorString()),
            QStringLiteral("write_failed"));
    buffer.clear();
    return {};
}

bool isPlainInteger(QStringView s)
{
    qsizetype i = s.startsWith(u'-') ? 1 : 0;
    if (i >= s.size())
        return false;
    for (; i < s.size(); ++i)
        if (s[i] < u'0' || s[i] > u'9')
            return false;
    return true;
}

QString integerText(const QJsonValue &v)
{
    if (v.isString())
        return isPlainInteger(v.toString()) ? v.toString() : QString();
    if (v.isDouble()) {
        // QJsonValue keeps integers that fit in 64 bits exact; a fraction is not minor units.
        const qint64 i = v.toInteger(std::numeric_limits<qint64>::min());
        return i == std::numeric_limits<qint64>::min() ? QString() : QString::number(i);
    }
    return {};
}

AuditAmount amountIn(const std::optional<QString> &json)
{
    if (!json || !json->contains(QLatin1String("_minor")))
        return {};
    const QJsonObject o = QJsonDocument::fromJson(json->toUtf8()).object();
    AuditAmount a;
    a.minor = integerText(o.value(QLatin1String("amount_minor")));
    if (a.minor.isEmpty()) {
        for (auto it = o.begin(); it != o.end() && a.minor.isEmpty(); ++it)
            if (it.key().endsWith(QLatin1String("_minor")))
                a.minor = integerText(it.value());
    }
    if (!a.minor.isEmpty())
        a.currency = o.value(QLatin1String("currency")).toString();
    return a;
}

QString isoTime(qint64 ms)
{
    return AuditFilter::formatTime(ms);
}

} // namespace

AuditAmount auditRowAmount(const AuditLogRow &row)
{
    AuditAmount a = amountIn(row.afterJson);
    return a.minor.isEmpty() ? amountIn(row.beforeJson) : a;
}

QJsonObject auditHeadJson(const AuditHead &head)
{
    return {{QStringLiteral("seq"), QString::number(head.seq)},
            {QStringLiteral("hash"), head.hash}};
}

QJsonValue auditSealJson(const AuditHead &head)
{
    if (!head.seal)
        return QJsonValue::Null;
    const AuditCheckpoint &s = *head.seal;
    return QJsonObject{{QStringLiteral("checkpoint_id"), QString::number(s.id)},
                       {QStringLiteral("seq"), QString::number(s.seq)},
                       {QStringLiteral("head_hash"), s.headHash},
                       {QStringLiteral("key_id"), s.keyId},
                       {QStringLiteral("signature"), s.signature},
                       {QStringLiteral("sealed_by"), s.sealedBy},
                       {QStringLiteral("sealed_at"), isoTime(s.sealedAt)},
                       {QStringLiteral("rows_after_seal"), QString::number(head.rowsAfterSeal())}};
}

// ---- CSV ----

QString AuditCsvWriter::description() const
{
    return QStringLiteral("RFC 4180 CSV, UTF-8, CRLF; formulas neutralised with a leading '");
}

QStringList AuditCsvWriter::columns()
{
    return {QStringLiteral("seq"),
            QStringLiteral("occurred_at"),
            QStringLiteral("occurred_at_ms"),
            QStringLiteral("recorded_at_ms"),
            QStringLiteral("event_id"),
            QStringLiteral("actor"),
            QStringLiteral("actor_role"),
            QStringLiteral("action"),
            QStringLiteral("entity_kind"),
            QStringLiteral("entity_id"),
            QStringLiteral("order_id"),
            QStringLiteral("callback_id"),
            QStringLiteral("amount_minor"),
            QStringLiteral("currency"),
            QStringLiteral("reason"),
            QStringLiteral("before_json"),
            QStringLiteral("after_json"),
            QStringLiteral("prev_hash"),
            QStringLiteral("hash")};
}

void AuditCsvWriter::appendCell(QByteArray &out, const QString &value)
{
    bool neutralise = false;
    bool quote = false;
    if (!value.isEmpty()) {
        const QChar c = value.front();
        neutralise =
            (c == u'=' || c == u'+' || c == u'-' || c == u'@' || c == u'\t' || c == u'\r') &&
            !isPlainInteger(value);
        for (QChar ch : value) {
            if (ch == u',' || ch == u'"' || ch == u'\r' || ch == u'\n') {
                quote = true;
                break;
            }
        }
    }
    if (!quote) {
        if (neutralise)
            out.append('\'');
        out.append(value.toUtf8());
        return;
    }
    out.append('"');
    if (neutralise)
        out.append('\'');
    const QByteArray bytes = value.toUtf8();
    for (char b : bytes) {
        if (b == '"')
            out.append('"');
        out.append(b);
    }
    out.append('"');
}

Result<void> AuditCsvWriter::flush(bool force)
{
    if (!force && m_buffer.size() < kFlushBytes)
        return {};
    return writeOut(m_out, m_buffer);
}

Result<void> AuditCsvWriter::begin(QIODevice *out, const AuditExportHeader &)
{
    m_out = out;
    m_buffer.reserve(kFlushBytes + 64 * 1024);
    m_buffer = columns().join(u',').toUtf8() + "\r\n";
    return {};
}

Result<void> AuditCsvWriter::write(const AuditLogRow &r)
{
    const AuditAmount amount = auditRowAmount(r);
    QByteArray &b = m_buffer;
    b.append(QByteArray::number(r.seq)).append(',');
    appendCell(b, isoTime(r.occurredAt));
    b.append(',').append(QByteArray::number(r.occurredAt));
    b.append(',').append(QByteArray::number(r.recordedAt)).append(',');
    for (const QString *s :
         {&r.eventId, &r.actor, &r.actorRole, &r.action, &r.entityKind, &r.entityId}) {
        appendCell(b, *s);
        b.append(',');
    }
    for (const std::optional<QString> *s : {&r.orderId, &r.callbackId}) {
        if (*s)
            appendCell(b, **s);
        b.append(',');
    }
    appendCell(b, amount.minor);
    b.append(',');
    appendCell(b, amount.currency);
    b.append(',');
    for (const std::optional<QString> *s : {&r.reason, &r.beforeJson, &r.afterJson}) {
        if (*s)
            appendCell(b, **s);
        b.append(',');
    }
    appendCell(b, r.prevHash);
    b.append(',');
    appendCell(b, r.hash);
    b.append("\r\n");
    return flush(false);
}

Result<void> AuditCsvWriter::finish(qint64)
{
    return flush(true);
}

// ---- JSON ----

QString AuditJsonWriter::description() const
{
    return QStringLiteral("JSON, UTF-8; one object per row with the stored columns");
}

void AuditJsonWriter::appendString(QByteArray &out, const QString &value)
{
    out.append('"');
    const QByteArray bytes = value.toUtf8();
    for (char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
            if (c < 0x20) {
                char esc[8];
                qsnprintf(esc, sizeof esc, "\\u%04x", c);
                out.append(esc);
            } else {
                out.append(ch);
            }
        }
    }
    out.append('"');
}

Result<void> AuditJsonWriter::flush(bool force)
{
    if (!force && m_buffer.size() < kFlushBytes)
        return {};
    return writeOut(m_out, m_buffer);
}

Result<void> AuditJsonWriter::begin(QIODevice *out, const AuditExportHeader &h)
{
    m_out = out;
    m_first = true;
    m_buffer.reserve(kFlushBytes + 64 * 1024);
    const QJsonObject top{{QStringLiteral("format"), QStringLiteral("oncepay.audit.export.v1")},
                          {QStringLiteral("export_id"), h.exportId},
                          {QStringLiteral("filter"), h.filter.toJson()},
                          {QStringLiteral("chain_head"), auditHeadJson(h.head)},
                          {QStringLiteral("seal"), auditSealJson(h.head)},
                          {QStringLiteral("generated_at"), isoTime(h.generatedAt)},
                          {QStringLiteral("generated_by"),
                           QJsonObject{{QStringLiteral("actor"), h.generatedBy.id},
                                       {QStringLiteral("role"), h.generatedBy.role}}}};
    QByteArray json = QJsonDocument(top).toJson(QJsonDocument::Compact);
    json.chop(1); // the closing brace: rows follow
    m_buffer = json + ",\"rows\":[\n";
    return {};
}

Result<void> AuditJsonWriter::write(const AuditLogRow &r)
{
    QByteArray &b = m_buffer;
    if (!m_first)
        b.append(",\n");
    m_first = false;
    const auto text = [&b](const char *key, const QString &v) {
        b.append('"').append(key).append("\":");
        appendString(b, v);
        b.append(',');
    };
    const auto optional = [&b, &text](const char *key, const std::optional<QString> &v) {
        if (v)
            text(key, *v);
        else
            b.append('"').append(key).append("\":null,");
    };
    b.append("{\"seq\":").append(QByteArray::number(r.seq)).append(',');
    text("event_id", r.eventId);
    b.append("\"occurred_at_ms\":").append(QByteArray::number(r.occurredAt)).append(',');
    b.append("\"recorded_at_ms\":").append(QByteArray::number(r.recordedAt)).append(',');
    text("occurred_at", isoTime(r.occurredAt));
    text("actor", r.actor);
    text("actor_role", r.actorRole);
    text("action", r.action);
    text("entity_kind", r.entityKind);
    text("entity_id", r.entityId);
    optional("order_id", r.orderId);
    optional("callback_id", r.callbackId);
    const AuditAmount amount = auditRowAmount(r);
    optional("amount_minor",
             amount.minor.isEmpty() ? std::nullopt : std::optional<QString>(amount.minor));
    optional("currency",
             amount.minor.isEmpty() ? std::nullopt : std::optional<QString>(amount.currency));
    optional("before_json", r.beforeJson);
    optional("after_json", r.afterJson);
    optional("reason", r.reason);
    text("prev_hash", r.prevHash);
    b.append("\"hash\":");
    appendString(b, r.hash);
    b.append('}');
    return flush(false);
}

Result<void> AuditJsonWriter::finish(qint64 rowCount)
{
    m_buffer.append("\n],\"row_count\":\"").append(QByteArray::number(rowCount)).append("\"}\n");
    return flush(true);
}

} // namespace OncePay
