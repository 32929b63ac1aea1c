#include "sql.h"

#include <QSqlDriver>
#include <QSqlError>

namespace OncePay::Sql {

namespace {

bool isConnectionError(const QSqlError &error)
{
    if (error.type() == QSqlError::ConnectionError)
        return true;
    const QString native = error.nativeErrorCode();
    // PostgreSQL class 08 (connection exception), 57P0x (shutdown); MySQL 2006/2013
    // (server gone away / lost connection), 1927 (connection killed).
    if (native.startsWith(QStringLiteral("08")) || native.startsWith(QStringLiteral("57P0")) ||
        native == u"2006" || native == u"2013" || native == u"1927")
        return true;
    const QString text = error.text();
    return text.contains(QStringLiteral("server closed the connection")) ||
           text.contains(QStringLiteral("no connection to the server")) ||
           text.contains(QStringLiteral("Lost connection"));
}

bool isBusy(const QSqlError &error)
{
    const QString native = error.nativeErrorCode();
    // SQLITE_BUSY(5)/SQLITE_LOCKED(6); PostgreSQL serialization/deadlock; MySQL deadlock/lock wait.
    return native == u"5" || native == u"6" || native == u"40001" || native == u"40P01" ||
           native == u"1213" || native == u"1205";
}

} // namespace

bool isUniqueViolation(const QSqlError &error)
{
    const QString native = error.nativeErrorCode();
    if (native == u"23505" || native == u"1062" || native == u"2067" || native == u"1555")
        return true;
    // Qt's SQLite driver may report the primary result code (19) only.
    return native == u"19" && error.databaseText().contains(QStringLiteral("UNIQUE"));
}

bool isRuleViolation(const QSqlError &error)
{
    // A trigger refused the change: PostgreSQL RAISE ... insufficient_privilege, MySQL
    // SIGNAL SQLSTATE '45000' (1644), SQLite RAISE(ABORT) (SQLITE_CONSTRAINT_TRIGGER, 1811).
    const QString native = error.nativeErrorCode();
    if (native == u"42501" || native == u"1644" || native == u"1811")
        return true;
    return native == u"19" && !error.databaseText().contains(QStringLiteral("UNIQUE")) &&
           !error.databaseText().contains(QStringLiteral("constraint failed"));
}

Error classify(const QSqlError &error, const QString &context)
{
    const QString text = context + QStringLiteral(": ") + error.text().simplified();
    if (isUniqueViolation(error))
        return makeError(ErrorCode::Conflict, text);
    if (isRuleViolation(error))
        return makeError(ErrorCode::Forbidden, text, QStringLiteral("database_rule"));
    if (isConnectionError(error))
        return makeError(ErrorCode::Unavailable, text);
    if (isBusy(error))
        return makeError(ErrorCode::Unavailable, text);
    return makeError(ErrorCode::Internal, text);
}

Result<QSqlQuery> exec(const QSqlDatabase &db, const QString &sql, const QVariantList &binds)
{
    if (!db.isOpen())
        return makeError(ErrorCode::Unavailable, QStringLiteral("database connection is closed"));
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (binds.isEmpty()) {
        if (!q.exec(sql))
            return classify(q.lastError(), sql.simplified().left(80));
        return q;
    }
    if (!q.prepare(sql))
        return classify(q.lastError(), sql.simplified().left(80));
    for (const QVariant &v : binds)
        q.addBindValue(v);
    if (!q.exec())
        return classify(q.lastError(), sql.simplified().left(80));
    return q;
}

Result<int> update(const QSqlDatabase &db, const QString &sql, const QVariantList &binds)
{
    auto q = exec(db, sql, binds);
    if (!q)
        return q.error();
    return q->numRowsAffected();
}

Result<QVariant> scalar(const QSqlDatabase &db, const QString &sql, const QVariantList &binds)
{
    auto q = exec(db, sql, binds);
    if (!q)
        return q.error();
    if (!q->next())
        return QVariant();
    return q->value(0);
}

Result<qint64> insert(const QSqlDatabase &db, Dialect dialect, const QString &sql,
                      const QVariantList &binds)
{
    if (dialect == Dialect::Postgres) {
        auto q = exec(db, sql + QStringLiteral(" RETURNING id"), binds);
        if (!q)
            return q.error();
        if (!q->next())
            return makeError(ErrorCode::Internal, QStringLiteral("INSERT returned no id"));
        return q->value(0).toLongLong();
    }
    auto q = exec(db, sql, binds);
    if (!q)
        return q.error();
    return q->lastInsertId().toLongLong();
}

Dialect dialectOf(const QSqlDatabase &db)
{
    const QString d = db.driverName();
    if (d == u"QPSQL")
        return Dialect::Postgres;
    if (d == u"QMYSQL" || d == u"QMARIADB")
        return Dialect::MySql;
    return Dialect::Sqlite;
}

} // namespace OncePay::Sql
