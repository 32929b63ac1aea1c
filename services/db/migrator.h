#pragma once

// Versioned schema migrations (resources/migrations/<schema>/<dialect>/NNNN_name.sql),
// recorded in `schema_version`, each applied at most once and, where the engine allows DDL
// in a transaction (SQLite, PostgreSQL), atomically. MySQL commits DDL implicitly, so its
// scripts are written to be re-runnable (IF NOT EXISTS) instead.
// Thread contract: runs on the connection's thread; safe against concurrent migrators in
// other processes (advisory lock / write lock).

#include "connection.h"
#include "core/result.h"

#include <QList>
#include <QString>

#include <chrono>
#include <functional>
#include <optional>

namespace OncePay {

struct Migration {
    int version = 0;
    QString name;
    QString resourcePath;
};

struct MigrationReport {
    int before = 0;
    int after = 0;
    QStringList applied; // "0001_initial"
};

class Migrator {
public:
    // "orders" for the orders and messages roles, "audit" for the audit role.
    static QString schemaFor(DbRole role);

    static QList<Migration> available(const QString &schema, Dialect dialect);
    static int latestVersion(const QString &schema, Dialect dialect);

    // The database holds the schema of the connection's role, or none yet: recognised by a
    // table only that schema has (orders: `orders`, audit: `audit_log`; one database holding
    // both passes). Swapped profiles are refused before any version is compared: Invalid,
    // reason "wrong_schema", "this is an audit database, not an orders database: check the
    // orders connection profile" (or the reverse; a messages profile is told to check orders).
    static Result<void> checkSchemaIdentity(const Connection &connection);

    // 0 when the database has no schema_version table yet.
    static Result<int> currentVersion(const Connection &connection);

    // Applies what is missing; refuses (ErrorCode::Newer) a database newer than this program,
    // and a database of the other schema (checkSchemaIdentity) without touching it.
    static Result<MigrationReport> migrate(const Connection &connection);

    // How long a migration's statement waits for a lock another session holds — on a table
    // it uses (a long transaction; on MariaDB any open transaction that has read the table) or
    // on rows it changed — before the migration stops instead of holding up every statement
    // queued behind it on that table (the gateway's, the workers'): Unavailable, reason
    // "migration_lock_wait"; rolled back on PostgreSQL, its statements run again from the first
    // on MariaDB. Whole seconds on MariaDB. After such a stop this process refuses to migrate
    // that database (the same error, without touching it) until lockWaitPause() has passed,
    // so that threads retrying as after an outage do not hold the table up at every retry.
    // Any thread.
    static constexpr std::chrono::milliseconds kDefaultLockWait{10000};
    static constexpr std::chrono::milliseconds kDefaultLockWaitPause{60000};
    static std::chrono::milliseconds lockWait();
    static void setLockWait(std::chrono::milliseconds wait);
    static std::chrono::milliseconds lockWaitPause();
    static void setLockWaitPause(std::chrono::milliseconds pause);

    // While this process leaves the profile's database unmigrated after a stop on the bound:
    // when it will try again (ms since the epoch, Clock::systemNowMs()). A thread that retries
    // opening (a worker's) waits until then instead of being refused at every back-off step.
    static std::optional<qint64> lockWaitPausedUntilMs(const ConnectionProfile &profile);

    // Splits a migration script on its "-- @@" separator lines.
    static QStringList splitStatements(const QString &script);
};

// Opens the role's database and migrates it if needed ("automatically on first use").
// `loggedIn`, when given, is called once the server has accepted the login, before migrating.
Result<Connection> openMigrated(const ConnectionProfile &profile, const QString &purpose,
                                const std::function<void()> &loggedIn = {});

} // namespace OncePay
