#include "auditexportformats.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QVarLengthArray>

#include <algorithm>
#include <charconv>
#include <cstring>

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

bool isPlainInteger(QByteArrayView s)
{
    qsizetype i = s.startsWith('-') ? 1 : 0;
    if (i >= s.size())
        return false;
    for (; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

// Well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF): what
// QString::fromUtf8 turns back into the same bytes.
bool isValidUtf8(QByteArrayView s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const auto *end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        int n = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false;
        }
        if (end - p <= n || p[1] < lo || p[1] > hi)
            return false;
        for (int k = 2; k <= n; ++k)
            if (p[k] < 0x80 || p[k] > 0xBF)
                return false;
        p += n + 1;
    }
    return true;
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

// ---- amounts from JSON bytes ----

// A strict JSON reader over the top-level object, just enough to find the amount keys the
// way QJsonDocument does. It accepts only what is certainly valid JSON for Qt; whatever it is
// unsure about (escaped keys, exponents, surrogate escapes, duplicates of an amount key,
// anything around the object) makes the caller ask QJsonDocument instead.
class JsonScan {
public:
    struct Member {
        QByteArrayView key;
        char kind = 0; // 's' string without escapes, 'e' string with escapes, 'n' number, 'o' other
        QByteArrayView raw; // string content or number literal
    };

    explicit JsonScan(QByteArrayView s)
        : m_p(s.data())
        , m_end(s.data() + s.size())
    {}

    // false: unsure, ask QJsonDocument.
    bool members(QVarLengthArray<Member, 16> *out)
    {
        if (m_p == m_end || *m_p != '{')
            return false;
        ++m_p;
        space();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            return m_p == m_end;
        }
        for (;;) {
            Member m;
            char kind = 0;
            if (!string(&m.key, &kind) || kind != 's' || !colon() || !value(&m, 0))
                return false;
            out->append(m);
            space();
            if (m_p == m_end)
                return false;
            if (*m_p == '}') {
                ++m_p;
                return m_p == m_end;
            }
            if (*m_p != ',')
                return false;
            ++m_p;
            space();
        }
    }

private:
    void space()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r'))
            ++m_p;
    }

    // ':' between a key and its value, with the space around it.
    bool colon()
    {
        space();
        if (m_p == m_end || *m_p != ':')
            return false;
        ++m_p;
        space();
        return true;
    }

    static bool isHex(char c)
    {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    bool string(QByteArrayView *content, char *kind)
    {
        if (m_p == m_end || *m_p != '"')
            return false;
        const char *start = ++m_p;
        *kind = 's';
        while (m_p < m_end && *m_p != '"') {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c < 0x20)
                return false;
            if (c == '\\') {
                *kind = 'e';
                if (m_end - m_p < 2)
                    return false;
                const char e = m_p[1];
                if (e == 'u') {
                    if (m_end - m_p < 6 || !isHex(m_p[2]) || !isHex(m_p[3]) || !isHex(m_p[4]) ||
                        !isHex(m_p[5]))
                        return false;
                    if ((m_p[2] == 'd' || m_p[2] == 'D') && !(m_p[3] >= '0' && m_p[3] <= '7'))
                        return false; // a surrogate: let Qt decide
                    m_p += 6;
                    continue;
                }
                if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' &&
                    e != 'r' && e != 't')
                    return false;
                m_p += 2;
                continue;
            }
            ++m_p;
        }
        if (m_p == m_end)
            return false;
        *content = QByteArrayView(start, m_p - start);
        ++m_p;
        return true;
    }

    static bool digit(char c) { return c >= '0' && c <= '9'; }

    bool number(QByteArrayView *literal)
    {
        const char *start = m_p;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p == m_end || !digit(*m_p))
            return false;
        if (*m_p == '0')
            ++m_p;
        else
            while (m_p < m_end && digit(*m_p))
                ++m_p;
        if (m_p < m_end && *m_p == '.') {
            ++m_p;
            if (m_p == m_end || !digit(*m_p))
                return false;
            while (m_p < m_end && digit(*m_p))
                ++m_p;
        }
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E'))
            return false; // exponents: let Qt decide (range)
        if (m_p - start > 20)
            return false;
        *literal = QByteArrayView(start, m_p - start);
        return true;
    }

    bool literal(const char *word)
    {
        const qsizetype n = qsizetype(qstrlen(word));
        if (m_end - m_p < n || QByteArrayView(m_p, n) != QByteArrayView(word, n))
            return false;
        m_p += n;
        return true;
    }

    bool value(Member *m, int depth)
    {
        if (m_p == m_end || depth > 64)
            return false;
        QByteArrayView ignored;
        switch (*m_p) {
        case '"': return string(m ? &m->raw : &ignored, m ? &m->kind : &m_kind);
        case '{':
        case '[': {
            if (m)
                m->kind = 'o';
            const char close = *m_p == '{' ? '}' : ']';
            const bool object = close == '}';
            ++m_p;
            space();
            if (m_p < m_end && *m_p == close) {
                ++m_p;
                return true;
            }
            for (;;) {
                if (object && (!string(&ignored, &m_kind) || !colon()))
                    return false;
                if (!value(nullptr, depth + 1))
                    return false;
                space();
                if (m_p == m_end)
                    return false;
                if (*m_p == close) {
                    ++m_p;
                    return true;
                }
                if (*m_p != ',')
                    return false;
                ++m_p;
                space();
            }
        }
        case 't':
        case 'f':
        case 'n':
            if (m)
                m->kind = 'o';
            return literal("true") || literal("false") || literal("null");
        default:
            if (m)
                m->kind = 'n';
            return number(m ? &m->raw : &ignored);
        }
    }

    const char *m_p;
    const char *m_end;
    char m_kind = 0;
};

enum class Found { No, Yes, Unsure };

// integerText() of one member, on bytes.
Found integerBytes(const JsonScan::Member &m, QByteArrayView *out)
{
    switch (m.kind) {
    case 's':
        if (!isPlainInteger(m.raw))
            return Found::No;
        *out = m.raw;
        return Found::Yes;
    case 'n': {
        // A plain integer literal of at most 18 digits is exact and QString::number gives it
        // back unchanged; "-0", fractions and longer ones are left to Qt.
        const QByteArrayView digits = m.raw.startsWith('-') ? m.raw.sliced(1) : m.raw;
        if (!isPlainInteger(digits) || digits.size() > 18 || m.raw == "-0")
            return Found::Unsure;
        *out = m.raw;
        return Found::Yes;
    }
    case 'e': return Found::Unsure;
    default: return Found::No;
    }
}

// amountIn() on bytes; false: unsure, ask amountIn().
bool amountInBytes(const std::optional<QByteArrayView> &json, AuditAmountBytes *a)
{
    *a = {};
    if (!json || !json->contains(QByteArrayView("_minor")))
        return true;
    if (!isValidUtf8(*json))
        return false;
    QVarLengthArray<JsonScan::Member, 16> members;
    if (!JsonScan(*json).members(&members))
        return false;
    const auto endsMinor = [](QByteArrayView k) { return k.endsWith(QByteArrayView("_minor")); };
    const JsonScan::Member *amount = nullptr;
    const JsonScan::Member *currency = nullptr;
    QVarLengthArray<const JsonScan::Member *, 4> minors;
    for (const JsonScan::Member &m : std::as_const(members)) {
        if (m.key == "currency") {
            if (currency)
                return false; // duplicate: Qt keeps one of them
            currency = &m;
        } else if (endsMinor(m.key)) {
            for (char c : m.key)
                if (static_cast<unsigned char>(c) >= 0x80)
                    return false; // QJsonObject's key order is not byte order here
            for (const JsonScan::Member *other : std::as_const(minors))
                if (other->key == m.key)
                    return false;
            minors.append(&m);
            if (m.key == "amount_minor")
                amount = &m;
        }
    }
    Found found = Found::No;
    if (amount)
        found = integerBytes(*amount, &a->minor);
    if (found == Found::Unsure)
        return false;
    if (found == Found::No) {
        std::sort(
            minors.begin(), minors.end(),
            [](const JsonScan::Member *x, const JsonScan::Member *y) { return x->key < y->key; });
        for (const JsonScan::Member *m : std::as_const(minors)) {
            found = integerBytes(*m, &a->minor);
            if (found == Found::Unsure)
                return false;
            if (found == Found::Yes)
                break;
        }
    }
    if (found == Found::No)
        return true;
    if (currency) {
        if (currency->kind == 'e')
            return false;
        if (currency->kind == 's')
            a->currency = currency->raw;
    }
    return true;
}

} // namespace

AuditAmount auditRowAmount(const AuditLogRow &row)
{
    AuditAmount a = amountIn(row.afterJson);
    return a.minor.isEmpty() ? amountIn(row.beforeJson) : a;
}

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

AuditAmountBytes auditRowAmountBytes(const AuditLogRowBytes &row, QByteArray *storage)
{
    AuditAmountBytes a;
    if (amountInBytes(row.afterJson, &a) &&
        (!a.minor.isEmpty() || amountInBytes(row.beforeJson, &a)))
        return a;
    const auto text = [](const std::optional<QByteArrayView> &b) {
        return b ? std::optional<QString>(QString::fromUtf8(*b)) : std::nullopt;
    };
    AuditAmount slow = amountIn(text(row.afterJson));
    if (slow.minor.isEmpty())
        slow = amountIn(text(row.beforeJson));
    const QByteArray minor = slow.minor.toUtf8();
    *storage = minor + slow.currency.toUtf8();
    return {QByteArrayView(*storage).first(minor.size()),
            QByteArrayView(*storage).sliced(minor.size())};
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

} // namespace OncePay
