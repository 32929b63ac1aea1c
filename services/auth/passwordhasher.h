#pragma once

// Argon2id password hashes in libsodium's self-describing `$argon2id$v=19$m=…,t=…,p=1$…`
// form, so parameters can be raised later and old hashes still verify (needsRehash says
// when to re-hash at the next sign-in). Never logs or stores the password itself.
// Thread contract: stateless; safe from any thread. Hashing takes ~0.1 s and 64 MiB: call it
// off the GUI thread.

#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace OncePay::PasswordHasher {

// 2 passes over 64 MiB (above the 19 MiB / 2 pass floor of the OWASP Argon2id guidance).
inline constexpr quint64 kOpsLimit = 2;
inline constexpr quint64 kMemLimitBytes = 64ull * 1024 * 1024;
inline constexpr quint64 kMinMemLimitBytes = 19ull * 1024 * 1024;

inline constexpr int kMinPasswordLength = 10;
inline constexpr int kMaxPasswordBytes = 1024;

// Refuses passwords that are too short, too long or contain NUL.
Result<void> checkPolicy(const QString &password);

Result<QString> hash(const QString &password);

// Constant-time in the password; false for a wrong password or a malformed hash.
bool verify(const QString &storedHash, const QString &password);

// True when the stored hash uses weaker parameters than the current ones.
bool needsRehash(const QString &storedHash);

} // namespace OncePay::PasswordHasher
