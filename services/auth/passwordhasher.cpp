#include "passwordhasher.h"

#include <sodium.h>

namespace OncePay::PasswordHasher {

namespace {

bool ready()
{
    static const bool ok = sodium_init() >= 0;
    return ok;
}

} // namespace

Result<void> checkPolicy(const QString &password)
{
    if (password.size() < kMinPasswordLength)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("a password needs at least %1 characters").arg(kMinPasswordLength),
            QStringLiteral("password_too_short"));
    if (password.toUtf8().size() > kMaxPasswordBytes)
        return makeError(ErrorCode::Invalid, QStringLiteral("the password is too long"),
                         QStringLiteral("password_too_long"));
    if (password.contains(QChar(0)))
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("the password contains a NUL character"),
                         QStringLiteral("password_invalid"));
    return {};
}

Result<QString> hash(const QString &password)
{
    if (!ready())
        return makeError(ErrorCode::Internal, QStringLiteral("libsodium could not be initialised"));
    QByteArray utf8 = password.toUtf8();
    char out[crypto_pwhash_STRBYTES];
    const int rc = crypto_pwhash_str_alg(out, utf8.constData(), quint64(utf8.size()), kOpsLimit,
                                         size_t(kMemLimitBytes), crypto_pwhash_ALG_ARGON2ID13);
    sodium_memzero(utf8.data(), size_t(utf8.size()));
    if (rc != 0)
        return makeError(ErrorCode::Internal,
                         QStringLiteral("out of memory while hashing a password"));
    return QString::fromLatin1(out);
}

bool verify(const QString &storedHash, const QString &password)
{
    if (!ready() || !storedHash.startsWith(u"$argon2id$"))
        return false;
    const QByteArray h = storedHash.toLatin1();
    QByteArray utf8 = password.toUtf8();
    const bool ok =
        crypto_pwhash_str_verify(h.constData(), utf8.constData(), quint64(utf8.size())) == 0;
    sodium_memzero(utf8.data(), size_t(utf8.size()));
    return ok;
}

bool needsRehash(const QString &storedHash)
{
    if (!ready())
        return false;
    const QByteArray h = storedHash.toLatin1();
    return crypto_pwhash_str_needs_rehash(h.constData(), kOpsLimit, size_t(kMemLimitBytes)) != 0;
}

} // namespace OncePay::PasswordHasher
