#include "secretstore.h"

#include <spdlog/spdlog.h>

namespace OncePay {

Result<void> resolvePasswords(AppConfig &config, SecretStore *store, const PasswordAsker &ask)
{
    AppConfig resolved = config;
    for (ConnectionProfile *p : {&resolved.orders, &resolved.messages, &resolved.audit}) {
        if (!p->needsPassword())
            continue;
        const std::string role = roleName(p->role).toStdString();
        SecretStoreAskReason why{{}, p->passwordKeychain, {}};
        if (p->passwordKeychain.isEmpty()) {
            why.code = QStringLiteral("no_source");
            why.message = QStringLiteral("no password_env variable and no keychain entry is set");
        } else if (!store || !store->available()) {
            why.code = QStringLiteral("no_keychain");
            why.message = QStringLiteral("no keychain is available on this machine");
        } else {
            auto secret = store->read(p->passwordKeychain);
            if (secret && !secret->isEmpty()) {
                p->password = *secret;
                spdlog::info("{} database: password from the keychain entry {}", role,
                             p->passwordKeychain.toStdString());
                continue;
            }
            if (secret) {
                why.code = QStringLiteral("keychain_entry_empty");
                why.message =
                    QStringLiteral("the keychain entry %1 is empty").arg(p->passwordKeychain);
            } else {
                const ErrorCode code = secret.error().code;
                why.code = code == ErrorCode::NotFound ? QStringLiteral("keychain_entry_missing")
                           : code == ErrorCode::Unavailable ? QStringLiteral("no_keychain")
                           : code == ErrorCode::Forbidden   ? QStringLiteral("keychain_refused")
                                                            : QStringLiteral("keychain_failed");
                why.message = secret.error().message;
            }
        }
        spdlog::info("{} database: password asked for ({})", role, why.message.toStdString());
        const std::optional<QString> given = ask ? ask(*p, why) : std::nullopt;
        if (!given)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("no password was given for the %1 database (%2)")
                                 .arg(roleName(p->role), p->describe()),
                             QStringLiteral("password_not_given"));
        p->password = *given;
    }
    config = resolved;
    return {};
}

} // namespace OncePay
