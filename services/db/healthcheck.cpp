#include "healthcheck.h"

#include "connection.h"
#include "migrator.h"
#include "serversilence.h"

#include <future>

namespace OncePay {

RoleStatus HealthCheck::check(const ConnectionProfile &profile, bool sharesOrders)
{
    RoleStatus s;
    s.role = profile.role;
    s.driver = dialectName(profile.dialect);
    s.target = profile.describe();
    s.sharesOrders = sharesOrders;
    if (profile.dialect == Dialect::Sqlite)
        s.path = profile.path;
    s.latestVersion = Migrator::latestVersion(Migrator::schemaFor(profile.role), profile.dialect);
    auto c = Connection::open(profile, QStringLiteral("check"), Connection::OpenMode::ExistingOnly);
    if (!c) {
        s.fileMissing = c.error().reason == u"database_missing";
        s.loginRefused = c.error().reason == u"login_refused";
        s.error = c.error().message;
        return s;
    }
    // A server that accepted the link and then went silent says so within the watch's limit.
    const ServerSilenceWatch::Scope watched(
        *c, QStringLiteral("health check of the %1 database").arg(roleName(profile.role)));
    s.serverVersion = c->serverVersion();
    // Swapped profiles: the other schema's version number would read as "pending" or "newer"
    // and send the operator to migrate or upgrade the wrong database.
    if (auto identity = Migrator::checkSchemaIdentity(*c); !identity) {
        s.wrongSchema = identity.error().reason == u"wrong_schema";
        s.error = identity.error().message;
        return s;
    }
    auto v = Migrator::currentVersion(*c);
    if (!v) {
        s.error = v.error().message;
        return s;
    }
    s.reachable = true;
    s.schemaVersion = *v;
    if (*v > s.latestVersion)
        s.error = QStringLiteral("schema %1 is newer than this program (%2)")
                      .arg(*v)
                      .arg(s.latestVersion);
    else if (*v < s.latestVersion)
        s.error = QStringLiteral("schema %1, migration to %2 pending").arg(*v).arg(s.latestVersion);
    return s;
}

QList<RoleStatus> HealthCheck::checkAll(const AppConfig &config)
{
    ConnectionProfile messages = config.profile(DbRole::Messages);
    messages.role = DbRole::Messages;
    // The three at once, each on a thread of its own with its own connection (closed before
    // the thread ends): a server that never answers holds the answer up by its connect
    // time-out once, not once per role (3 × 15 s with `connect_timeout=15` was longer than the
    // console's 30 s between checks).
    auto messagesCheck =
        std::async(std::launch::async, [messages, same = config.messages.sameAsOrders] {
            return check(messages, same);
        });
    auto auditCheck =
        std::async(std::launch::async, [audit = config.audit] { return check(audit, false); });
    QList<RoleStatus> out;
    out << check(config.orders, false);
    out << messagesCheck.get();
    out << auditCheck.get();
    return out;
}

} // namespace OncePay
