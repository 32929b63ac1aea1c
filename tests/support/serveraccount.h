#pragma once

// A server login of its own for a test about logins (PostgreSQL or MariaDB): created on the
// scratch server through an administrator's connection — a leftover of an earlier run that was
// killed dropped first — and dropped again when it goes, however the test ends.

#include "db/connection.h"
#include "db/sql.h"

#include <QList>
#include <QString>

namespace OncePay::Test {

class ServerAccount {
public:
    // Creates `user` with `password`; `pgOptions` / `myOptions` follow the CREATE ROLE /
    // CREATE USER (e.g. "CONNECTION LIMIT 0", "WITH MAX_USER_CONNECTIONS 1").
    ServerAccount(const Connection &admin, const QString &user, const QString &password,
                  const QString &pgOptions = {}, const QString &myOptions = {})
        : m_admin(admin)
        , m_user(user)
        , m_pg(admin.dialect() == Dialect::Postgres)
    {
        drop();
        m_created = exec(m_pg ? QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2' %3")
                                    .arg(account(), password, pgOptions)
                              : QStringLiteral("CREATE USER %1 IDENTIFIED BY '%2' %3")
                                    .arg(account(), password, myOptions));
    }
    ~ServerAccount() { drop(); }
    ServerAccount(const ServerAccount &) = delete;
    ServerAccount &operator=(const ServerAccount &) = delete;

    bool created() const { return m_created; }
    // The account as GRANT, ALTER and DROP name it.
    QString account() const { return m_pg ? m_user : QStringLiteral("'%1'@'%'").arg(m_user); }

    // Runs `sql` as the administrator; a failure is printed.
    bool exec(const QString &sql) const
    {
        auto r = Sql::exec(m_admin.db(), sql);
        if (!r)
            qWarning("%s: %s", qPrintable(sql), qPrintable(r.error().message));
        return r.ok();
    }
    // What the engine needs in `database` (the scratch database the admin is connected to).
    bool grantAll(const QString &database) const
    {
        if (!m_pg)
            return exec(QStringLiteral("GRANT ALL ON `%1`.* TO %2").arg(database, account()));
        return exec(QStringLiteral("GRANT USAGE, CREATE ON SCHEMA public TO %1").arg(account())) &&
               exec(QStringLiteral("GRANT ALL ON ALL TABLES IN SCHEMA public TO %1")
                        .arg(account())) &&
               exec(QStringLiteral("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO %1")
                        .arg(account()));
    }
    bool setPassword(const QString &password) const
    {
        return exec(
            m_pg ? QStringLiteral("ALTER ROLE %1 PASSWORD '%2'").arg(account(), password)
                 : QStringLiteral("ALTER USER %1 IDENTIFIED BY '%2'").arg(account(), password));
    }
    // Ends every session of the account, as a rotation that kills old sessions does; false if
    // there was none to end.
    bool endSessions() const
    {
        if (m_pg)
            return exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                       " WHERE usename = '%1'")
                            .arg(m_user));
        auto ids = Sql::exec(
            m_admin.db(),
            QStringLiteral("SELECT id FROM information_schema.processlist WHERE user = '%1'")
                .arg(m_user));
        if (!ids)
            return false;
        QList<qint64> found;
        while (ids->next())
            found << ids->value(0).toLongLong();
        for (qint64 id : std::as_const(found))
            exec(QStringLiteral("KILL %1").arg(id)); // one may have ended by itself
        return !found.isEmpty();
    }

private:
    void drop() const
    {
        if (m_pg) {
            (void)Sql::exec(m_admin.db(),
                            QStringLiteral("DROP OWNED BY %1").arg(account())); // grants
            (void)Sql::exec(m_admin.db(), QStringLiteral("DROP ROLE IF EXISTS %1").arg(account()));
        } else {
            (void)Sql::exec(m_admin.db(), QStringLiteral("DROP USER IF EXISTS %1").arg(account()));
        }
    }

    const Connection &m_admin;
    QString m_user;
    bool m_pg = false;
    bool m_created = false;
};

} // namespace OncePay::Test
