#include "fixsettings.h"

#include "db/sql.h"

namespace OncePay::FixSettings {

Result<qint64> leaseSkewMs(const Connection &c)
{
    auto v = Sql::scalar(
        c.db(), QStringLiteral("SELECT setting_value FROM ops_settings WHERE setting_key = ?"),
        {LeaseSkewKey});
    if (!v)
        return v.error();
    if (v->isNull())
        return kLeaseSkewDefaultMs;
    bool ok = false;
    const QString text = v->toString();
    const qint64 n = text.trimmed().toLongLong(&ok);
    if (!ok || n < 0 || n > kLeaseSkewMaxMs)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("ops setting %1 is not a whole number from 0 to %2: '%3'")
                             .arg(LeaseSkewKey)
                             .arg(kLeaseSkewMaxMs)
                             .arg(text.left(40)),
                         QStringLiteral("bad_setting"));
    return n;
}

} // namespace OncePay::FixSettings
