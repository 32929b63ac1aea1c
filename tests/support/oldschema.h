#pragma once

// A database as an older release left it, for the tests of a migration: the schema's migrations
// up to and including `through` applied one statement at a time and recorded as the migrator
// records them, so that Migrator::migrate then applies only the ones after.
// Thread contract: the connection's thread.

#include "db/connection.h"
#include "db/migrator.h"
#include "db/sql.h"

#include <QFile>
#include <QtGlobal>

namespace OncePay::Test {

// The last version applied (0 when none is), or -1 when a statement failed (logged).
inline int migrateThrough(const Connection &c, int through,
                          const QString &schema = QStringLiteral("orders"))
{
    auto run = [&](const QString &sql) {
        auto r = Sql::exec(c.db(), sql);
        if (!r)
            qWarning("%s: %s", qPrintable(sql.left(80)), qPrintable(r.error().message));
        return r.ok();
    };
    if (!run(QStringLiteral("CREATE TABLE schema_version (version INTEGER PRIMARY KEY,"
                            " name VARCHAR(191) NOT NULL, checksum VARCHAR(64) NOT NULL,"
                            " applied_at BIGINT NOT NULL)")))
        return -1;
    int last = 0;
    for (const Migration &m : Migrator::available(schema, c.dialect())) {
        if (m.version > through)
            break;
        QFile file(m.resourcePath);
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        for (const QString &statement :
             Migrator::splitStatements(QString::fromUtf8(file.readAll())))
            if (!run(statement))
                return -1;
        if (!run(QStringLiteral("INSERT INTO schema_version VALUES (%1, '%2', 'x', 0)")
                     .arg(m.version)
                     .arg(m.name)))
            return -1;
        last = m.version;
    }
    return last;
}

} // namespace OncePay::Test
