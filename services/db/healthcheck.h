#pragma once

// What `oncepay db check` and the console's status bar report for each database role.
// Thread contract: check() opens its own connection on the calling thread; call it from a
// worker thread in the console.

#include "config/appconfig.h"
#include "db/connection.h"

#include <QList>

namespace OncePay {

// A database is one of three things to whoever looks: usable (Ok); reachable but with a
// schema other than the one this build expects (Warning: older = a migration is pending,
// newer = this program is older than the database); or not there (Down: the server cannot be
// reached, the SQLite file does not exist, its schema version cannot be read, or it is the
// other role's database: wrongSchema).
enum class Health { Ok, Warning, Down };

struct RoleStatus {
    DbRole role = DbRole::Orders;
    QString driver; // "sqlite", "postgresql", "mysql"
    QString target; // profile without password
    QString path;   // SQLite: the database file
    bool reachable = false;
    bool fileMissing = false;  // SQLite: no file at `path` (a check never creates one)
    bool loginRefused = false; // a server refused the login (user, password, database name)
    // Connected, but to the other role's database (an audit database for orders, or the
    // reverse: Migrator::checkSchemaIdentity); not reachable for this role, no version read.
    bool wrongSchema = false;
    bool sharesOrders = false;
    QString serverVersion;
    int schemaVersion = 0;
    int latestVersion = 0;
    QString error; // why not reachable / not current (English, for logs and the CLI)

    Health health() const
    {
        if (!reachable)
            return Health::Down;
        return schemaVersion == latestVersion ? Health::Ok : Health::Warning;
    }
    bool schemaOlder() const { return reachable && schemaVersion < latestVersion; }
    bool schemaNewer() const { return reachable && schemaVersion > latestVersion; }
};

class HealthCheck {
public:
    // A check changes nothing: it opens with Connection::OpenMode::ExistingOnly, so a missing
    // SQLite file is Down with fileMissing set and is not created (`oncepay db check` and the
    // console alike; `oncepay db migrate` is what creates it).
    static RoleStatus check(const ConnectionProfile &profile, bool sharesOrders = false);
    // Orders, messages, audit, in that order; the three are checked at the same time (the
    // calling thread and two threads of its own), so the answer takes as long as the slowest.
    static QList<RoleStatus> checkAll(const AppConfig &config);
};

} // namespace OncePay
