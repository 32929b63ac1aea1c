#pragma once

// One open database connection, owned by the thread that opened it (STYLE.md rule 3).
// The QSqlDatabase is registered under a unique name and removed when the Connection is
// destroyed; never hand `db()` to another thread.

#include "config/connectionprofile.h"
#include "core/result.h"

#include <QList>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <map>
#include <memory>
#include <utility>

namespace OncePay {

// A run of a statement kept prepared by its Connection (Connection::queryKept), ready for
// next()/value(). When it goes, the query is finish()ed (SQLite ends the read transaction)
// and the statement may be run again. Must not outlive its Connection or a reconnect().
class KeptQuery {
public:
    KeptQuery(KeptQuery &&other) noexcept;
    KeptQuery &operator=(KeptQuery &&) = delete;
    KeptQuery(const KeptQuery &) = delete;
    KeptQuery &operator=(const KeptQuery &) = delete;
    ~KeptQuery();

    bool next() const { return m_query->next(); }
    QVariant value(int column) const { return m_query->value(column); }
    QSqlQuery *operator->() const { return m_query; }
    QSqlQuery &operator*() const { return *m_query; }

private:
    friend class Connection;
    KeptQuery(QSqlQuery *kept, bool *inUse);
    explicit KeptQuery(std::unique_ptr<QSqlQuery> own);

    std::unique_ptr<QSqlQuery> m_own; // a one-off run while the kept one was leased
    QSqlQuery *m_query = nullptr;
    bool *m_inUse = nullptr;
};

class Connection {
public:
    Connection() = default;
    ~Connection();
    Connection(Connection &&other) noexcept;
    Connection &operator=(Connection &&other) noexcept;
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    // Whether opening a SQLite database may create it. The engine's commands that create and
    // migrate databases (simulate, db migrate, init, the gateway, the worker) create the file
    // and its folder when missing; the console and checks only open what exists, so a wrong or
    // vanished path is reported, never replaced by an empty database. Servers are unaffected.
    enum class OpenMode { CreateIfMissing, ExistingOnly };

    // Opens the database (SQLite: creating the file and its folder only with CreateIfMissing);
    // sets the session options OncePay relies on (WAL + full fsync + busy timeout on SQLite;
    // strict mode and UTC on MySQL). Errors name the role and the reason, never the password.
    // ExistingOnly on a missing SQLite file: Unavailable, reason "database_missing", message
    // "<role>: database file not found: <path>"; nothing is created (the file is opened as a
    // `file:` URI with mode=rw, so db().databaseName() is that URI). A missing Qt SQL driver:
    // Unavailable, reason "driver_missing". A server refusing this login (isRefusedLogin):
    // Unavailable, reason "login_refused", message "<role>: the server refused the login to
    // <profile.describe()> (check the user, its password and the database name): <server's
    // words>". Any other failure to open is Unavailable (an outage, a restart, a full server:
    // waiting cures it); a session statement that fails is classified like Sql::exec (a
    // SQLite file that is no database: Internal).
    static Result<Connection> open(const ConnectionProfile &profile, const QString &purpose,
                                   OpenMode mode = OpenMode::CreateIfMissing);

    // What open() adds to a server profile's driver options, each only where the options set
    // no value of their own, so that a server that stops answering ends the statement waiting
    // on it (an error, Unavailable) instead of holding its thread for ever. Connect: 5 s.
    // PostgreSQL: TCP keep-alives (probed after 10 s idle, every 5 s, 3 lost probes end the
    // link) and tcp_user_timeout=30000 (ms): a link whose peer has gone — a cut network, a host
    // that went away — ends in about 25-30 s. MySQL/MariaDB: a write time-out of 60 s, and
    // with OpenMode::ExistingOnly (the console, `db check`, the audit verification: short
    // statements) a read time-out of 60 s — longer than the longest wait of theirs (a row
    // lock: innodb_lock_wait_timeout, 50 s by default). The engine's connections
    // (CreateIfMissing) get no read time-out: their statements may wait for long on purpose
    // (the settlement import's lock, 600 s; a migration; a reconciliation run). What they do
    // not catch: on PostgreSQL a peer whose kernel still answers but whose server does not (a
    // frozen proxy, a stopped server process) — the console's reads and health checks are
    // covered by ServerSilenceWatch (serversilence.h) instead; on the engine's MariaDB
    // connections, a link that stops answering while a statement waits — the profile's own
    // MYSQL_OPT_READ_TIMEOUT bounds those.
    static QList<std::pair<QString, QString>> livenessDefaults(Dialect dialect, OpenMode mode);

    // Whether `error`, from opening a `dialect` database, is the server refusing the login
    // itself — a wrong user or password, no such database, no right to connect to it, a
    // locked account — which lasts until someone changes the configuration or the server's
    // accounts. MariaDB/MySQL: by the server's error number (1044, 1045, 1049, 1130, 1698,
    // 4151). PostgreSQL: QPSQL gives no SQLSTATE at connect, so by libpq's and the server's
    // English words, matched narrowly. A server that is starting up, shutting down, in
    // recovery or out of connection slots (MySQL 1040, 1203, 1226; PostgreSQL 57P03, 53300)
    // is not a refusal; nor is anything unrecognised (a server whose messages are in
    // another language, lc_messages): those stay retried as an outage. SQLite: never.
    static bool isRefusedLogin(Dialect dialect, const QSqlError &error);

    // Closes this connection and opens it again with the same profile, purpose and mode, after the
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

    // Statements kept prepared on this connection, keyed by their text, for the reads and
    // writes repeated often enough that preparing costs more than running (the engine's hot
    // INSERTs and UPDATEs, the console's search and order page: on SQLite with 1,000,000
    // orders the search statement takes ~175 µs to prepare and ~25 µs to run). They belong
    // to this Connection: they go before its link closes, move with it, and a statement whose
    // run failed is prepared afresh next time. The text must be a fixed shape — values are
    // always bound, never built in. Same thread contract as the connection.
    //
    // queryKept binds `binds` positionally, runs the statement and hands it out until the
    // KeptQuery goes; asked for again while handed out, the same text runs as a one-off.
    // execKept runs a statement that returns no rows; the rows affected. Errors are
    // classified like Sql::exec.
    Result<KeptQuery> queryKept(const QString &sql, const QVariantList &binds) const;
    Result<int> execKept(const QString &sql, const QVariantList &binds) const;
    int keptCount() const { return int(m_kept.size()); }

private:
    struct Kept {
        std::unique_ptr<QSqlQuery> query;
        bool inUse = false;
    };
    // Few fixed statements are repeated; past this many the idle ones are dropped.
    static constexpr std::size_t kMaxKept = 256;

    QString m_name;
    QString m_purpose;
    OpenMode m_mode = OpenMode::CreateIfMissing;
    ConnectionProfile m_profile;
    mutable std::map<QString, Kept> m_kept;
};

} // namespace OncePay
