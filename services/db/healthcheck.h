#pragma once

// What `oncepay db check` and the console's status bar report for each database role.
// Thread contract: check() opens its own connection on the calling thread; call it from a
// worker thread in the console.

#include "config/appconfig.h"

#include <QList>

namespace OncePay {

struct RoleStatus {
    DbRole role = DbRole::Orders;
    QString driver; // "sqlite", "postgresql", "mysql"
    QString target; // profile without password
    bool reachable = false;
    bool sharesOrders = false;
    QString serverVersion;
    int schemaVersion = 0;
    int latestVersion = 0;
    QString error; // why not reachable / not current
};

class HealthCheck {
public:
    static RoleStatus check(const ConnectionProfile &profile, bool sharesOrders = false);
    static QList<RoleStatus> checkAll(const AppConfig &config);
};

} // namespace OncePay
