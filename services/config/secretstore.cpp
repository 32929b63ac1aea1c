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
        QString why;
        if (p->passwordKeychain.isEmpty()) {
            why = QStringLiteral("no password_env variable and no keychain entry is set");
        } else if (!store || !store->available()) {
            why = QStringLiteral("no keychain is available on this machine");
        } else {
            auto secret = store->read(p->passwordKeychain);
            if (secret && !secret->isEmpty()) {
                p->password = *secret;
                spdlog::info("{} database: password from the keychain entry {}", role,
                             p->passwordKeychain.toStdString());
                continue;
            }
            why = secret ? QStringLiteral("the keychain entry %1 is empty").arg(p->passwordKeychain)
                         : secret.error().message;
        }
        spdlog::info("{} database: password asked for ({})", role, why.toStdString());
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
