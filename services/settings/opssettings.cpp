#include "opssettings.h"

#include "db/sql.h"

#include <spdlog/spdlog.h>

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
    const auto stored = m_values.constFind(key);
    if (stored == m_values.cend())
        return fallback;
    bool ok = false;
    const qint64 v = stored->trimmed().toLongLong(&ok);
    if (ok)
        return v;
    // Written around the service (which stores whole numbers only): whoever relies on the
    // setting gets the default, and the operations team must learn that it is not theirs.
    spdlog::warn("ops setting {} holds '{}', which is no whole number; using {} instead",
                 key.toStdString(), stored->left(40).toStdString(), fallback);
    return fallback;
}

Result<qint64> OpsSettings::bounded(const QString &key, qint64 min, qint64 max,
                                    qint64 fallback) const
{
    const auto stored = m_values.constFind(key);
    if (stored == m_values.cend())
        return fallback;
    bool whole = false;
    const qint64 v = stored->trimmed().toLongLong(&whole);
    if (whole && v >= min && v <= max)
        return v;
    spdlog::warn("ops setting {} holds '{}', which is not a whole number from {} to {}: refused",
                 key.toStdString(), stored->left(40).toStdString(), min, max);
    return makeError(ErrorCode::Invalid,
                     QStringLiteral("ops setting %1 is not a whole number from %2 to %3: '%4'")
                         .arg(key)
                         .arg(min)
                         .arg(max)
                         .arg(stored->left(40)),
                     QStringLiteral("bad_setting"));
}

QString OpsSettings::text(const QString &key, const QString &fallback) const
{
    return m_values.value(key, fallback);
}

} // namespace OncePay
