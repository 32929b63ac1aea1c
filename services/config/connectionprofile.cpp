#include "connectionprofile.h"

namespace OncePay {

QString dialectName(Dialect dialect)
{
    switch (dialect) {
    case Dialect::Sqlite: return QStringLiteral("sqlite");
    case Dialect::Postgres: return QStringLiteral("postgresql");
    case Dialect::MySql: return QStringLiteral("mysql");
    }
    return {};
}

QString qtDriverName(Dialect dialect)
{
    switch (dialect) {
    case Dialect::Sqlite: return QStringLiteral("QSQLITE");
    case Dialect::Postgres: return QStringLiteral("QPSQL");
    case Dialect::MySql: return QStringLiteral("QMYSQL");
    }
    return {};
}

bool parseDialect(const QString &text, Dialect *out)
{
    const QString t = text.trimmed().toLower();
    if (t == u"sqlite" || t == u"sqlite3" || t == u"qsqlite")
        *out = Dialect::Sqlite;
    else if (t == u"postgresql" || t == u"postgres" || t == u"pgsql" || t == u"qpsql")
        *out = Dialect::Postgres;
    else if (t == u"mysql" || t == u"mariadb" || t == u"qmysql" || t == u"qmariadb")
        *out = Dialect::MySql;
    else
        return false;
    return true;
}

QString roleName(DbRole role)
{
    switch (role) {
    case DbRole::Orders: return QStringLiteral("orders");
    case DbRole::Messages: return QStringLiteral("messages");
    case DbRole::Audit: return QStringLiteral("audit");
    }
    return {};
}

bool ConnectionProfile::needsPassword() const
{
    return dialect != Dialect::Sqlite && !sameAsOrders && password.isEmpty();
}

QString ConnectionProfile::describe() const
{
    if (dialect == Dialect::Sqlite)
        return QStringLiteral("sqlite:%1").arg(path);
    return QStringLiteral("%1://%2@%3:%4/%5")
        .arg(dialectName(dialect), user, host)
        .arg(port)
        .arg(database);
}

bool ConnectionProfile::sameDatabaseAs(const ConnectionProfile &other) const
{
    if (dialect != other.dialect)
        return false;
    if (dialect == Dialect::Sqlite)
        return path == other.path;
    return host == other.host && port == other.port && database == other.database &&
           user == other.user;
}

} // namespace OncePay
