#pragma once

// One open database connection, owned by the thread that opened it (STYLE.md rule 3).
// The QSqlDatabase is registered under a unique name and removed when the Connection is
// destroyed; never hand `db()` to another thread.

#include "config/connectionprofile.h"
#include "core/result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <map>
#include <memory>

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

    // Closes this connection and opens it again with the same profile and purpose, after the
    // server restarted or the link broke. References to this Connection stay valid (the
    // services holding one go on working); queries prepared on the old link do not (db()
    // now has another connectionName()). On failure the old, broken link is kept and the
    // call can simply be repeated.
    Result<void> reconnect();

    // One cheap round trip: false when the server cannot be reached over this link.
    bool ping() const;

    bool isOpen() const { return !m_name.isEmpty(); }
    QSqlDatabase db() const;
    Dialect dialect() const { return m_profile.dialect; }
    const ConnectionProfile &profile() const { return m_profile; }
    QString serverVersion() const;

    // Runs a statement that returns no rows (INSERT, UPDATE, DELETE) through a statement kept
    // prepared on this connection, keyed by its text; the rows affected. For the engine's hot
    // paths, where preparing cost more than executing. The kept statements belong to this
    // Connection: they go before its link closes, move with it, and a statement whose run
    // failed is prepared afresh next time. Same thread contract as the connection.
    Result<int> execKept(const QString &sql, const QVariantList &binds) const;

private:
    QString m_name;
    QString m_purpose;
    ConnectionProfile m_profile;
    mutable std::map<QString, std::unique_ptr<QSqlQuery>> m_kept;
};

} // namespace OncePay
