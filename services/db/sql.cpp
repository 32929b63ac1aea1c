#include "sql.h"

#include "serversilence.h"

#include <QSqlDriver>
#include <QSqlError>

#include <algorithm>
#include <cmath>
#include <limits>

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
    // libpq over TLS says the link ended in OpenSSL's words.
    return text.contains(QStringLiteral("server closed the connection")) ||
           text.contains(QStringLiteral("no connection to the server")) ||
           text.contains(QStringLiteral("SSL SYSCALL error")) ||
           text.contains(QStringLiteral("SSL connection has been closed unexpectedly")) ||
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

bool isReadOnly(const QSqlError &error)
{
    const QString native = error.nativeErrorCode();
    // PostgreSQL 25006 read_only_sql_transaction: a session or server set read-only
    // (default_transaction_read_only, a fenced primary) or a hot standby. MySQL/MariaDB 1792
    // (a READ ONLY transaction), 1836 (read-only mode) and 1290 when the option that prevents
    // the statement is --read-only (1290 also names other options: those are not read-only).
    // SQLite 8 (SQLITE_READONLY: PRAGMA query_only, a file that cannot be written).
    if (native == u"25006" || native == u"1792" || native == u"1836" || native == u"8")
        return true;
    const QString text = error.databaseText();
    if (native == u"1290")
        return text.contains(QStringLiteral("read-only"), Qt::CaseInsensitive) ||
               text.contains(QStringLiteral("read_only"), Qt::CaseInsensitive);
    return text.contains(QStringLiteral("in a read-only transaction")) ||
           text.contains(QStringLiteral("attempt to write a readonly database"));
}

bool isUniqueViolation(const QSqlError &error)
{
    const QString native = error.nativeErrorCode();
    if (native == u"23505" || native == u"1062" || native == u"2067" || native == u"1555")
        return true;
    // Qt's SQLite driver may report the primary result code (19) only.
    return native == u"19" && error.databaseText().contains(QStringLiteral("UNIQUE"));
}

// PostgreSQL's own refusal of a privilege: 42501 with its words "permission denied for …"
// (our triggers raise 42501 too, with words of their own: see isRuleViolation).
bool isPostgresPermissionDenied(const QSqlError &error)
{
    return error.nativeErrorCode() == u"42501" &&
           error.databaseText().contains(QStringLiteral("permission denied for"));
}

bool isRuleViolation(const QSqlError &error)
{
    // A trigger refused the change: PostgreSQL RAISE ... insufficient_privilege, MySQL
    // SIGNAL SQLSTATE '45000' (1644), SQLite RAISE(ABORT) (SQLITE_CONSTRAINT_TRIGGER, 1811).
    const QString native = error.nativeErrorCode();
    if (isPostgresPermissionDenied(error))
        return false;
    if (native == u"42501" || native == u"1644" || native == u"1811")
        return true;
    return native == u"19" && !error.databaseText().contains(QStringLiteral("UNIQUE")) &&
           !error.databaseText().contains(QStringLiteral("constraint failed"));
}

bool isPermissionDenied(const QSqlError &error)
{
    // MySQL/MariaDB: SELECT/INSERT/... command denied for a table (1142) or a column (1143), a
    // privilege the statement needs (1227). PostgreSQL: 42501 "permission denied for …"
    // (the same code with a trigger's own words is a rule: isRuleViolation).
    const QString native = error.nativeErrorCode();
    return native == u"1142" || native == u"1143" || native == u"1227" ||
           isPostgresPermissionDenied(error);
}

Error classify(const QSqlError &error, const QString &context)
{
    const QString text = context + QStringLiteral(": ") + error.text().simplified();
    if (isUniqueViolation(error))
        return makeError(ErrorCode::Conflict, text);
    if (isRuleViolation(error))
        return makeError(ErrorCode::Forbidden, text, QStringLiteral("database_rule"));
    if (isPermissionDenied(error))
        return makeError(ErrorCode::Forbidden, text, QStringLiteral("permission_denied"));
    if (isReadOnly(error))
        return makeError(ErrorCode::Unavailable, text, QStringLiteral("read_only"));
    if (isConnectionError(error))
        return makeError(ErrorCode::Unavailable, text);
    if (isBusy(error))
        return makeError(ErrorCode::Unavailable, text);
    return makeError(ErrorCode::Internal, text);
}

Result<QSqlQuery> exec(const QSqlDatabase &db, const QString &sql, const QVariantList &binds,
                       Decimals decimals)
{
    if (!db.isOpen())
        return makeError(ErrorCode::Unavailable, QStringLiteral("database connection is closed"));
    const ServerSilenceWatch::Wait waiting(db); // watched only within a scope
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // The query's own policy, set before it runs: the connection's is left alone.
    if (decimals == Decimals::Exact)
        q.setNumericalPrecisionPolicy(QSql::HighPrecision);
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

Result<QVariant> scalar(const QSqlDatabase &db, const QString &sql, const QVariantList &binds,
                        Decimals decimals)
{
    auto q = exec(db, sql, binds, decimals);
    if (!q)
        return q.error();
    if (!q->next()) {
        // A row that fails as it is read (SQLite's SUM past 64 bits) is an error, not "no row".
        if (q->lastError().isValid())
            return classify(q->lastError(), sql.simplified().left(80));
        return QVariant();
    }
    return q->value(0);
}

Result<qint64> exactInteger(const QVariant &value, const QString &what)
{
    const auto notInteger = [&what](const QString &shown) {
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("%1: %2 is not a whole number").arg(what, shown),
                         QStringLiteral("not_an_integer"));
    };
    const auto overflow = [&what](const QString &shown) {
        return makeError(ErrorCode::TooLarge,
                         QStringLiteral("%1: %2 does not fit in 64 bits").arg(what, shown),
                         QStringLiteral("integer_overflow"));
    };
    if (value.isNull())
        return notInteger(QStringLiteral("NULL"));
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::Long:
    case QMetaType::LongLong:
    case QMetaType::Short: return value.toLongLong();
    case QMetaType::UInt:
    case QMetaType::ULong:
    case QMetaType::ULongLong:
    case QMetaType::UShort: {
        const qulonglong u = value.toULongLong();
        if (u > qulonglong(std::numeric_limits<qint64>::max()))
            return overflow(QString::number(u));
        return qint64(u);
    }
    case QMetaType::Double:
    case QMetaType::Float: {
        // Whole doubles up to 2^53 are exact; past it a decimal read as a double may already
        // have been rounded, so it is refused rather than trusted.
        constexpr double kExactLimit = 9007199254740992.0; // 2^53
        const double d = value.toDouble();
        const QString shown = QString::number(d, 'g', 17);
        if (!std::isfinite(d) || std::trunc(d) != d)
            return notInteger(shown);
        if (std::fabs(d) > kExactLimit)
            return makeError(ErrorCode::Internal,
                             QStringLiteral("%1: %2 was read as a double, past 2^53 it may be "
                                            "rounded (read it with Decimals::Exact)")
                                 .arg(what, shown),
                             QStringLiteral("inexact_double"));
        return qint64(d);
    }
    case QMetaType::QString:
    case QMetaType::QByteArray: break;
    default: return notInteger(value.toString());
    }
    // A decimal's exact text: [sign] digits [. digits], as PostgreSQL and MariaDB write it.
    const QString text = value.toString().trimmed();
    const qsizetype dot = text.indexOf(u'.');
    const QStringView whole = QStringView(text).left(dot < 0 ? text.size() : dot);
    const QStringView fraction = dot < 0 ? QStringView() : QStringView(text).mid(dot + 1);
    const QStringView digits =
        whole.startsWith(u'-') || whole.startsWith(u'+') ? whole.mid(1) : whole;
    const auto allDigits = [](QStringView s) {
        return std::all_of(s.begin(), s.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    };
    if (digits.isEmpty() || !allDigits(digits) || !allDigits(fraction))
        return notInteger(text);
    if (std::any_of(fraction.begin(), fraction.end(), [](QChar c) { return c != u'0'; }))
        return notInteger(text);
    bool fits = false;
    const qint64 n = whole.toLongLong(&fits); // refuses, never wraps, past 64 bits
    if (!fits)
        return overflow(text);
    return n;
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
