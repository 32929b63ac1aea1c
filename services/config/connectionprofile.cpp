#include "connectionprofile.h"

#include <QRegularExpression>

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

QString secretOption(const QString &options)
{
    // Every `name =` in the text, wherever it is: Qt passes PostgreSQL's options to libpq as
    // a conninfo string (';' becomes ' '), so one `;`-separated item may hold several keys.
    // A key-like word inside a quoted value is read as a key too: that can only refuse more.
    static const QRegularExpression key(QStringLiteral(R"(([A-Za-z_][A-Za-z0-9_.\-]*)\s*=)"));
    for (auto it = key.globalMatch(options); it.hasNext();) {
        const auto m = it.next();
        const QString name = m.captured(1).toLower();
        if (name.contains(u"pass") || name.contains(u"pwd") || name.contains(u"secret"))
            return m.captured(1);
    }
    // scheme://user:password@host — the userinfo part with a colon.
    static const QRegularExpression uri(
        QStringLiteral(R"(([A-Za-z_][A-Za-z0-9_.\-]*\s*=\s*)?['"]?[A-Za-z][A-Za-z0-9+.\-]*://)"
                       R"([^/@\s;'"]*:[^/@\s;'"]*@)"));
    if (const auto m = uri.match(options); m.hasMatch()) {
        const QString name = m.captured(1).section(u'=', 0, 0).trimmed();
        return name.isEmpty() ? QStringLiteral("URI") : name;
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
