#include "auditexportformats.h"

#include "auditamount.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QVarLengthArray>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace OncePay {

namespace {

using AuditBytes::isPlainInteger;
using AuditBytes::isValidUtf8;

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

QString isoTime(qint64 ms)
{
    return AuditFilter::formatTime(ms);
}

// RFC 4180 cell of UTF-8 text at `p` (room for 2 * size + 3 bytes); returns the end. The
// rules only look at ASCII characters, so bytes and QChars give the same answer.
char *putCell(char *p, QByteArrayView value)
{
    bool neutralise = false;
    bool quote = false;
    if (!value.isEmpty()) {
        const char c = value.front();
        neutralise = (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') &&
                     !isPlainInteger(value);
        for (char ch : value) {
            if (ch == ',' || ch == '"' || ch == '\r' || ch == '\n') {
                quote = true;
                break;
            }
        }
    }
    if (!quote) {
        if (neutralise)
            *p++ = '\'';
        if (!value.isEmpty())
            std::memcpy(p, value.data(), size_t(value.size()));
        return p + value.size();
    }
    *p++ = '"';
    if (neutralise)
        *p++ = '\'';
    for (char b : value) {
        if (b == '"')
            *p++ = '"';
        *p++ = b;
    }
    *p++ = '"';
    return p;
}

void appendCellUtf8(QByteArray &out, QByteArrayView value)
{
    const qsizetype at = out.size();
    out.resize(at + 2 * value.size() + 3);
    char *end = putCell(out.data() + at, value);
    out.resize(end - out.constData());
}

} // namespace

int formatIsoTimeUtc(qint64 ms, char *out)
{
    constexpr qint64 kEnd = 253402300800000; // 10000-01-01T00:00:00Z
    if (ms < 0 || ms >= kEnd)
        return 0;
    const qint64 days = ms / 86400000;
    qint64 rest = ms % 86400000;
    // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil, inverted).
    const qint64 z = days + 719468;
    const qint64 era = z / 146097;
    const qint64 doe = z - era * 146097;
    const qint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const qint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const qint64 mp = (5 * doy + 2) / 153;
    const int day = int(doy - (153 * mp + 2) / 5 + 1);
    const int month = int(mp < 10 ? mp + 3 : mp - 9);
    const int year = int(yoe + era * 400 + (month <= 2 ? 1 : 0));
    const int milli = int(rest % 1000);
    rest /= 1000;
    const int second = int(rest % 60), minute = int(rest / 60 % 60), hour = int(rest / 3600);
    const auto two = [](char *p, int v) {
        p[0] = char('0' + v / 10);
        p[1] = char('0' + v % 10);
    };
    two(out, year / 100);
    two(out + 2, year % 100);
    out[4] = '-';
    two(out + 5, month);
    out[7] = '-';
    two(out + 8, day);
    out[10] = 'T';
    two(out + 11, hour);
    out[13] = ':';
    two(out + 14, minute);
    out[16] = ':';
    two(out + 17, second);
    out[19] = '.';
    out[20] = char('0' + milli / 100);
    two(out + 21, milli % 100);
    out[23] = 'Z';
    return 24;
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
    appendCellUtf8(out, value.toUtf8());
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

Result<void> AuditCsvWriter::writeBytes(const AuditLogRowBytes &r)
{
    const AuditAmountBytes amount = auditRowAmountBytes(r, &m_amountStorage);
    char time[32];
    const int timeSize = formatIsoTimeUtc(r.occurredAt, time);
    QByteArray slowTime;
    if (!timeSize)
        slowTime = isoTime(r.occurredAt).toUtf8();
    const QByteArrayView none;
    // The text cells after occurred_at_ms/recorded_at_ms, in column order; NULL is empty.
    QByteArrayView cells[] = {r.eventId,
                              r.actor,
                              r.actorRole,
                              r.action,
                              r.entityKind,
                              r.entityId,
                              r.orderId.value_or(none),
                              r.callbackId.value_or(none),
                              amount.minor,
                              amount.currency,
                              r.reason.value_or(none),
                              r.beforeJson.value_or(none),
                              r.afterJson.value_or(none),
                              r.prevHash,
                              r.hash};
    // Valid UTF-8 is written as is; anything else as the QString path writes it (invalid
    // sequences become U+FFFD).
    QByteArray repaired[std::size(cells)];
    const QByteArrayView timeCell =
        timeSize ? QByteArrayView(time, timeSize) : QByteArrayView(slowTime);
    qsizetype bound = 3 * 24 + 2 * timeCell.size() + 3 + 8;
    for (size_t i = 0; i < std::size(cells); ++i) {
        if (!isValidUtf8(cells[i])) {
            repaired[i] = QString::fromUtf8(cells[i]).toUtf8();
            cells[i] = repaired[i];
        }
        bound += 2 * cells[i].size() + 4;
    }
    QByteArray &b = m_buffer;
    const qsizetype at = b.size();
    b.resize(at + bound);
    char *p = b.data() + at;
    const auto number = [&p](qint64 v) {
        p = std::to_chars(p, p + 24, v).ptr;
        *p++ = ',';
    };
    number(r.seq);
    p = putCell(p, timeCell);
    *p++ = ',';
    number(r.occurredAt);
    number(r.recordedAt);
    for (QByteArrayView cell : cells) {
        p = putCell(p, cell);
        *p++ = ',';
    }
    p[-1] = '\r'; // the last cell's comma
    *p++ = '\n';
    b.resize(p - b.constData());
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

std::unique_ptr<AuditExportWriter> makeAuditExportWriter(const QString &format)
{
    if (format == u"csv")
        return std::make_unique<AuditCsvWriter>();
    if (format == u"json")
        return std::make_unique<AuditJsonWriter>();
    return nullptr;
}

} // namespace OncePay
