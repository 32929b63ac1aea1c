#pragma once

// The Ed25519 key that seals the audit chain head (DESIGN.md §5), via libsodium.
//
// Files: the secret key file holds the base64 of the 32-byte seed (one line) and is created
// with mode 0600 (its folder 0700) on first use; the public key file beside it holds the
// base64 of the 32-byte public key — that half is what auditors keep and verify with.
// key_id = the first 16 hex characters of SHA-256(public key bytes).
// Key material is never logged or put into error messages.
//
// Thread contract: plain values; sign/verify are safe from any thread.

#include "config/appconfig.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <array>

namespace OncePay {

struct SealKeyPaths {
    QString secretKey; // [seal] key_file, default <dataDir>/keys/audit-seal.key
    QString publicKey; // [seal] public_key_file, default the secret key's name with .pub

    static SealKeyPaths fromConfig(const AppConfig &config);
};

class SealPublicKey {
public:
    static Result<SealPublicKey> fromBase64(const QString &text);
    static Result<SealPublicKey> load(const QString &path);

    QString keyId() const;
    QString toBase64() const;
    // `signature` is base64 of the 64-byte detached signature.
    bool verify(const QByteArray &message, const QString &signature) const;

private:
    friend class SealKey;
    QByteArray m_key; // 32 bytes
};

class SealKey {
public:
    SealKey() = default;
    ~SealKey();
    SealKey(const SealKey &) = default;
    SealKey &operator=(const SealKey &) = default;

    // Reads the secret key; creates the pair when neither file exists. Refuses to create a
    // new key when only the public file exists (old seals would no longer verify).
    static Result<SealKey> loadOrCreate(const SealKeyPaths &paths);
    static Result<SealKey> load(const QString &secretKeyPath);
    // A fresh key in memory only (tests).
    static SealKey generate();

    SealPublicKey publicKey() const;
    QString keyId() const { return publicKey().keyId(); }
    // base64 of the detached Ed25519 signature.
    QString sign(const QByteArray &message) const;

private:
    std::array<unsigned char, 64> m_secret{}; // libsodium layout: seed || public key
};

} // namespace OncePay
