#include "headerredaction.h"

#include "channels/fedapay/fedapayadapter.h"
#include "channels/kakaopay/kakaopayadapter.h"
#include "channels/paypal/paypaladapter.h"
#include "channels/stripe/stripeadapter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
    const QByteArrayView trimmed = value.trimmed();
    const QByteArray v = lower(trimmed.first(qMin<qsizetype>(trimmed.size(), 32)));
    for (const char *scheme : kAuthSchemes)
        if (v.startsWith(scheme))
            return true;
    return false;
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

QJsonValue masked(const QJsonValue &v, bool secret, const BodyMarker &marker)
{
    switch (v.type()) {
    case QJsonValue::Object: {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = masked(it.value(), secret || isSecretBodyKey(it.key()), marker);
        return o;
    }
    case QJsonValue::Array: {
        QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a[i] = masked(a.at(i), secret, marker);
        return a;
    }
    case QJsonValue::String: return secret ? QJsonValue(marker(characters(v.toString()))) : v;
    case QJsonValue::Double:
        // The number's length as the body writes it.
        return secret ? QJsonValue(marker(
                            QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).size() - 2))
                      : v;
    default: return v; // true, false, null
    }
}

} // namespace

bool isSecretBodyKey(QStringView key)
{
    const QString k = normalisedKey(key);
    for (const char16_t *part : {u"secret", u"password", u"passwd", u"apikey"})
        if (k.contains(QStringView(part)))
            return true;
    for (qsizetype at = k.indexOf(u"token"); at >= 0; at = k.indexOf(u"token", at + 1)) {
        const QStringView rest = QStringView(k).sliced(at + 5);
        if (!rest.startsWith(u"iz") && !rest.startsWith(u"is"))
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
