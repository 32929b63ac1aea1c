#pragma once

// What the console's widget tests share: the engine's scenario (tests/investigation) on a
// scratch SQLite database with recent times, one staff account per role, and a quick lock-out.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "scenario.h"

#include <QDateTime>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

#include <memory>

namespace OncePay::Test {

// Who sets the accounts up: the operator's command line (a staff actor needs an account of its
// own, its rights are read from it at every change).
inline const Actor kAdmin = Actor::system(QStringLiteral("setup"));

inline StaffAccount account(const QString &name, StaffRole role)
{
    StaffAccount a;
    a.username = name;
    a.displayName = name;
    a.role = role;
    return a;
}

// false (and a warning saying why) when a step fails.
[[nodiscard]] inline bool buildConsoleData(EngineFixture &f)
{
    // Recent data, so the dashboard's "last 24 hours" sees it and the stuck ages are real.
    f.clock.set(QDateTime::currentMSecsSinceEpoch() - 14 * 3600 * 1000LL);
    buildScenario(f);
    StaffService staff(*f.orders, Clock::system());
    for (const auto &[name, role] :
         {std::pair{"agent", StaffRole::Agent}, std::pair{"finance", StaffRole::Finance},
          std::pair{"auditor", StaffRole::Auditor}, std::pair{"admin", StaffRole::Admin}}) {
        if (auto r =
                staff.add({name, QString(), role}, QString::fromLatin1(name) + "-demo-pw", kAdmin);
            !r) {
            qWarning("staff %s: %s", name, qPrintable(r.error().message));
            return false;
        }
    }
    if (auto r = Sql::update(f.orders->db(), "UPDATE ops_settings SET setting_value = '2' WHERE"
                                             " setting_key = 'auth.max_failed_logins'");
        !r) {
        qWarning("settings: %s", qPrintable(r.error().message));
        return false;
    }
    return true;
}

// A console test class's initTestCase(): test-mode settings, cleared, and the data above on the
// scratch databases.
[[nodiscard]] inline bool setUpConsoleTest(const Result<std::unique_ptr<ScratchDatabases>> &dbs,
                                           std::unique_ptr<EngineFixture> &fixture)
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    if (!dbs) {
        qWarning("scratch databases: %s", qPrintable(dbs.error().message));
        return false;
    }
    fixture = std::make_unique<EngineFixture>(*dbs.value());
    return buildConsoleData(*fixture);
}

} // namespace OncePay::Test
