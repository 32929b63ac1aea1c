#pragma once

// Who does something: a staff member with a role, or a part of the system
// ("worker:<host>/<pid>/<n>", "gateway", "checkout", "simulator").
// Thread contract: plain value.

#include <QString>

namespace OncePay {

struct Actor {
    QString id;
    QString role; // agent, finance, auditor, admin, system, platform

    static Actor system(const QString &id) { return {id, QStringLiteral("system")}; }
    static Actor platform(const QString &id = QStringLiteral("checkout"))
    {
        return {id, QStringLiteral("platform")};
    }
};

} // namespace OncePay
