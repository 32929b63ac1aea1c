#pragma once

// The OS keychain (Secret Service / KWallet on Linux, Keychain on macOS, Credential Manager
// on Windows) through QtKeychain, as a SecretStore. Entries live under the service name
// "OncePay"; QtKeychain's insecure plain-file fallback stays off, so a machine without a
// keychain says so (available() is false) and the console asks for the password instead.
// Each call waits for QtKeychain's answer in a local event loop, at most a few seconds.
// Thread contract: one thread at a time (the GUI thread at start-up and in the editor).

#include "config/secretstore.h"

namespace OncePay {

class KeychainStore : public SecretStore {
public:
    explicit KeychainStore(const QString &service = QStringLiteral("OncePay"));

    bool available() const override;
    Result<QString> read(const QString &key) override;
    Result<void> write(const QString &key, const QString &secret) override;
    Result<void> remove(const QString &key) override;

private:
    QString m_service;
    mutable int m_available = -1; // -1 not probed yet
};

} // namespace OncePay
