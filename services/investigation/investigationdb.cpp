#include "investigationdb.h"

#include "db/migrator.h"

namespace OncePay::InvestigationDb {

Result<Connection> open(const ConnectionProfile &profile, const QString &purpose)
{
    auto c = Connection::open(profile, purpose, Connection::OpenMode::ExistingOnly);
    if (!c)
        return c.error();
    // Swapped profiles first: the other schema's version number would read as older or newer
    // and send the reader to migrate or upgrade.
    if (auto identity = Migrator::checkSchemaIdentity(*c); !identity)
        return identity.error();
    auto current = Migrator::currentVersion(*c);
    if (!current)
        return current.error();
    const int latest = Migrator::latestVersion(Migrator::schemaFor(profile.role), profile.dialect);
    if (*current > latest)
        return makeError(
            ErrorCode::Newer,
            QStringLiteral("the %1 database has schema version %2, newer than this program"
                           " knows (%3); upgrade OncePay")
                .arg(roleName(profile.role))
                .arg(*current)
                .arg(latest),
            QStringLiteral("schema_newer"));
    if (*current < latest)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("the %1 database has schema version %2 of %3; run `oncepay db"
                           " migrate` first")
                .arg(roleName(profile.role))
                .arg(*current)
                .arg(latest),
            QStringLiteral("schema_older"));
    return c;
}

} // namespace OncePay::InvestigationDb
