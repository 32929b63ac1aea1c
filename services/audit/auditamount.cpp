#include "auditamount.h"

#include "auditexportwriter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QVarLengthArray>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace OncePay {

namespace AuditBytes {

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

} // namespace AuditBytes

namespace {

using AuditBytes::isPlainInteger;
using AuditBytes::isValidUtf8;

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

} // namespace OncePay
