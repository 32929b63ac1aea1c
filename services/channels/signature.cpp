#include "signature.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>

namespace OncePay::Signature {

namespace {

// SHA-256 fetched from the provider once: OpenSSL 3's one-shot HMAC() looks the algorithm up
// (locks, property matching, allocation) on every call, which cost more than hashing a
// webhook body. The digest itself runs OpenSSL's assembly (SHA extensions where the CPU has
// them), several times faster than a portable C SHA-256.
const EVP_MD *sha256()
{
    static EVP_MD *const md = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
    return md;
}

struct DigestContext {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    ~DigestContext() { EVP_MD_CTX_free(ctx); }
};

} // namespace

QByteArray hmacSha256(const QByteArray &key, std::initializer_list<QByteArrayView> parts)
{
    // RFC 2104 over a reused digest context: H((K ^ opad) || H((K ^ ipad) || parts)).
    constexpr int kBlock = 64;
    constexpr int kSize = 32;
    thread_local DigestContext digest;
    EVP_MD_CTX *ctx = digest.ctx;
    const EVP_MD *md = sha256();
    if (!ctx || !md)
        return {};
    unsigned char block[kBlock] = {};
    unsigned char inner[kSize];
    unsigned int length = 0;
    bool ok = true;
    if (key.size() > kBlock) {
        ok = EVP_DigestInit_ex2(ctx, md, nullptr) == 1 &&
             EVP_DigestUpdate(ctx, key.constData(), size_t(key.size())) == 1 &&
             EVP_DigestFinal_ex(ctx, block, &length) == 1;
    } else if (!key.isEmpty()) {
        std::memcpy(block, key.constData(), size_t(key.size()));
    }
    unsigned char pad[kBlock];
    for (int i = 0; i < kBlock; ++i)
        pad[i] = block[i] ^ 0x36;
    ok = ok && EVP_DigestInit_ex2(ctx, md, nullptr) == 1 && EVP_DigestUpdate(ctx, pad, kBlock) == 1;
    for (const QByteArrayView part : parts)
        ok = ok && EVP_DigestUpdate(ctx, part.data(), size_t(part.size())) == 1;
    ok = ok && EVP_DigestFinal_ex(ctx, inner, &length) == 1;
    for (int i = 0; i < kBlock; ++i)
        pad[i] = block[i] ^ 0x5c;
    QByteArray out(kSize, Qt::Uninitialized);
    ok = ok && EVP_DigestInit_ex2(ctx, md, nullptr) == 1 &&
         EVP_DigestUpdate(ctx, pad, kBlock) == 1 && EVP_DigestUpdate(ctx, inner, kSize) == 1 &&
         EVP_DigestFinal_ex(ctx, reinterpret_cast<unsigned char *>(out.data()), &length) == 1;
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
    if (!ok) {
        // The context may be left mid-operation; the next call re-initialises it anyway.
        return {};
    }
    return out;
}

QByteArray hmacSha256(const QByteArray &key, const QByteArray &data)
{
    return hmacSha256(key, {QByteArrayView(data)});
}

QByteArray toHex(const QByteArray &bytes)
{
    return bytes.toHex();
}

std::optional<QByteArray> fromHex(const QByteArray &hex)
{
    if (hex.size() % 2 != 0)
        return std::nullopt;
    for (char c : hex) {
        const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!ok)
            return std::nullopt;
    }
    return QByteArray::fromHex(hex);
}

QByteArray toBase64(const QByteArray &bytes)
{
    return bytes.toBase64();
}

std::optional<QByteArray> fromBase64(const QByteArray &text)
{
    auto r = QByteArray::fromBase64Encoding(text, QByteArray::Base64Encoding |
                                                      QByteArray::AbortOnBase64DecodingErrors);
    if (r.decodingStatus != QByteArray::Base64DecodingStatus::Ok)
        return std::nullopt;
    return r.decoded;
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    if (a.isEmpty())
        return true;
    return CRYPTO_memcmp(a.constData(), b.constData(), size_t(a.size())) == 0;
}

bool anyEquals(const QList<QByteArray> &candidates, const QByteArray &expected)
{
    bool found = false;
    // No early exit: every candidate costs the same whether an earlier one matched or not.
    for (const QByteArray &c : candidates)
        found = constantTimeEquals(c, expected) || found;
    return found;
}

std::optional<qint64> parseUnixSeconds(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 12)
        return std::nullopt;
    qint64 v = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

Result<TimestampedHeader> parseTimestampedHeader(const QByteArray &header,
                                                 const QByteArray &schemeKey)
{
    const QByteArrayView trimmed = QByteArrayView(header).trimmed();
    if (trimmed.isEmpty())
        return makeError(ErrorCode::Invalid, QStringLiteral("signature header is empty"),
                         QStringLiteral("missing_signature"));
    TimestampedHeader out;
    bool haveTimestamp = false;
    for (qsizetype from = 0; from <= trimmed.size();) {
        qsizetype comma = trimmed.indexOf(',', from);
        if (comma < 0)
            comma = trimmed.size();
        const QByteArrayView pair = trimmed.sliced(from, comma - from).trimmed();
        from = comma + 1;
        const qsizetype eq = pair.indexOf('=');
        if (eq <= 0)
            return makeError(ErrorCode::Invalid, QStringLiteral("signature header is malformed"),
                             QStringLiteral("bad_signature"));
        const QByteArrayView key = pair.first(eq);
        const QByteArrayView value = pair.sliced(eq + 1);
        if (key == "t") {
            const auto seconds = parseUnixSeconds(value.toByteArray());
            if (haveTimestamp || !seconds)
                return makeError(ErrorCode::Invalid,
                                 QStringLiteral("signature header has a bad timestamp"),
                                 QStringLiteral("bad_signature"));
            haveTimestamp = true;
            out.timestampText = value.toByteArray();
            out.timestampSeconds = *seconds;
        } else if (key == schemeKey && !value.isEmpty()) {
            out.signatures << value.toByteArray();
        }
    }
    if (!haveTimestamp)
        return makeError(ErrorCode::Invalid, QStringLiteral("signature header has no timestamp"),
                         QStringLiteral("bad_signature"));
    if (out.signatures.isEmpty())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("signature header has no '%1' signature")
                             .arg(QString::fromLatin1(schemeKey)),
                         QStringLiteral("missing_signature"));
    return out;
}

Result<void> checkTimestampWindow(qint64 timestampMs, qint64 nowMs, qint64 toleranceMs)
{
    // Both operands are bounded (12-digit seconds), so the difference cannot overflow.
    const qint64 skew = timestampMs - nowMs;
    if (skew > toleranceMs || skew < -toleranceMs)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("signature timestamp is %1 s %2 the allowed window")
                             .arg((skew < 0 ? -skew : skew) / 1000)
                             .arg(skew < 0 ? QStringLiteral("behind, outside")
                                           : QStringLiteral("ahead, outside")),
                         QStringLiteral("stale_timestamp"));
    return {};
}

Error prefixed(const QString &channel, const Error &error)
{
    return makeError(error.code, channel + QStringLiteral(": ") + error.message, error.reason);
}

Result<void> verifyTimestampedHmac(const InboundRequest &request, const QByteArray &headerName,
                                   const QByteArray &schemeKey, const QStringList &secrets,
                                   qint64 nowMs, qint64 toleranceMs, const QString &channel)
{
    if (secrets.isEmpty())
        return makeError(ErrorCode::Unavailable,
                         channel + QStringLiteral(": no webhook secret configured"),
                         QStringLiteral("not_configured"));
    const QList<QByteArray> headers = request.headerValues(headerName);
    if (headers.isEmpty())
        return makeError(ErrorCode::Invalid,
                         channel +
                             QStringLiteral(": no %1 header").arg(QString::fromLatin1(headerName)),
                         QStringLiteral("missing_signature"));
    if (headers.size() > 1)
        return makeError(
            ErrorCode::Invalid,
            channel + QStringLiteral(": several %1 headers").arg(QString::fromLatin1(headerName)),
            QStringLiteral("bad_signature"));
    auto parsed = parseTimestampedHeader(headers.first(), schemeKey);
    if (!parsed)
        return prefixed(channel, parsed.error());

    bool matched = false;
    for (const QString &secret : secrets) {
        const QByteArray mac = hmacSha256(
            secret.toUtf8(), {parsed->timestampText, QByteArrayView(".", 1), request.body});
        matched = anyEquals(parsed->signatures, toHex(mac)) || matched;
    }
    if (!matched)
        return makeError(
            ErrorCode::Invalid,
            channel +
                QStringLiteral(": no '%1' signature matches").arg(QString::fromLatin1(schemeKey)),
            QStringLiteral("bad_signature"));
    // Checked after the signature, so that only an authentic header reports its age.
    if (auto window = checkTimestampWindow(parsed->timestampSeconds * 1000, nowMs, toleranceMs);
        !window)
        return prefixed(channel, window.error());
    return {};
}

quint32 crc32(const QByteArray &data)
{
    static const auto table = [] {
        std::array<quint32, 256> t{};
        for (quint32 i = 0; i < 256; ++i) {
            quint32 c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    quint32 crc = 0xFFFFFFFFu;
    for (char ch : data)
        crc = table[(crc ^ quint8(ch)) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

} // namespace OncePay::Signature
