#include "databasenow.h"

#include "db/sql.h"

#include <spdlog/spdlog.h>

namespace OncePay {

Result<qint64> databaseNowMs(const Connection &c, const Clock &local)
{
    QString sql;
    switch (c.dialect()) {
    case Dialect::Sqlite: return local.nowMs();
    case Dialect::Postgres:
        sql = QStringLiteral("SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)");
        break;
    case Dialect::MySql:
        // UNIX_TIMESTAMP of a local time reads it in the session's time zone: UTC, set when
        // the connection opened (Connection::open), so no hour is ambiguous.
        sql = QStringLiteral("SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)");
        break;
    }
    auto v = Sql::scalar(c.db(), sql);
    if (!v)
        return v.error();
    bool ok = false;
    const qint64 ms = v->toLongLong(&ok);
    if (!ok || ms <= 0) {
        spdlog::error("the database server's time could not be read: it gave '{}'",
                      v->toString().toStdString());
        return makeError(ErrorCode::Internal,
                         QStringLiteral("the database server's time could not be read (it gave"
                                        " '%1')")
                             .arg(v->toString()),
                         QStringLiteral("database_time"));
    }
    return ms;
}

} // namespace OncePay
