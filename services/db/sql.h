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

// Prepares, binds positionally (`?`) and executes. Forward-only.
Result<QSqlQuery> exec(const QSqlDatabase &db, const QString &sql, const QVariantList &binds = {});

// Executes and returns the number of rows affected.
Result<int> update(const QSqlDatabase &db, const QString &sql, const QVariantList &binds = {});

// First column of the first row, or a null QVariant when there is no row.
Result<QVariant> scalar(const QSqlDatabase &db, const QString &sql, const QVariantList &binds = {});

// Inserts and returns the generated id (RETURNING on PostgreSQL, lastInsertId elsewhere).
Result<qint64> insert(const QSqlDatabase &db, Dialect dialect, const QString &sql,
                      const QVariantList &binds = {});

// Maps a QSqlError to an Error: unique violation -> Conflict, lost connection -> Unavailable.
Error classify(const QSqlError &error, const QString &context);

bool isUniqueViolation(const QSqlError &error);
// A database trigger or rule refused the change (append-only tables, maker-checker).
bool isRuleViolation(const QSqlError &error);

Dialect dialectOf(const QSqlDatabase &db);

// A SQL NULL of the given type (QVariant() binds as NULL on every driver we use).
inline QVariant nullIfEmpty(const QString &s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

} // namespace OncePay::Sql
