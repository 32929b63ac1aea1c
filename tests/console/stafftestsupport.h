#pragma once

// What the staff tests share (tst_auth: sign-in and rights; tst_staff_changes: role changes
// and disables): the administrator they act as, its account, an ops setting set straight in
// the database, and a count.

#include "auth/staffservice.h"
#include "db/sql.h"

#include <QtGlobal>

namespace OncePay::Test {

// Sets one ops setting straight in the database (what an administrator would set).
[[nodiscard]] inline bool setSetting(const Connection &c, const char *key, const char *value)
{
    return Sql::update(c.db(), "UPDATE ops_settings SET setting_value = ? WHERE setting_key = ?",
                       {QString::fromLatin1(value), QString::fromLatin1(key)})
        .ok();
}

// The administrator the tests act as; addRootAdmin() gives it its account (a staff actor's
// rights are read from its account at every change).
inline const Actor kAdmin{QStringLiteral("root-admin"), QStringLiteral("admin")};

[[nodiscard]] inline bool addRootAdmin(const StaffService &staff)
{
    auto a = staff.add({kAdmin.id, QString(), StaffRole::Admin}, "root-admin-secret",
                       Actor::system(QStringLiteral("cli:test")));
    if (!a)
        qWarning("root-admin: %s", qPrintable(a.error().message));
    return a.ok();
}

inline qint64 count(const Connection &c, const QString &sql, const QVariantList &binds = {})
{
    auto v = Sql::scalar(c.db(), sql, binds);
    if (!v)
        qFatal("count: %s", qPrintable(v.error().message));
    return v->toLongLong();
}

} // namespace OncePay::Test
