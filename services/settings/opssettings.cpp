#include "opssettings.h"

#include "db/sql.h"

namespace OncePay {

Result<OpsSettings> OpsSettings::load(const Connection &c)
{
    auto q =
        Sql::exec(c.db(), QStringLiteral("SELECT setting_key, setting_value FROM ops_settings"));
    if (!q)
        return q.error();
    OpsSettings s;
    while (q->next())
        s.m_values.insert(q->value(0).toString(), q->value(1).toString());
    return s;
}

qint64 OpsSettings::integer(const QString &key, qint64 fallback) const
{
    bool ok = false;
    const qint64 v = m_values.value(key).toLongLong(&ok);
    return ok ? v : fallback;
}

QString OpsSettings::text(const QString &key, const QString &fallback) const
{
    return m_values.value(key, fallback);
}

} // namespace OncePay
