#include "headerredaction.h"

#include "channels/fedapay/fedapayadapter.h"
#include "channels/kakaopay/kakaopayadapter.h"
#include "channels/paypal/paypaladapter.h"
#include "channels/stripe/stripeadapter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace OncePay::HeaderRedaction {

// A deny-list, not an allow-list. The headers kept are the evidence of a dispute: the
// channel's signature headers, its request and delivery ids, content-type, user-agent, the
// proxies' forwarding headers. An allow-list would silently drop any header nobody listed —
// a channel adding a signature header (a new scheme version, a second key while it rotates)
// or a delivery id its support asks for would be missing from every callback stored until
// someone noticed, and what is not stored cannot be recovered. What must not be kept is a
// credential: none of ours travels in a header (a channel signs with our secret, it never
// sends it), so a credential here is one a proxy or a misconfigured sender added, and those
// use the common names matched below — broadly, by parts of the name (any *-token, *-secret,
// *-key, *session*, *-auth …) — and whatever its name, a value in an HTTP authentication
// scheme ("Bearer …", "Basic …") is masked too. The headers a channel's signature check reads
// are exempt by name, so a word in one of them (paypal-auth-algo) never masks evidence. A new
// channel whose signature header happens to read like a credential must be added to
// kEvidence.

namespace {

constexpr const char *kEvidence[] = {
    StripeAdapter::kSignatureHeader,   PayPalAdapter::kTransmissionId,
    PayPalAdapter::kTransmissionTime,  PayPalAdapter::kTransmissionSig,
    PayPalAdapter::kCertUrl,           PayPalAdapter::kAuthAlgo,
    FedaPayAdapter::kSignatureHeader,  KakaoPayAdapter::kIdHeader,
    KakaoPayAdapter::kTimestampHeader, KakaoPayAdapter::kSignatureHeader,
};

// Anywhere in the name: authorization and proxy-authorization, cookie and set-cookie,
// x-api-key, x-auth-token, x-client-secret, x-session-id, x-csrf-token …
constexpr const char *kCredentialParts[] = {
    "authorization", "cookie", "token",   "secret", "passw", "credential", "session",
    "api-key",       "apikey", "api_key", "jwt",    "csrf",  "xsrf",
};

// Whole words of the name (split at '-', '_', '.'): x-auth, x-auth-user, x-pass, x-pwd.
// A word ending in "key" too: ocp-apim-subscription-key, x-functions-key, x-accesskey.
constexpr const char *kCredentialWords[] = {"auth", "pass", "pwd"};

// A value in an HTTP authentication scheme is a credential under any name.
constexpr const char *kAuthSchemes[] = {"bearer ", "basic ", "digest ",           "negotiate ",
                                        "ntlm ",   "token ", "aws4-hmac-sha256 ", "hoba "};

QByteArray lower(QByteArrayView text)
{
    return text.toByteArray().toLower();
}

// Whether `value` begins with an HTTP authentication scheme and whitespace (a space or a tab).
bool startsWithAuthScheme(QByteArrayView value, QByteArrayView *rest = nullptr)
{
    const QByteArrayView trimmed = value.trimmed();
    const QByteArray v = lower(trimmed.first(qMin<qsizetype>(trimmed.size(), 32)));
    for (const char *scheme : kAuthSchemes) {
        const QByteArrayView word = QByteArrayView(scheme).chopped(1); // without its space
        if (v.startsWith(word) && v.size() > word.size() &&
            (v[word.size()] == ' ' || v[word.size()] == '\t')) {
            if (rest)
                *rest = trimmed.sliced(word.size()).trimmed();
            return true;
        }
    }
    return false;
}

// A bare JSON Web Token: "eyJ…" (a base64url JSON header), its payload, its signature.
bool isJwt(QByteArrayView value)
{
    const QByteArrayView v = value.trimmed();
    if (!v.startsWith("eyJ") || v.count('.') != 2)
        return false;
    const qsizetype dot = v.indexOf('.');
    if (dot < 10 || v.at(dot + 1) == '.')
        return false;
    for (char c : v)
        if (!QChar::isLetterOrNumber(uchar(c)) && c != '-' && c != '_' && c != '.' && c != '=')
            return false;
    return true;
}

// A URL whose query carries a credential: access_token=, token=, X-Amz-Signature=, sig= …
bool urlHasCredential(const QByteArray &lowered)
{
    const qsizetype q = lowered.indexOf('?');
    if (q < 0)
        return false;
    for (const QByteArray &param : lowered.mid(q + 1).split('&')) {
        const qsizetype eq = param.indexOf('=');
        if (eq <= 0 || eq + 1 == param.size())
            continue;
        const QByteArray name = param.left(eq);
        for (const char *part :
             {"token", "secret", "passw", "api_key", "apikey", "credential", "signature"})
            if (name.contains(part))
                return true;
        if (name == "sig" || name == "key" || name == "auth")
            return true;
    }
    return false;
}

bool nameIsCredential(const QByteArray &name)
{
    for (const char *part : kCredentialParts)
        if (name.contains(part))
            return true;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= name.size(); ++i) {
        if (i < name.size() && name[i] != '-' && name[i] != '_' && name[i] != '.')
            continue;
        const QByteArrayView word = QByteArrayView(name).sliced(start, i - start);
        start = i + 1;
        if (word.endsWith("key"))
            return true;
        for (const char *w : kCredentialWords)
            if (word == QByteArrayView(w))
                return true;
    }
    return false;
}

} // namespace

bool isCredential(QByteArrayView name, QByteArrayView value)
{
    const QByteArray n = lower(name);
    for (const char *evidence : kEvidence)
        if (n == QByteArrayView(evidence))
            return false;
    if (nameIsCredential(n))
        return true;
    return startsWithAuthScheme(value) || isJwt(value) || urlHasCredential(lower(value));
}

QString marker(qsizetype bytes)
{
    return QStringLiteral("[redacted, %1 bytes]").arg(bytes);
}

bool isMarker(QStringView value, qsizetype *bytes)
{
    static const QLatin1String head("[redacted, ");
    static const QLatin1String tail(" bytes]");
    if (!value.startsWith(head) || !value.endsWith(tail))
        return false;
    const QStringView digits = value.sliced(head.size(), value.size() - head.size() - tail.size());
    if (digits.isEmpty() || digits.size() > 18)
        return false;
    for (QChar c : digits)
        if (c < u'0' || c > u'9')
            return false;
    if (bytes)
        *bytes = digits.toLongLong();
    return true;
}

StoredHeaders read(const QString &stored)
{
    StoredHeaders out;
    out.storedChars = stored.size();
    if (stored.trimmed().isEmpty())
        return out;
    const QJsonDocument doc = QJsonDocument::fromJson(stored.toUtf8());
    if (!doc.isArray()) {
        out.readable = false;
        return out;
    }
    const QJsonArray pairs = doc.array();
    out.headers.reserve(pairs.size());
    for (const QJsonValue &pair : pairs) {
        const QJsonArray nv = pair.toArray();
        if (!pair.isArray() || nv.size() != 2 || !nv.at(0).isString() || !nv.at(1).isString()) {
            out.readable = false;
            out.headers.clear();
            return out;
        }
        StoredHeader h{nv.at(0).toString(), nv.at(1).toString()};
        // Masked at ingest (by its name or by its value, which the marker replaced) ...
        if (isMarker(h.value, &h.redactedBytes)) {
            h.redacted = true;
        } else if (const QByteArray value = h.value.toUtf8();
                   isCredential(h.name.toUtf8(), value)) {
            // ... or a row stored before ingest masked: its length is that of the value as
            // stored.
            h.redacted = true;
            h.redactedBytes = value.size();
            h.value = marker(h.redactedBytes);
        }
        out.headers << h;
    }
    return out;
}

// Bodies. The list is narrow on purpose, and is not the headers' list: a body's keys are the
// channel's data model, where names with "key", "auth" or "session" in them are evidence an
// agent needs (idempotency_key, FedaPay's transaction_key, a checkout session's id), while a
// secret is named as one: Stripe's client_secret (a payment or setup intent's, an ephemeral
// key's secret — Stripe: not to be stored, logged or shown to anyone but the customer),
// *password*/*passwd*, and bearer values named *token* (access_token, FedaPay's payment_token,
// KakaoPay's pg_token, Stripe's network_token) or api_key/apiKey. "tokenization_method" (how a
// card was tokenized, apple_pay …) names no secret. Ids are never under such a name (id,
// payment_intent, latest_charge, the event's id), so they stay; a value is masked whole
// whatever it holds — the client secret begins with the intent's id, which "id" shows.

namespace {

QString normalisedKey(QStringView key)
{
    QString k;
    k.reserve(key.size());
    for (QChar c : key)
        if (c != u'_' && c != u'-' && c != u'.' && c != u' ')
            k += c.toLower();
    return k;
}

qsizetype characters(const QString &s)
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < s.size(); ++i)
        if (!s[i].isLowSurrogate())
            ++n;
    return n;
}

bool luhn(const QString &digits)
{
    int sum = 0;
    bool twice = false;
    for (qsizetype i = digits.size() - 1; i >= 0; --i, twice = !twice) {
        int d = digits[i].unicode() - u'0';
        if (twice && (d *= 2) > 9)
            d -= 9;
        sum += d;
    }
    return sum % 10 == 0;
}

bool isAsciiDigit(QChar c)
{
    return c >= u'0' && c <= u'9';
}

// Card numbers in text: a run of 13–19 digits (single spaces or dashes allowed between its
// groups) that passes the Luhn check, not glued to a letter or another digit (so an id that
// holds a long number, KakaoPay's tid "T…", stays), shown as its first 6 and last 4 digits.
QString maskCardNumbers(const QString &text)
{
    QString out;
    qsizetype copied = 0;
    qsizetype i = 0;
    while (i < text.size()) {
        if (!isAsciiDigit(text[i]) || (i > 0 && text[i - 1].isLetterOrNumber())) {
            ++i;
            continue;
        }
        // The groups of this run: [start, end) of each.
        QList<std::pair<qsizetype, qsizetype>> groups;
        qsizetype j = i;
        for (;;) {
            const qsizetype start = j;
            while (j < text.size() && isAsciiDigit(text[j]))
                ++j;
            groups.append({start, j});
            if (j + 1 < text.size() && (text[j] == u' ' || text[j] == u'-') &&
                isAsciiDigit(text[j + 1]))
                ++j;
            else
                break;
        }
        const bool glued = j < text.size() && text[j].isLetterOrNumber();
        bool found = false;
        // The earliest and longest stretch of whole groups that is a card number.
        for (qsizetype g = 0; !found && !glued && g < groups.size(); ++g) {
            QString digits;
            qsizetype best = -1;
            QString bestDigits;
            for (qsizetype h = g; h < groups.size(); ++h) {
                digits +=
                    QStringView(text).sliced(groups[h].first, groups[h].second - groups[h].first);
                if (digits.size() > 19)
                    break;
                if (digits.size() >= 13 && luhn(digits)) {
                    best = h;
                    bestDigits = digits;
                }
            }
            if (best < 0)
                continue;
            out += QStringView(text).sliced(copied, groups[g].first - copied);
            out += bestDigits.first(6) + QChar(0x2026) + bestDigits.last(4);
            copied = groups[best].second;
            found = true;
        }
        // After a card number the rest of the run is read again (a second card after it).
        i = found ? copied : j;
    }
    if (copied == 0)
        return text;
    out += QStringView(text).sliced(copied);
    return out;
}

// Only digits: an id such as FedaPay's transaction_key, not text or a grouped card number.
bool isDigitRun(const QString &text)
{
    return !text.isEmpty() && std::all_of(text.cbegin(), text.cend(), isAsciiDigit);
}

QJsonValue masked(const QJsonValue &v, bool secret, const BodyMarker &marker,
                  bool identifier = false);

// A string value holding JSON (an object or array): masked inside, shown compact when
// anything in it was masked.
bool maskedJsonText(const QString &text, bool secret, const BodyMarker &marker, QString *out)
{
    const QString t = text.trimmed();
    if (!(t.startsWith(u'{') && t.endsWith(u'}')) && !(t.startsWith(u'[') && t.endsWith(u']')))
        return false;
    const QJsonDocument doc = QJsonDocument::fromJson(t.toUtf8());
    if (doc.isNull())
        return false;
    const QJsonValue in = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    const QJsonValue m = masked(in, secret, marker);
    if (m == in)
        *out = text;
    else
        *out = QString::fromUtf8(
            (m.isArray() ? QJsonDocument(m.toArray()) : QJsonDocument(m.toObject()))
                .toJson(QJsonDocument::Compact));
    return true;
}

QJsonValue maskedString(const QString &text, bool secret, const BodyMarker &marker, bool identifier)
{
    if (QString json; maskedJsonText(text, secret, marker, &json))
        return json;
    if (secret)
        return marker(characters(text));
    // A credential in an HTTP authentication scheme ("Bearer …") under any key, as in headers:
    // one token after the scheme, or parameters ("Digest username=…").
    QByteArrayView rest;
    const QByteArray utf8 = text.toUtf8();
    if (startsWithAuthScheme(utf8, &rest) && !rest.isEmpty() &&
        (!rest.contains(' ') || rest.contains('=')))
        return marker(characters(text));
    if (isJwt(utf8))
        return marker(characters(text));
    return identifier && isDigitRun(text) ? QJsonValue(text) : QJsonValue(maskCardNumbers(text));
}

QJsonValue masked(const QJsonValue &v, bool secret, const BodyMarker &marker, bool identifier)
{
    switch (v.type()) {
    case QJsonValue::Object: {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = masked(it.value(), secret || isSecretBodyKey(it.key()), marker,
                                isIdentifierBodyKey(it.key()));
        return o;
    }
    case QJsonValue::Array: {
        QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a[i] = masked(a.at(i), secret, marker);
        return a;
    }
    case QJsonValue::String: return maskedString(v.toString(), secret, marker, identifier);
    case QJsonValue::Double: {
        // The number as the body writes it.
        const QString text = QString::fromUtf8(
            QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).chopped(1).sliced(1));
        if (secret)
            return marker(characters(text));
        if (identifier && isDigitRun(text))
            return v;
        const QString cards = maskCardNumbers(text);
        return cards == text ? v : QJsonValue(cards);
    }
    default: return v; // true, false, null
    }
}

} // namespace

bool isIdentifierBodyKey(QStringView key)
{
    if (key == u"id" || key == u"ID" || key.endsWith(u"_id") || key.endsWith(u"_ID"))
        return true;
    // camelCase: orderId, paymentID (not PAID, VOID, VALID)
    if (key.size() > 2 && (key.endsWith(u"Id") || key.endsWith(u"ID")) &&
        key[key.size() - 3].isLower())
        return true;
    for (const char16_t *name :
         {u"transaction_key", u"reference", u"merchant_reference", u"tid", u"aid"})
        if (key == QStringView(name))
            return true;
    return false;
}

bool isSecretBodyKey(QStringView key)
{
    const QString k = normalisedKey(key);
    for (const char16_t *part : {u"secret", u"password", u"passwd", u"apikey", u"credential",
                                 u"privatekey", u"accesskey", u"authorization"})
        if (k.contains(QStringView(part)))
            return true;
    for (const char16_t *whole : {u"cvc", u"cvv", u"cvc2", u"cvv2", u"pin", u"otp"})
        if (k == QStringView(whole))
            return true;
    for (qsizetype at = k.indexOf(u"token"); at >= 0; at = k.indexOf(u"token", at + 1)) {
        const QStringView rest = QStringView(k).sliced(at + 5);
        // tokenization, tokenisation, tokenized, tokenised (not token_issued…)
        if (!rest.startsWith(u"iz") && !rest.startsWith(u"isa") && !rest.startsWith(u"ise"))
            return true;
    }
    return false;
}

QString bodyMarker(qsizetype characters)
{
    return QStringLiteral("[redacted, %1 characters]").arg(characters);
}

QString bodyForDisplay(const QString &rawBody, const BodyMarker &marker)
{
    const QJsonDocument doc = QJsonDocument::fromJson(rawBody.toUtf8());
    if (doc.isNull())
        return rawBody;
    const BodyMarker &m = marker ? marker : BodyMarker(bodyMarker);
    const QJsonValue out =
        masked(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), false, m);
    return QString::fromUtf8(
        (out.isArray() ? QJsonDocument(out.toArray()) : QJsonDocument(out.toObject()))
            .toJson(QJsonDocument::Indented));
}

} // namespace OncePay::HeaderRedaction
