#include "channeljson.h"

#include "core/money.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

namespace OncePay::ChannelJson {

namespace {

// Walks a body that QJsonDocument already accepted and records the raw number tokens by
// path. It trusts the syntax (already validated) and only tracks where it is. The path is
// one buffer that grows and shrinks as the walk descends and returns, so nothing is
// allocated per key; only a number's path and token are copied out.
class NumberScanner {
public:
    NumberScanner(const QByteArray &body, QHash<QByteArray, QByteArray> *out)
        : m_s(body)
        , m_out(out)
    {
        m_path.reserve(128);
    }
    void run()
    {
        skipSpace();
        value();
    }

private:
    bool atEnd() const { return m_i >= m_s.size(); }
    void skipSpace()
    {
        while (!atEnd() &&
               (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\n' || m_s[m_i] == '\r'))
            ++m_i;
    }
    // Past a string; its content (escapes kept raw — no channel field OncePay reads has one).
    QByteArrayView string()
    {
        const qsizetype start = ++m_i; // past the opening quote
        while (!atEnd() && m_s[m_i] != '"')
            m_i += m_s[m_i] == '\\' ? 2 : 1;
        const QByteArrayView text =
            QByteArrayView(m_s).sliced(start, std::min(m_i, m_s.size()) - start);
        ++m_i;
        return text;
    }
    void value()
    {
        if (atEnd())
            return;
        const char c = m_s[m_i];
        const qsizetype pathLength = m_path.size();
        if (c == '{') {
            ++m_i;
            for (skipSpace(); !atEnd() && m_s[m_i] != '}'; skipSpace()) {
                if (m_s[m_i] == ',') {
                    ++m_i;
                    continue;
                }
                const QByteArrayView key = string();
                if (pathLength > 0)
                    m_path.append('.');
                m_path.append(key);
                skipSpace();
                ++m_i; // ':'
                skipSpace();
                value();
                m_path.truncate(pathLength);
            }
            ++m_i;
        } else if (c == '[') {
            ++m_i;
            int index = 0;
            for (skipSpace(); !atEnd() && m_s[m_i] != ']'; skipSpace()) {
                if (m_s[m_i] == ',') {
                    ++m_i;
                    continue;
                }
                m_path.append('[').append(QByteArray::number(index++)).append(']');
                value();
                m_path.truncate(pathLength);
            }
            ++m_i;
        } else if (c == '"') {
            string();
        } else {
            const qsizetype start = m_i;
            while (!atEnd() && m_s[m_i] != ',' && m_s[m_i] != '}' && m_s[m_i] != ']' &&
                   m_s[m_i] != ' ' && m_s[m_i] != '\n' && m_s[m_i] != '\r' && m_s[m_i] != '\t')
                ++m_i;
            const QByteArrayView token = QByteArrayView(m_s).sliced(start, m_i - start);
            if (token != "true" && token != "false" && token != "null")
                // Duplicate keys: the last wins, as in QJsonObject.
                m_out->insert(m_path, token.toByteArray());
        }
    }

    const QByteArray &m_s;
    QHash<QByteArray, QByteArray> *m_out;
    QByteArray m_path;
    qsizetype m_i = 0;
};

} // namespace

Error malformed(const QString &message)
{
    return makeError(ErrorCode::Invalid, message, QStringLiteral("malformed"));
}

Error badAmount(const QString &message)
{
    return makeError(ErrorCode::Invalid, message, QStringLiteral("bad_amount"));
}

Result<Document> parse(const QByteArray &body)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        return malformed(QStringLiteral("body is not JSON: %1 at offset %2")
                             .arg(error.errorString())
                             .arg(error.offset));
    if (!doc.isObject())
        return malformed(QStringLiteral("body is not a JSON object"));
    Document d;
    d.root = doc.object();
    NumberScanner(body, &d.numbers).run();
    return d;
}

Result<qint64> integerToken(const QByteArray &raw, const QString &what)
{
    if (raw.isEmpty())
        return badAmount(QStringLiteral("%1 is not a number").arg(what));
    if (raw.startsWith('-'))
        return badAmount(QStringLiteral("%1 is negative").arg(what));
    qint64 value = 0;
    for (char c : raw) {
        if (c < '0' || c > '9')
            return badAmount(QStringLiteral("%1 is not a whole number").arg(what));
        const auto times10 = Currency::checkedMul(value, 10);
        const auto next = times10 ? Currency::checkedAdd(*times10, c - '0') : std::nullopt;
        if (!next)
            return badAmount(QStringLiteral("%1 overflows 64 bits").arg(what));
        value = *next;
    }
    return value;
}

QJsonValue Document::at(const QString &path) const
{
    QJsonValue v = root;
    for (const QStringView part : QStringView(path).tokenize(u'.')) {
        QStringView key = part;
        int index = -1;
        if (const qsizetype b = part.indexOf(u'['); b >= 0) {
            key = part.first(b);
            index = part.sliced(b + 1).chopped(1).toInt();
        }
        v = v.toObject().value(key);
        if (index >= 0)
            v = v.toArray().at(index);
    }
    return v;
}

QByteArray Document::numberToken(const QString &path) const
{
    return numbers.value(path.toUtf8());
}

Result<qint64> Document::nonNegativeInteger(const QString &path, const QString &what) const
{
    if (!at(path).isDouble())
        return badAmount(QStringLiteral("%1 is not a number").arg(what));
    return integerToken(numberToken(path), what);
}

QString Document::idString(const QString &path) const
{
    const QJsonValue v = at(path);
    if (v.isString())
        return v.toString();
    if (!v.isDouble())
        return {};
    const QByteArray token = numberToken(path);
    if (integerToken(token, QString()).ok())
        return QString::fromLatin1(token);
    return {};
}

Result<QString> currencyCode(const QJsonValue &value)
{
    const QString code = value.toString().toUpper();
    if (code.size() != 3 || !Currency::isKnown(code))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("unknown currency '%1'").arg(code.left(8)),
                         QStringLiteral("unknown_currency"));
    return code;
}

Result<qint64> decimalString(const QJsonValue &value, const QString &currency, const QString &what)
{
    if (!value.isString())
        return badAmount(QStringLiteral("%1 is not a decimal string").arg(what));
    const QString text = value.toString();
    // parseDecimal tolerates a sign and surrounding blanks; a channel's amount has neither.
    for (QChar c : text)
        if (!(c >= u'0' && c <= u'9') && c != u'.')
            return badAmount(
                QStringLiteral("%1 '%2' is not a plain decimal").arg(what, text.left(32)));
    auto r = Currency::parseDecimal(text, currency);
    if (!r)
        return badAmount(QStringLiteral("%1: %2").arg(what, r.error().message.left(120)));
    return r.value();
}

} // namespace OncePay::ChannelJson
