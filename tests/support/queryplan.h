#pragma once

// How the database would run `sql` (its values written in: EXPLAIN takes no parameters), one
// line per step, for tests that check a statement reads through an index: SQLite's
// EXPLAIN QUERY PLAN detail ("SEARCH t USING INDEX i (a=?)"), PostgreSQL's EXPLAIN text, and
// MariaDB's EXPLAIN rows as "<table> <type> <key> <Extra>". Empty, with a warning, when the
// plan cannot be read.
// Thread contract: the connection's thread.

#include "config/connectionprofile.h"
#include "db/sql.h"

#include <QSqlRecord>
#include <QStringList>

namespace OncePay::Test {

inline QStringList queryPlan(const QSqlDatabase &db, Dialect dialect, const QString &sql)
{
    QStringList steps;
    auto plan = Sql::exec(db, (dialect == Dialect::Sqlite ? QStringLiteral("EXPLAIN QUERY PLAN ")
                                                          : QStringLiteral("EXPLAIN ")) +
                                  sql);
    if (!plan) {
        qWarning("plan: %s", qPrintable(plan.error().message));
        return steps;
    }
    const QSqlRecord r = plan->record();
    while (plan->next()) {
        if (dialect == Dialect::Sqlite) {
            steps << plan->value(3).toString();
        } else if (dialect == Dialect::Postgres) {
            steps << plan->value(0).toString();
        } else {
            QStringList parts;
            for (const char *column : {"table", "type", "key", "Extra"})
                parts << plan->value(r.indexOf(QLatin1String(column))).toString();
            steps << parts.join(u' ');
        }
    }
    return steps;
}

} // namespace OncePay::Test
