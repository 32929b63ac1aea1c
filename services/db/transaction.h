#pragma once

// Scope guard for one write transaction (STYLE.md rule 5): begin in the constructor's
// companion `begin()`, commit explicitly, roll back on every other path.
// Thread contract: same thread as the connection.

#include "config/connectionprofile.h"
#include "core/result.h"

#include <QSqlDatabase>

namespace OncePay {

class Transaction {
public:
    enum class Mode {
        Deferred,  // plain BEGIN
        Immediate, // SQLite: take the write lock now (BEGIN IMMEDIATE); same as Deferred elsewhere
    };

    explicit Transaction(QSqlDatabase db, Mode mode = Mode::Deferred);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    Result<void> begin();
    Result<void> commit();
    void rollback();
    bool active() const { return m_active; }

private:
    QSqlDatabase m_db;
    Mode m_mode;
    bool m_active = false;
};

} // namespace OncePay

namespace OncePay {

// Runs `fn` inside one transaction: commits when it returns a value, rolls back on an error
// (or if the commit itself fails). `fn` returns Result<T>.
template <typename Fn>
auto inTransaction(const QSqlDatabase &db, Transaction::Mode mode, Fn &&fn) -> decltype(fn())
{
    Transaction tx(db, mode);
    if (auto b = tx.begin(); !b)
        return b.error();
    auto result = fn();
    if (!result)
        return result; // the guard rolls back
    if (auto c = tx.commit(); !c)
        return c.error();
    return result;
}

} // namespace OncePay
