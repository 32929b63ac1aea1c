#include "healthcheck.h"

#include "connection.h"
#include "migrator.h"

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
    QList<RoleStatus> out;
    out << check(config.orders, false);
    ConnectionProfile messages = config.profile(DbRole::Messages);
    messages.role = DbRole::Messages;
    out << check(messages, config.messages.sameAsOrders);
    out << check(config.audit, false);
    return out;
}

} // namespace OncePay
