#include "connection.h"

#include "serversilence.h"
#include "sql.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUrl>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

QString uniqueName(const ConnectionProfile &profile, const QString &purpose)
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("oncepay/%1/%2/%3/%4")
        .arg(roleName(profile.role), purpose)
        .arg(quintptr(QThread::currentThreadId()))
        .arg(counter.fetchAndAddRelaxed(1));
}

// The driver options set `key` (as `key=value`, anywhere in the `;`-separated list; Qt hands
// PostgreSQL's to libpq as one conninfo string, so an item may hold several).
bool setsOption(const QString &options, const QString &key)
{
    const QRegularExpression re(
        QStringLiteral(R"((^|[;\s])%1\s*=)").arg(QRegularExpression::escape(key)),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(options).hasMatch();
}

} // namespace

QList<std::pair<QString, QString>> Connection::livenessDefaults(Dialect dialect, OpenMode mode)
{
    switch (dialect) {
    case Dialect::Sqlite: return {};
    case Dialect::Postgres:
        // libpq's conninfo keywords (QPSQL hands the options to PQconnectdb as they are). The
        // kernel probes an idle link after 10 s, every 5 s, and gives up after 3 unanswered
        // probes; data sent and not acknowledged for 30 s ends the link too. A statement that
        // legitimately runs or waits for a lock for long is unaffected: the server's kernel
        // answers the probes and acknowledges the data meanwhile.
        return {{QStringLiteral("connect_timeout"), QStringLiteral("5")},
                {QStringLiteral("keepalives"), QStringLiteral("1")},
                {QStringLiteral("keepalives_idle"), QStringLiteral("10")},
                {QStringLiteral("keepalives_interval"), QStringLiteral("5")},
                {QStringLiteral("keepalives_count"), QStringLiteral("3")},
                {QStringLiteral("tcp_user_timeout"), QStringLiteral("30000")}};
    case Dialect::MySql: {
        // QMYSQL's option names (mysql_options; the MariaDB client library counts each time-out
        // once, per read or write). A read time-out also ends a statement that is only slow or
        // waiting, so it is set only on the connections that run no long statement (see
        // connection.h), above the longest wait they may meet: a row lock
        // (innodb_lock_wait_timeout, 50 s by default) or the audit chain's GET_LOCK (30 s).
        QList<std::pair<QString, QString>> out{
            {QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT"), QStringLiteral("5")},
            {QStringLiteral("MYSQL_OPT_WRITE_TIMEOUT"), QStringLiteral("60")}};
        if (mode == OpenMode::ExistingOnly)
            out.append({QStringLiteral("MYSQL_OPT_READ_TIMEOUT"), QStringLiteral("60")});
        return out;
    }
    }
    return {};
}

Connection::~Connection()
{
    m_kept.clear(); // the statements before the link they were prepared on
    if (m_name.isEmpty())
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
}

Connection::Connection(Connection &&other) noexcept
    : m_name(std::exchange(other.m_name, QString()))
    , m_purpose(other.m_purpose)
    , m_mode(other.m_mode)
    , m_profile(other.m_profile)
    , m_kept(std::exchange(other.m_kept, {}))
{}

Connection &Connection::operator=(Connection &&other) noexcept
{
    if (this != &other) {
        Connection old(std::move(*this));
        m_name = std::exchange(other.m_name, QString());
        m_purpose = other.m_purpose;
        m_mode = other.m_mode;
        m_profile = other.m_profile;
        m_kept = std::exchange(other.m_kept, {});
    }
    return *this;
}

QSqlDatabase Connection::db() const
{
    return QSqlDatabase::database(m_name, false);
}

Result<Connection> Connection::open(const ConnectionProfile &profile, const QString &purpose,
                                    OpenMode mode)
{
    const QString role = roleName(profile.role);
    if (!QSqlDatabase::isDriverAvailable(qtDriverName(profile.dialect)))
        return makeError(ErrorCode::Unavailable,
                         QStringLiteral("%1: Qt SQL driver %2 is not installed")
                             .arg(role, qtDriverName(profile.dialect)),
                         QStringLiteral("driver_missing"));

    Connection c;
    c.m_profile = profile;
    c.m_purpose = purpose;
    c.m_mode = mode;
    c.m_name = uniqueName(profile, purpose);
    QSqlDatabase db = QSqlDatabase::addDatabase(qtDriverName(profile.dialect), c.m_name);

    QString options = profile.options;
    auto addOption = [&options](const QString &opt) {
        options = options.isEmpty() ? opt : options + u';' + opt;
    };
    switch (profile.dialect) {
    case Dialect::Sqlite: {
        const QFileInfo file(profile.path);
        if (mode == OpenMode::ExistingOnly) {
            if (!file.isFile())
                return makeError(
                    ErrorCode::Unavailable,
                    QStringLiteral("%1: database file not found: %2").arg(role, profile.path),
                    QStringLiteral("database_missing"));
            // mode=rw: SQLite itself refuses to create the file, even if it vanished since
            // the check above (a plain path would be opened with SQLITE_OPEN_CREATE).
            db.setDatabaseName(
                QUrl::fromLocalFile(file.absoluteFilePath()).toString(QUrl::FullyEncoded) +
                QStringLiteral("?mode=rw"));
            addOption(QStringLiteral("QSQLITE_OPEN_URI"));
        } else {
            const QString dir = file.absolutePath();
            if (!QDir().mkpath(dir))
                return makeError(ErrorCode::Unavailable,
                                 QStringLiteral("%1: cannot create directory %2").arg(role, dir));
            db.setDatabaseName(profile.path);
        }
        addOption(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
        break;
    }
    case Dialect::Postgres:
    case Dialect::MySql:
        // Each default only where the profile's options set none: the last of two settings
        // wins, so appending it would override `options = connect_timeout=N`.
        for (const auto &[key, value] : livenessDefaults(profile.dialect, mode))
            if (!setsOption(profile.options, key))
                addOption(key + u'=' + value);
        break;
    }
    if (profile.dialect != Dialect::Sqlite) {
        db.setHostName(profile.host);
        db.setPort(profile.port);
        db.setDatabaseName(profile.database);
        db.setUserName(profile.user);
        db.setPassword(profile.password);
    }
    db.setConnectOptions(options);

    if (!db.open()) {
        // The drivers' words name the user, host and database, never the password.
        const QSqlError error = db.lastError();
        const QString why = error.text().simplified();
        spdlog::warn("cannot open {} database ({}): {}", role.toStdString(),
                     profile.describe().toStdString(), why.toStdString());
        if (isRefusedLogin(profile.dialect, error))
            return makeError(ErrorCode::Unavailable,
                             QStringLiteral("%1: the server refused the login to %2 (check the "
                                            "user, its password and the database name): %3")
                                 .arg(role, profile.describe(), why),
                             QStringLiteral("login_refused"));
        return makeError(
            ErrorCode::Unavailable,
            QStringLiteral("%1: cannot connect to %2: %3").arg(role, profile.describe(), why));
    }

    QStringList session;
    switch (profile.dialect) {
    case Dialect::Sqlite:
        // WAL for concurrent readers; FULL so that an acknowledged commit survives power loss.
        session << QStringLiteral("PRAGMA journal_mode=WAL")
                << (profile.relaxedDurability ? QStringLiteral("PRAGMA synchronous=NORMAL")
                                              : QStringLiteral("PRAGMA synchronous=FULL"))
                << QStringLiteral("PRAGMA foreign_keys=ON");
        break;
    case Dialect::Postgres:
        session << QStringLiteral("SET TIME ZONE 'UTC'")
                << QStringLiteral("SET client_min_messages TO WARNING");
        break;
    case Dialect::MySql:
        session << QStringLiteral("SET NAMES utf8mb4 COLLATE utf8mb4_bin")
                << QStringLiteral("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,"
                                  "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,ANSI_QUOTES'")
                << QStringLiteral("SET SESSION time_zone = '+00:00'")
                << QStringLiteral("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
        break;
    }
    {
        // None of these waits for a lock or works for long, whoever opens the link: a
        // PostgreSQL server that accepted it and then went silent ends them within the watch's
        // limit (a lost connection, Unavailable) instead of holding the opening thread for ever.
        const ServerSilenceWatch::Scope watched(
            c, QStringLiteral("session set-up of the %1 database (%2)").arg(role, purpose));
        for (const QString &statement : std::as_const(session)) {
            // Classified as any statement: a lost link or a busy database is Unavailable, a file
            // that is no database (SQLite opens lazily; the first statement finds out) Internal.
            if (auto r = Sql::exec(db, statement); !r)
                return makeError(r.error().code, role + QStringLiteral(": ") + r.error().message,
                                 r.error().reason);
        }
    }
    return c;
}

bool Connection::isRefusedLogin(Dialect dialect, const QSqlError &error)
{
    switch (dialect) {
    case Dialect::Sqlite: return false;
    case Dialect::MySql: {
        // The server's own error numbers (QMYSQL passes mysql_errno on): 1044 access denied
        // to the database, 1045 access denied (wrong user or password, or no account for this
        // host), 1049 unknown database, 1698 access denied (an account that signs in through
        // another plug-in, unix_socket), 4151 the account is locked (MariaDB). Not 1040/1203/
        // 1226 (too many connections: they free up), nor 1130 (host not allowed: also what a
        // failing reverse DNS lookup gives a host-named account, which passes). 1045 is also
        // what an account signing in through PAM or LDAP gets while that service is down: the
        // README asks for accounts that sign in with a password of their own.
        static const QStringList refused = {QStringLiteral("1044"), QStringLiteral("1045"),
                                            QStringLiteral("1049"), QStringLiteral("1698"),
                                            QStringLiteral("4151")};
        return refused.contains(error.nativeErrorCode());
    }
    case Dialect::Postgres: {
        // QPSQL gives no SQLSTATE at connect, only libpq's text: the server's FATAL message
        // (in the server's language, lc_messages) or libpq's own (in this process's locale).
        // Matched narrowly, in English; what is not recognised here — another language
        // included — stays an outage and keeps being retried. "the database system is starting up",
        // "is shutting down", "is in recovery mode", "sorry, too many clients already", "remaining
        // connection slots are reserved", "too many connections for role" are not refusals.
        // Authentication that failed on what the profile says (a password — md5 and scram
        // too —, the OS user for peer, a certificate); not where the server asks another service
        // (LDAP, RADIUS, PAM, ident, GSSAPI, SSPI, BSD): the server says the same when that
        // service is down, which passes.
        static const QRegularExpression refused(
            QStringLiteral("FATAL:\\s+(?:(?:password|Peer|certificate) authentication failed for"
                           " user \""
                           "|no pg_hba\\.conf entry for "
                           "|pg_hba\\.conf rejects connection for "
                           "|role \"[^\"]*\" does not exist"
                           "|role \"[^\"]*\" is not permitted to log in"
                           "|database \"[^\"]*\" does not exist"
                           "|permission denied for database \")"
                           "|fe_sendauth: no password supplied"));
        return refused.match(error.databaseText()).hasMatch();
    }
    }
    return false;
}

Result<void> Connection::reconnect()
{
    auto fresh = open(m_profile, m_purpose, m_mode);
    if (!fresh)
        return fresh.error();
    *this = std::move(fresh).value(); // closes and removes the old link
    spdlog::info("reconnected to the {} database ({})", roleName(m_profile.role).toStdString(),
                 m_profile.describe().toStdString());
    return {};
}

KeptQuery::KeptQuery(QSqlQuery *kept, bool *inUse)
    : m_query(kept)
    , m_inUse(inUse)
{
    *m_inUse = true;
}

KeptQuery::KeptQuery(std::unique_ptr<QSqlQuery> own)
    : m_own(std::move(own))
    , m_query(m_own.get())
{}

KeptQuery::KeptQuery(KeptQuery &&other) noexcept
    : m_own(std::move(other.m_own))
    , m_query(std::exchange(other.m_query, nullptr))
    , m_inUse(std::exchange(other.m_inUse, nullptr))
{}

KeptQuery::~KeptQuery()
{
    if (m_query)
        m_query->finish();
    if (m_inUse)
        *m_inUse = false;
}

Result<KeptQuery> Connection::queryKept(const QString &sql, const QVariantList &binds) const
{
    const QSqlDatabase database = db();
    if (!database.isOpen())
        return makeError(ErrorCode::Unavailable, QStringLiteral("database connection is closed"));
    const ServerSilenceWatch::Wait waiting(database); // watched only within a scope
    auto prepared = [&](QSqlQuery &q) -> Result<void> {
        q.setForwardOnly(true);
        if (!q.prepare(sql))
            return Sql::classify(q.lastError(), sql.simplified().left(80));
        return {};
    };
    auto run = [&](QSqlQuery &q) -> Result<void> {
        for (int i = 0; i < binds.size(); ++i)
            q.bindValue(i, binds[i]);
        if (!q.exec())
            return Sql::classify(q.lastError(), sql.simplified().left(80));
        return {};
    };
    auto it = m_kept.find(sql);
    if (it != m_kept.end() && it->second.inUse) {
        auto once = std::make_unique<QSqlQuery>(database);
        if (auto r = prepared(*once); !r)
            return r.error();
        if (auto r = run(*once); !r)
            return r.error();
        return KeptQuery(std::move(once));
    }
    if (it == m_kept.end()) {
        if (m_kept.size() >= kMaxKept) // statements built from data would be a bug; stay bounded
            std::erase_if(m_kept, [](const auto &k) { return !k.second.inUse; });
        auto q = std::make_unique<QSqlQuery>(database);
        if (auto r = prepared(*q); !r)
            return r.error();
        it = m_kept.emplace(sql, Kept{std::move(q), false}).first;
    }
    if (auto r = run(*it->second.query); !r) {
        m_kept.erase(it); // prepared on a link that broke, or never valid: start again
        return r.error();
    }
    return KeptQuery(it->second.query.get(), &it->second.inUse);
}

Result<int> Connection::execKept(const QString &sql, const QVariantList &binds) const
{
    auto q = queryKept(sql, binds);
    if (!q)
        return q.error();
    return (*q)->numRowsAffected();
}

bool Connection::ping() const
{
    return Sql::scalar(db(), QStringLiteral("SELECT 1")).ok();
}

QString Connection::serverVersion() const
{
    QString sql;
    switch (m_profile.dialect) {
    case Dialect::Sqlite: sql = QStringLiteral("SELECT 'SQLite ' || sqlite_version()"); break;
    case Dialect::Postgres: sql = QStringLiteral("SELECT version()"); break;
    case Dialect::MySql: sql = QStringLiteral("SELECT CONCAT('MySQL/MariaDB ', VERSION())"); break;
    }
    auto q = Sql::exec(db(), sql);
    if (!q || !q->next())
        return QStringLiteral("unknown");
    return q->value(0).toString().section(u',', 0, 0);
}

} // namespace OncePay
