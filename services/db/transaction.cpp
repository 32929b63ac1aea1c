#include "transaction.h"

#include "sql.h"

#include <spdlog/spdlog.h>

namespace OncePay {

Transaction::Transaction(QSqlDatabase db, Mode mode)
    : m_db(std::move(db))
    , m_mode(mode)
{}

Transaction::~Transaction()
{
    if (m_active)
        rollback();
}

Result<void> Transaction::begin()
{
    const Dialect dialect = Sql::dialectOf(m_db);
    QString sql = QStringLiteral("BEGIN");
    if (dialect == Dialect::Sqlite && m_mode == Mode::Immediate)
        sql = QStringLiteral("BEGIN IMMEDIATE");
    else if (dialect == Dialect::MySql)
        sql = QStringLiteral("START TRANSACTION");
    if (auto r = Sql::exec(m_db, sql); !r)
        return r.error();
    m_active = true;
    return {};
}

Result<void> Transaction::commit()
{
    if (!m_active)
        return makeError(ErrorCode::Internal, QStringLiteral("commit without an open transaction"));
    auto r = Sql::exec(m_db, QStringLiteral("COMMIT"));
    if (!r) {
        rollback();
        return r.error();
    }
    m_active = false;
    return {};
}

void Transaction::rollback()
{
    if (!m_active)
        return;
    m_active = false;
    if (auto r = Sql::exec(m_db, QStringLiteral("ROLLBACK")); !r)
        spdlog::warn("rollback failed: {}", r.error().message.toStdString());
}

} // namespace OncePay
