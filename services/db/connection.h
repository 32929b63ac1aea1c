#pragma once

// One open database connection, owned by the thread that opened it (STYLE.md rule 3).
// The QSqlDatabase is registered under a unique name and removed when the Connection is
// destroyed; never hand `db()` to another thread.

#include "config/connectionprofile.h"
#include "core/result.h"

#include <QSqlDatabase>
#include <QString>

namespace OncePay {

class Connection {
public:
    Connection() = default;
    ~Connection();
    Connection(Connection &&other) noexcept;
    Connection &operator=(Connection &&other) noexcept;
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    // Opens (and, for SQLite, creates) the database; sets the session options OncePay relies
    // on (WAL + full fsync + busy timeout on SQLite; strict mode and UTC on MySQL).
    // Errors name the role and the reason, never the password.
    static Result<Connection> open(const ConnectionProfile &profile, const QString &purpose);

    bool isOpen() const { return !m_name.isEmpty(); }
    QSqlDatabase db() const;
    Dialect dialect() const { return m_profile.dialect; }
    const ConnectionProfile &profile() const { return m_profile; }
    QString serverVersion() const;

private:
    QString m_name;
    ConnectionProfile m_profile;
};

} // namespace OncePay
