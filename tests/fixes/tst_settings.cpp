// Operational thresholds are changed only by administrators, only to known keys within their
// range, each change and each refusal audited (issue #9, Administration).

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "settings/opssettings.h"
#include "settings/settingsservice.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

class TstSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onlyAdminsChangeKnownSettingsWithinRange_data() { addEngineRows(); }
    void onlyAdminsChangeKnownSettingsWithinRange()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettingsService settings(*f.orders, f.clock);
        const Actor admin{QStringLiteral("adm"), QStringLiteral("admin")};
        const Actor finance{QStringLiteral("fin"), QStringLiteral("finance")};
        // Staff rights are read from the accounts at every change: they must exist.
        for (const auto &[name, role] :
             {std::pair{"adm", StaffRole::Admin}, std::pair{"fin", StaffRole::Finance}})
            QVERIFY(StaffService(*f.orders, f.clock)
                        .add({name, name, role}, "correct horse battery", Actor::system("test"))
                        .ok());

        auto listed = settings.list(finance);
        QVERIFY(listed.ok());
        QCOMPARE(listed->size(), SettingsService::specs().size());

        auto changed =
            settings.set("stuck.pending_seconds", "900", "night shift sees too much noise", admin);
        QVERIFY2(changed.ok(), qPrintable(changed.ok() ? QString() : changed.error().message));
        QCOMPARE(OpsSettings::load(*f.orders)->integer("stuck.pending_seconds", 0), 900);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.changed'"
                         " AND entity_id = 'stuck.pending_seconds' AND before_json LIKE '%300%'"
                         " AND after_json LIKE '%900%'"),
                 1);

        QCOMPARE(settings.set("stuck.pending_seconds", "1", "too low", admin).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(settings.set("stuck.pending_seconds", "ten", "not a number", admin).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(settings.set("worker.delete_everything", "1", "unknown", admin).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(settings.set("stuck.pending_seconds", "600", "", admin).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(
            settings.set("stuck.pending_seconds", "600", "finance may not", finance).error().code,
            ErrorCode::Forbidden);
        QCOMPARE(OpsSettings::load(*f.orders)->integer("stuck.pending_seconds", 0), 900);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.refused'"), 5);

        // A key without a row yet is inserted on its first change.
        QVERIFY(settings.set("reconcile.cadence_hours", "12", "twice a day", admin).ok());
        QCOMPARE(OpsSettings::load(*f.orders)->integer("reconcile.cadence_hours", 0), 12);
    }
};

QTEST_GUILESS_MAIN(TstSettings)
#include "tst_settings.moc"
