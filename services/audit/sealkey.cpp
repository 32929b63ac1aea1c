#include "sealkey.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sodium.h>

namespace OncePay {

namespace {

bool sodiumReady()
{
    static const bool ready = sodium_init() >= 0;
    return ready;
}

Result<QByteArray> readBase64File(const QString &path, qsizetype maxBytes)
{
    QFile f(path);
    if (!f.exists())
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("key file %1 does not exist").arg(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("cannot read key file %1: %2").arg(path, f.errorString()));
    const QByteArray text = f.read(maxBytes).trimmed();
    auto decoded = QByteArray::fromBase64Encoding(text, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return makeError(ErrorCode::Invalid, QStringLiteral("key file %1 is not base64").arg(path));
    return *decoded;
}

Result<void> writeFile(const QString &path, const QByteArray &content,
                       QFileDevice::Permissions mode)
{
    QFile f(path);
    // NewOnly + permissions: the file is created with its final mode, never world-readable.
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly, mode))
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("cannot create %1: %2").arg(path, f.errorString()));
    if (f.write(content) != content.size() || !f.flush())
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

} // namespace

SealKeyPaths SealKeyPaths::fromConfig(const AppConfig &config)
{
    SealKeyPaths p;
    p.secretKey = config.seal.value(QStringLiteral("key_file"));
    if (p.secretKey.isEmpty())
        p.secretKey = QDir(config.dataDir).filePath(QStringLiteral("keys/audit-seal.key"));
    p.publicKey = config.seal.value(QStringLiteral("public_key_file"));
    if (p.publicKey.isEmpty()) {
        const QFileInfo secret(p.secretKey);
        p.publicKey = secret.dir().filePath(secret.completeBaseName() + QStringLiteral(".pub"));
    }
    return p;
}

Result<SealPublicKey> SealPublicKey::fromBase64(const QString &text)
{
    auto decoded = QByteArray::fromBase64Encoding(text.trimmed().toLatin1(),
                                                  QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded || decoded.decoded.size() != crypto_sign_PUBLICKEYBYTES)
        return makeError(ErrorCode::Invalid, QStringLiteral("not a base64 Ed25519 public key"));
    SealPublicKey k;
    k.m_key = *decoded;
    return k;
}

Result<SealPublicKey> SealPublicKey::load(const QString &path)
{
    auto bytes = readBase64File(path, 4096);
    if (!bytes)
        return bytes.error();
    if (bytes->size() != crypto_sign_PUBLICKEYBYTES)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1 is not an Ed25519 public key").arg(path));
    SealPublicKey k;
    k.m_key = *bytes;
    return k;
}

QString SealPublicKey::keyId() const
{
    return QString::fromLatin1(
        QCryptographicHash::hash(m_key, QCryptographicHash::Sha256).toHex().left(16));
}

QString SealPublicKey::toBase64() const
{
    return QString::fromLatin1(m_key.toBase64());
}

bool SealPublicKey::verify(const QByteArray &message, const QString &signature) const
{
    if (!sodiumReady() || m_key.size() != crypto_sign_PUBLICKEYBYTES)
        return false;
    auto sig = QByteArray::fromBase64Encoding(signature.toLatin1(),
                                              QByteArray::AbortOnBase64DecodingErrors);
    if (!sig || sig.decoded.size() != crypto_sign_BYTES)
        return false;
    return crypto_sign_verify_detached(
               reinterpret_cast<const unsigned char *>(sig.decoded.constData()),
               reinterpret_cast<const unsigned char *>(message.constData()),
               quint64(message.size()),
               reinterpret_cast<const unsigned char *>(m_key.constData())) == 0;
}

SealKey::~SealKey()
{
    sodium_memzero(m_secret.data(), m_secret.size());
}

SealKey SealKey::generate()
{
    SealKey k;
    unsigned char pk[crypto_sign_PUBLICKEYBYTES];
    if (sodiumReady())
        crypto_sign_keypair(pk, k.m_secret.data());
    return k;
}

Result<SealKey> SealKey::load(const QString &secretKeyPath)
{
    if (!sodiumReady())
        return makeError(ErrorCode::Internal, QStringLiteral("libsodium failed to initialise"));
    auto bytes = readBase64File(secretKeyPath, 4096);
    if (!bytes)
        return bytes.error();
    SealKey k;
    unsigned char pk[crypto_sign_PUBLICKEYBYTES];
    if (bytes->size() == crypto_sign_SEEDBYTES) {
        crypto_sign_seed_keypair(pk, k.m_secret.data(),
                                 reinterpret_cast<const unsigned char *>(bytes->constData()));
    } else if (bytes->size() == crypto_sign_SECRETKEYBYTES) {
        std::copy_n(reinterpret_cast<const unsigned char *>(bytes->constData()), k.m_secret.size(),
                    k.m_secret.begin());
    } else {
        sodium_memzero(bytes->data(), size_t(bytes->size()));
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1 is not an Ed25519 secret key").arg(secretKeyPath));
    }
    sodium_memzero(bytes->data(), size_t(bytes->size()));
    return k;
}

Result<SealKey> SealKey::loadOrCreate(const SealKeyPaths &paths)
{
    if (QFile::exists(paths.secretKey)) {
        auto k = load(paths.secretKey);
        if (k && !QFile::exists(paths.publicKey)) {
            const QByteArray pub = k->publicKey().toBase64().toLatin1() + '\n';
            if (auto w = writeFile(paths.publicKey, pub,
                                   QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                       QFileDevice::ReadGroup | QFileDevice::ReadOther);
                !w)
                return w.error();
        }
        return k;
    }
    if (QFile::exists(paths.publicKey))
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("public key %1 exists but its secret key %2 is missing;"
                                        " refusing to create a new seal key")
                             .arg(paths.publicKey, paths.secretKey));
    if (!sodiumReady())
        return makeError(ErrorCode::Internal, QStringLiteral("libsodium failed to initialise"));

    const QString dir = QFileInfo(paths.secretKey).absolutePath();
    if (!QDir(dir).exists()) {
        if (!QDir().mkpath(dir))
            return makeError(ErrorCode::Unavailable,
                             QStringLiteral("cannot create key folder %1").arg(dir));
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                       QFileDevice::ExeOwner);
    }
    SealKey k = generate();
    QByteArray seed(reinterpret_cast<const char *>(k.m_secret.data()), crypto_sign_SEEDBYTES);
    QByteArray text = seed.toBase64() + '\n';
    sodium_memzero(seed.data(), size_t(seed.size()));
    auto w = writeFile(paths.secretKey, text, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    sodium_memzero(text.data(), size_t(text.size()));
    if (!w)
        return w.error();
    const QByteArray pub = k.publicKey().toBase64().toLatin1() + '\n';
    if (auto p = writeFile(paths.publicKey, pub,
                           QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                               QFileDevice::ReadGroup | QFileDevice::ReadOther);
        !p)
        return p.error();
    return k;
}

SealPublicKey SealKey::publicKey() const
{
    SealPublicKey p;
    unsigned char pk[crypto_sign_PUBLICKEYBYTES];
    crypto_sign_ed25519_sk_to_pk(pk, m_secret.data());
    p.m_key = QByteArray(reinterpret_cast<const char *>(pk), sizeof pk);
    return p;
}

QString SealKey::sign(const QByteArray &message) const
{
    unsigned char sig[crypto_sign_BYTES];
    crypto_sign_detached(sig, nullptr, reinterpret_cast<const unsigned char *>(message.constData()),
                         quint64(message.size()), m_secret.data());
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char *>(sig), sizeof sig).toBase64());
}

} // namespace OncePay
