#pragma once

// Prepared statements kept for the connections of the calling thread, by connection and
// statement text. The console's pool threads keep one connection each for all their tasks
// (views/common/backgroundquery.h), so a read the console repeats — the search box's one
// statement — is bound and run again instead of parsed and planned again: on SQLite with
// 1,000,000 orders the search statement takes ~175 µs to prepare and ~25 µs to run.
// A kept statement is prepared again when its connection's driver is gone or replaced (the
// connection closed, reopened, reconnected) or when running it failed.
// Thread contract: the connection's thread. A Lease is used and dropped on that thread;
// while one is held, the same statement asked for again gets a fresh, unkept query.

#include "core/result.h"
#include "db/connection.h"

#include <QSqlQuery>
#include <QVariantList>

#include <optional>

namespace OncePay::PreparedStatements {

// A query ready for next()/value(); finish()ed when the lease goes, so SQLite ends the
// read transaction and the statement can be run again.
class Lease {
public:
    Lease(QSqlQuery *kept, bool *inUse);
    explicit Lease(QSqlQuery &&own);
    Lease(Lease &&other) noexcept;
    Lease &operator=(Lease &&) = delete;
    Lease(const Lease &) = delete;
    Lease &operator=(const Lease &) = delete;
    ~Lease();

    QSqlQuery *operator->() const { return m_query; }
    QSqlQuery &operator*() const { return *m_query; }

private:
    std::optional<QSqlQuery> m_own;
    QSqlQuery *m_query = nullptr;
    bool *m_inUse = nullptr;
};

// Binds `binds` positionally and runs the kept statement for `sql` on `connection`,
// preparing it first when needed. Errors are classified like Sql::exec.
Result<Lease> exec(const Connection &connection, const QString &sql, const QVariantList &binds);

// How many statements the calling thread keeps (for tests).
int keptCount();

} // namespace OncePay::PreparedStatements
