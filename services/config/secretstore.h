#pragma once

// Where a database password lives when it does not come from the environment: the OS
// keychain (models/connections/keychainstore.h) or, in tests, memory — never a file.
// resolvePasswords() fills the profiles that need one before the console connects: from the
// keychain entry the profile names, else by asking the person (the console's start-up).
// Thread contract: an implementation is used on one thread at a time.

#include "appconfig.h"
#include "core/result.h"

#include <functional>
#include <optional>

namespace OncePay {

class SecretStore {
public:
    virtual ~SecretStore() = default;
    // A keychain backend answers on this machine.
    virtual bool available() const = 0;
    // ErrorCode::NotFound when there is no such entry, Unavailable when no backend answers.
    virtual Result<QString> read(const QString &key) = 0;
    virtual Result<void> write(const QString &key, const QString &secret) = 0;
    virtual Result<void> remove(const QString &key) = 0;
};

// Why a profile's password is asked for: `code` for the console to say it in its own words and
// language, `message` the same in English for the log.
//   no_source               the profile names neither a password_env variable nor a keychain
//                           entry
//   no_keychain             no keychain answers on this machine (or this build has none)
//   keychain_entry_missing  the keychain has no entry `keychainEntry`
//   keychain_entry_empty    the entry is there but empty
//   keychain_refused        the keychain refused access to the entry
//   keychain_failed         the keychain failed otherwise (`message` says how)
struct SecretStoreAskReason {
    QString code;
    QString keychainEntry; // the entry the profile names, if it names one
    QString message;
};

// Asked for a profile's password; `why` says why the keychain could not give it. Returns
// nothing when the person cancels.
using PasswordAsker = std::function<std::optional<QString>(const ConnectionProfile &profile,
                                                           const SecretStoreAskReason &why)>;

// For every profile with needsPassword(): the keychain entry it names (when `store` is set
// and available), else `ask`. A cancelled question is an error (ErrorCode::Invalid, reason
// "password_not_given") and leaves the config as it was. Logs which profile got its password
// from where, never the password.
Result<void> resolvePasswords(AppConfig &config, SecretStore *store, const PasswordAsker &ask);

} // namespace OncePay
