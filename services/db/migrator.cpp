#include "migrator.h"

#include "core/clock.h"
#include "migrationlockwait.h"
#include "sql.h"
#include "transaction.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>

namespace OncePay {

namespace {

const QString kVersionTable = QStringLiteral("CREATE TABLE IF NOT EXISTS schema_version ("
                                             " version INTEGER PRIMARY KEY,"
                                             " name VARCHAR(191) NOT NULL,"
                                             " checksum VARCHAR(64) NOT NULL,"
                                             " applied_at BIGINT NOT NULL)");

QByteArray readResource(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

Result<bool> hasTable(const Connection &c, const QString &table)
{
    QString sql;
    switch (c.dialect()) {
    case Dialect::Sqlite:
        sql = QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name=?");
        break;
    case Dialect::Postgres:
        sql = QStringLiteral("SELECT COUNT(*) FROM information_schema.tables WHERE "
                             "table_schema = current_schema() AND table_name = ?");
        break;
    case Dialect::MySql:
        sql = QStringLiteral("SELECT COUNT(*) FROM information_schema.tables WHERE "
                             "table_schema = DATABASE() AND table_name = ?");
        break;
    }
    auto n = Sql::scalar(c.db(), sql, {table});
    if (!n)
        return n.error();
    return n->toInt() > 0;
}

Result<bool> hasVersionTable(const Connection &c)
{
    return hasTable(c, QStringLiteral("schema_version"));
}

// The table only each schema has (migrations 0001 of orders and of audit).
QString markerTable(const QString &schema)
{
    return schema == u"audit" ? QStringLiteral("audit_log") : QStringLiteral("orders");
}

// Serialises concurrent migrators across processes for the lifetime of the transaction
// (PostgreSQL) or until released (MySQL). SQLite's BEGIN IMMEDIATE already is the lock.
Result<void> takeMigrationLock(const Connection &c)
{
    if (c.dialect() == Dialect::Postgres)
        return Sql::exec(c.db(), QStringLiteral("SELECT pg_advisory_xact_lock(4242000001)")).ok()
                   ? Result<void>()
                   : Result<void>(
                         makeError(ErrorCode::Unavailable, QStringLiteral("migration lock")));
    if (c.dialect() == Dialect::MySql) {
        auto got = Sql::scalar(c.db(), QStringLiteral("SELECT GET_LOCK('oncepay_migrate', 60)"));
        if (!got || got->toInt() != 1)
            return makeError(ErrorCode::Unavailable,
                             QStringLiteral("another process holds the migration lock"));
    }
    return {};
}

void releaseMigrationLock(const Connection &c)
{
    if (c.dialect() == Dialect::MySql)
        (void)Sql::exec(c.db(), QStringLiteral("SELECT RELEASE_LOCK('oncepay_migrate')"));
}

std::atomic<qint64> g_lockWaitMs{Migrator::kDefaultLockWait.count()};
std::atomic<qint64> g_lockWaitPauseMs{Migrator::kDefaultLockWaitPause.count()};

// "1.5", "10": a bound or a pause as people read it, in seconds.
QString seconds(std::chrono::milliseconds ms)
{
    return ms.count() % 1000 == 0 ? QString::number(ms.count() / 1000)
                                  : QString::number(double(ms.count()) / 1000.0, 'f', 1);
}

QString clockTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

// A migration of this database stopped on the lock-wait bound a moment ago, in this process:
// refused without touching the database until the pause is over (migrationlockwait.h).
std::optional<Error> pausedAfterLockWait(const QString &role, const QString &database)
{
    const auto pause = Internal::lockWaitPause(database);
    if (!pause)
        return std::nullopt;
    return makeError(
        ErrorCode::Unavailable,
        QStringLiteral("%1: not migrating now: migration %2 stopped at %3 waiting"
                       " for a lock another session holds; this process tries again"
                       " from %4 (oncepay db migrate runs it at once)")
            .arg(role, pause->migration, clockTime(pause->stoppedAtMs), clockTime(pause->untilMs)),
        QStringLiteral("migration_lock_wait"));
}

} // namespace

QString Migrator::schemaFor(DbRole role)
{
    return role == DbRole::Audit ? QStringLiteral("audit") : QStringLiteral("orders");
}

QList<Migration> Migrator::available(const QString &schema, Dialect dialect)
{
    static const QRegularExpression nameRe(QStringLiteral(R"(^(\d{4})_([a-z0-9_]+)\.sql$)"));
    QList<Migration> out;
    const QString dir = QStringLiteral(":/migrations/%1/%2").arg(schema, dialectName(dialect));
    QDirIterator it(dir, {QStringLiteral("*.sql")}, QDir::Files);
    while (it.hasNext()) {
        it.next();
        const auto m = nameRe.match(it.fileName());
        if (!m.hasMatch())
            continue;
        out.append({m.captured(1).toInt(), m.captured(1) + u'_' + m.captured(2), it.filePath()});
    }
    std::sort(out.begin(), out.end(),
              [](const Migration &a, const Migration &b) { return a.version < b.version; });
    return out;
}

int Migrator::latestVersion(const QString &schema, Dialect dialect)
{
    const auto all = available(schema, dialect);
    return all.isEmpty() ? 0 : all.last().version;
}

QStringList Migrator::splitStatements(const QString &script)
{
    QStringList out;
    static const QRegularExpression sep(QStringLiteral(R"(^\s*--\s*@@\s*$)"),
                                        QRegularExpression::MultilineOption);
    for (const QString &chunk : script.split(sep)) {
        // Drop comment-only lines so that an all-comment chunk is not sent to the server.
        QStringList lines;
        for (const QString &line : chunk.split(u'\n'))
            if (!line.trimmed().startsWith(QStringLiteral("--")))
                lines << line;
        const QString statement = lines.join(u'\n').trimmed();
        if (!statement.isEmpty())
            out << statement;
    }
    return out;
}

Result<void> Migrator::checkSchemaIdentity(const Connection &c)
{
    const QString expected = schemaFor(c.profile().role);
    const QString other = expected == u"audit" ? QStringLiteral("orders") : QStringLiteral("audit");
    auto own = hasTable(c, markerTable(expected));
    if (!own)
        return own.error();
    if (*own)
        return {};
    auto foreign = hasTable(c, markerTable(other));
    if (!foreign)
        return foreign.error();
    // The profile to check: a messages profile reads the orders schema.
    const QString profileName =
        roleName(c.profile().role == DbRole::Messages ? DbRole::Orders : c.profile().role);
    if (*foreign)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("this is an %1 database, not an %2 database: check the %3 "
                                        "connection profile")
                             .arg(other, expected, profileName),
                         QStringLiteral("wrong_schema"));
    return {};
}

Result<int> Migrator::currentVersion(const Connection &c)
{
    auto has = hasVersionTable(c);
    if (!has)
        return has.error();
    if (!*has)
        return 0;
    auto v =
        Sql::scalar(c.db(), QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_version"));
    if (!v)
        return v.error();
    return v->toInt();
}

Result<MigrationReport> Migrator::migrate(const Connection &c)
{
    const QString schema = schemaFor(c.profile().role);
    const QString role = roleName(c.profile().role);
    const auto migrations = available(schema, c.dialect());
    const int latest = migrations.isEmpty() ? 0 : migrations.last().version;

    MigrationReport report;
    // Swapped profiles: the other schema's version means nothing here, and its migrations
    // must not run on this database.
    if (auto r = checkSchemaIdentity(c); !r)
        return makeError(
            r.error().code,
            QStringLiteral("%1: %2; nothing was migrated").arg(role, r.error().message),
            r.error().reason);
    auto before = currentVersion(c); // 0 without a schema_version table
    if (!before)
        return before.error();
    report.before = report.after = *before;
    if (*before > latest)
        return makeError(ErrorCode::Newer,
                         QStringLiteral("%1: database schema version %2 is newer than this "
                                        "program knows (%3); upgrade OncePay before using it")
                             .arg(role)
                             .arg(*before)
                             .arg(latest));
    // Up to date: nothing is created, so a least-privilege role without CREATE (the engine,
    // the console) opens a current database without error.
    if (*before == latest)
        return report;

    const QString database = c.profile().describe();
    if (auto paused = pausedAfterLockWait(role, database))
        return *paused;

    if (auto r = Sql::exec(c.db(), kVersionTable); !r)
        return makeError(r.error().code, role + QStringLiteral(": ") + r.error().message,
                         r.error().reason);

    const bool transactionalDdl = c.dialect() != Dialect::MySql;
    for (const Migration &m : migrations) {
        if (m.version <= report.after)
            continue;
        const QByteArray script = readResource(m.resourcePath);
        const QString checksum = QString::fromLatin1(
            QCryptographicHash::hash(script, QCryptographicHash::Sha256).toHex());

        Transaction tx(c.db(), Transaction::Mode::Immediate);
        if (transactionalDdl) {
            if (auto r = tx.begin(); !r)
                return r.error();
        }
        if (auto r = takeMigrationLock(c); !r)
            return r.error();
        // Someone else may have applied it while we waited for the lock.
        auto now = currentVersion(c);
        if (!now) {
            releaseMigrationLock(c);
            return now.error();
        }
        if (*now >= m.version) {
            releaseMigrationLock(c);
            report.after = *now;
            continue;
        }
        if (auto paused = pausedAfterLockWait(role, database)) {
            releaseMigrationLock(c);
            return *paused; // another thread of this process stopped on it meanwhile
        }
        auto bound = Internal::LockWaitBound::set(c, lockWait());
        if (!bound) {
            releaseMigrationLock(c);
            return bound.error();
        }
        // A statement that failed, the version's insert included (on PostgreSQL it too can
        // wait behind a session holding schema_version): the migration stops, bound restored
        // and lock released — as a lock wait that pauses this process's migrations of the
        // database, or as a failure.
        const auto stopped = [&](const QSqlError &failed, const QString &statement) {
            bound->restore();
            releaseMigrationLock(c);
            if (Internal::waitedForLock(failed)) {
                Internal::pauseAfterLockWait(database, m.name, lockWaitPause());
                const QString message =
                    QStringLiteral("%1: migration %2 waited %3 s for a lock another session"
                                   " holds on a table it uses or rows it changed (a long"
                                   " transaction, or a statement still running) and stopped; %4."
                                   " This process tries again in %5 s; oncepay db migrate runs"
                                   " it at once")
                        .arg(role, m.name, seconds(bound->wait()),
                             transactionalDdl
                                 ? QStringLiteral("it was rolled back")
                                 : QStringLiteral("its statements run again from the first"),
                             seconds(lockWaitPause()));
                spdlog::error("{}", message.toStdString());
                return makeError(ErrorCode::Unavailable, message,
                                 QStringLiteral("migration_lock_wait"));
            }
            // What waiting or a person cures keeps its code and reason — a link lost or a
            // database turned read-only mid-migration (Unavailable: a worker waits for it and
            // migrates again), a missing privilege (Forbidden); anything else is Internal.
            const Error error = Sql::classify(failed, statement.simplified().left(80));
            spdlog::error("{}: migration {} failed: {}", role.toStdString(), m.name.toStdString(),
                          error.message.toStdString());
            const bool kept =
                error.code == ErrorCode::Unavailable || error.code == ErrorCode::Forbidden;
            return makeError(kept ? error.code : ErrorCode::Internal,
                             QStringLiteral("%1: migration %2 failed%3: %4")
                                 .arg(role, m.name,
                                      transactionalDdl ? QStringLiteral(" and was rolled back")
                                                       : QStringLiteral(" (re-run to complete)"),
                                      error.message),
                             kept ? error.reason : QString());
        };
        for (const QString &statement : splitStatements(QString::fromUtf8(script))) {
            QSqlQuery q(c.db());
            if (!q.exec(statement))
                return stopped(q.lastError(), statement);
        }
        const QString record = QStringLiteral("INSERT INTO schema_version (version, name,"
                                              " checksum, applied_at) VALUES (?, ?, ?, ?)");
        QSqlQuery rec(c.db());
        if (!rec.prepare(record)) // PostgreSQL locks the table as it prepares an insert
            return stopped(rec.lastError(), record);
        for (const QVariant &v : QVariantList{m.version, m.name, checksum, Clock::systemNowMs()})
            rec.addBindValue(v);
        if (!rec.exec())
            return stopped(rec.lastError(), record);
        bound->restore();
        if (transactionalDdl) {
            if (auto r = tx.commit(); !r) {
                releaseMigrationLock(c);
                return r.error();
            }
        }
        releaseMigrationLock(c);
        spdlog::info("{}: applied migration {}", role.toStdString(), m.name.toStdString());
        report.applied << m.name;
        report.after = m.version;
    }
    Internal::endLockWaitPause(database);
    return report;
}

std::chrono::milliseconds Migrator::lockWait()
{
    return std::chrono::milliseconds(g_lockWaitMs.load());
}

void Migrator::setLockWait(std::chrono::milliseconds wait)
{
    g_lockWaitMs.store(qMax<qint64>(1, wait.count()));
}

std::optional<qint64> Migrator::lockWaitPausedUntilMs(const ConnectionProfile &profile)
{
    const auto pause = Internal::lockWaitPause(profile.describe());
    return pause ? std::optional<qint64>(pause->untilMs) : std::nullopt;
}

std::chrono::milliseconds Migrator::lockWaitPause()
{
    return std::chrono::milliseconds(g_lockWaitPauseMs.load());
}

void Migrator::setLockWaitPause(std::chrono::milliseconds pause)
{
    g_lockWaitPauseMs.store(qMax<qint64>(0, pause.count()));
}

Result<Connection> openMigrated(const ConnectionProfile &profile, const QString &purpose,
                                const std::function<void()> &loggedIn)
{
    auto c = Connection::open(profile, purpose);
    if (!c)
        return c.error();
    if (loggedIn)
        loggedIn();
    auto m = Migrator::migrate(*c);
    if (!m)
        return m.error();
    return std::move(c).value();
}

} // namespace OncePay
