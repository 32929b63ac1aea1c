#pragma once

// Thin helpers over QSqlQuery that return Result<> and classify driver errors the same way
// on SQLite, PostgreSQL and MySQL (a unique violation is a Conflict everywhere).
// Thread contract: call on the thread that owns the QSqlDatabase.

#include "config/connectionprofile.h"
#include "core/result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariant>

namespace OncePay::Sql {

// How a statement's DECIMAL/NUMERIC columns are read. PostgreSQL's and MariaDB's SUM of a BIGINT
// is a decimal, which their drivers hand out as a double by default: past 2^53 silently rounded.
// Exact reads them as exact text (QSql::HighPrecision) for that one statement; turn each value
// into an integer with exactInteger(). Integer and SQLite columns are read the same either way.
enum class Decimals { AsDouble, Exact };

// Prepares, binds positionally (`?`) and executes. Forward-only.
Result<QSqlQuery> exec(const QSqlDatabase &db, const QString &sql, const QVariantList &binds = {},
                       Decimals decimals = Decimals::AsDouble);

// Executes and returns the number of rows affected.
Result<int> update(const QSqlDatabase &db, const QString &sql, const QVariantList &binds = {});

// First column of the first row, or a null QVariant when there is no row (a row that fails as
// it is read is an error).
Result<QVariant> scalar(const QSqlDatabase &db, const QString &sql, const QVariantList &binds = {},
                        Decimals decimals = Decimals::AsDouble);

// A server-side sum or count (read with Decimals::Exact) as an exact 64-bit integer: an integer,
// a decimal's text with no fraction ("12" or "12.000"), or a double that is whole and at most
// 2^53 (SQLite's TOTAL/AVG; larger doubles may already be rounded). Never wraps or rounds:
//   a fraction -> Invalid, reason "not_an_integer";
//   outside 64 bits -> TooLarge, reason "integer_overflow";
//   a double past 2^53 (a decimal read without Decimals::Exact) -> Internal, "inexact_double";
//   NULL or anything else -> Invalid, reason "not_an_integer".
// `what` names the value in the error message ("ledger sum of ord-1").
Result<qint64> exactInteger(const QVariant &value, const QString &what);

// Inserts and returns the generated id (RETURNING on PostgreSQL, lastInsertId elsewhere).
Result<qint64> insert(const QSqlDatabase &db, Dialect dialect, const QString &sql,
                      const QVariantList &binds = {});

// Maps a QSqlError to an Error: unique violation -> Conflict, lost connection -> Unavailable,
// a server or session that refuses to write (isReadOnly) -> Unavailable, reason "read_only";
// a trigger's refusal (isRuleViolation) -> Forbidden, reason "database_rule"; a login's missing
// privilege (isPermissionDenied: MySQL/MariaDB 1142/1143/1227, PostgreSQL 42501 in its own
// words "permission denied for …" — our triggers raise 42501 with theirs) -> Forbidden,
// reason "permission_denied".
Error classify(const QSqlError &error, const QString &context);

// The database refused a write because it is read-only: a fenced or demoted primary after a
// failover, a standby, a read-only session or transaction (PostgreSQL 25006; MySQL/MariaDB
// 1792, 1836, 1290 for --read-only; SQLite SQLITE_READONLY). Waiting on the same connection
// does not cure it — it answers SELECT 1 — reconnecting may (to the new primary).
bool isReadOnly(const QSqlError &error);

bool isUniqueViolation(const QSqlError &error);
// A database trigger or rule refused the change (append-only tables, maker-checker).
bool isRuleViolation(const QSqlError &error);
bool isPermissionDenied(const QSqlError &error);

Dialect dialectOf(const QSqlDatabase &db);

// A SQL NULL of the given type (QVariant() binds as NULL on every driver we use).
inline QVariant nullIfEmpty(const QString &s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

} // namespace OncePay::Sql
