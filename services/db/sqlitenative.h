#pragma once

// Bulk paths on SQLite (audit export and verification, reconciliation, statement import) read
// and write through SQLite's C API on the QSQLITE driver's own handle, skipping QVariant
// boxing per value. Same connection, same transaction, same durability settings; other
// drivers keep the QtSql path (handle() returns nullptr for them).
// Thread contract: the connection's thread.

#include "core/result.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <QStringView>
#include <QVariantList>

#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace OncePay::SqliteNative {

// The sqlite3 handle under a QSQLITE connection; nullptr for any other driver.
sqlite3 *handle(const QSqlDatabase &db);

// One prepared statement: bind (1-based, as SQLite counts), step, read columns, reset.
class Statement {
public:
    Statement() = default;
    ~Statement();
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    Result<void> prepare(sqlite3 *db, const QByteArray &sql);
    void bind(int index, qint64 value);
    void bind(int index, const QByteArray &utf8); // text, copied by SQLite
    // Text encoded to UTF-8 into a buffer the statement keeps for this parameter (reused from
    // row to row, no allocation once it is large enough); valid until the next bind of `index`.
    void bindText(int index, QStringView text);
    void bindNull(int index);
    void bindAll(const QVariantList &values); // integers as integers, null as NULL, else text

    // true: a row is there; false: done. Errors come back as Internal/Unavailable.
    Result<bool> step();
    Result<void> exec(); // step until done (for INSERT/UPDATE)
    void reset();        // ready to bind and step again

    bool isNull(int column) const;
    qint64 int64(int column) const;
    // Pointer and length into SQLite's buffer, valid until the next step/reset.
    const char *text(int column, int *size) const;
    QString string(int column) const;

private:
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
    std::vector<QByteArray> m_text; // bindText's buffers, by parameter index
};

} // namespace OncePay::SqliteNative
