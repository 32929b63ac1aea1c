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

    // One rule (settingChangeFits) for the service and the page's dialog: every key's range
    // bounds fit and one past them does not; a value not a whole number, an unknown key and a
    // blank reason are refused, in that order, with the sentences the service's refusals use.
    // The service refuses exactly what the rule refuses, with the rule's very error, audited
    // with its sentence, and changes nothing; what the rule lets through it stores.
    void serviceRefusesWhatTheRuleRefuses_data() { addEngineRows(); }
    void serviceRefusesWhatTheRuleRefuses()
    {
        for (const SettingSpec &spec : SettingsService::specs()) {
            QVERIFY2(settingChangeFits(spec.key, QString::number(spec.min), "r").ok(),
                     qPrintable(spec.key));
            QVERIFY2(settingChangeFits(spec.key, QString::number(spec.max), "r").ok(),
                     qPrintable(spec.key));
            QVERIFY2(settingChangeFits(spec.key, QString::number(spec.fallback), "r").ok(),
                     qPrintable(spec.key));
            for (qint64 outside : {spec.min - 1, spec.max + 1}) {
                const auto r = settingChangeFits(spec.key, QString::number(outside), "r");
                QVERIFY2(!r, qPrintable(spec.key));
                QCOMPARE(r.error().code, ErrorCode::Invalid);
                QCOMPARE(r.error().reason, QStringLiteral("out_of_range"));
                QCOMPARE(r.error().message, QStringLiteral("%1 takes a whole number from %2 to"
                                                           " %3, not '%4'")
                                                .arg(spec.key)
                                                .arg(spec.min)
                                                .arg(spec.max)
                                                .arg(outside));
            }
        }
        QVERIFY(settingChangeFits("worker.max_attempts", " 7 ", " why ").ok());
        const auto sentence = [](const QString &key, const QString &value, const QString &reason) {
            const auto r = settingChangeFits(key, value, reason);
            return r ? QString() : r.error().reason + u' ' + r.error().message;
        };
        QCOMPARE(sentence("worker.max_attempts", "7.5", ""),
                 QStringLiteral("out_of_range worker.max_attempts takes a whole number from 1 to"
                                " 100, not '7.5'"));
        QCOMPARE(sentence("worker.max_attempts", "", "why"),
                 QStringLiteral("out_of_range worker.max_attempts takes a whole number from 1 to"
                                " 100, not ''"));
        QCOMPARE(sentence("worker.nope", "abc", ""),
                 QStringLiteral("unknown_setting unknown setting 'worker.nope'"));
        QCOMPARE(sentence("worker.max_attempts", "7", " \t"),
                 QStringLiteral("reason_required a settings change needs a reason"));

        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        SettingsService settings(*f.orders, f.clock);
        const Actor admin{QStringLiteral("adm"), QStringLiteral("admin")};
        QVERIFY(StaffService(*f.orders, f.clock)
                    .add({"adm", "adm", StaffRole::Admin}, "correct horse battery",
                         Actor::system("test"))
                    .ok());
        const struct {
            const char *key, *value, *reason;
        } asked[] = {
            {"worker.max_attempts", "101", "more"},   {"worker.max_attempts", "0", "none"},
            {"worker.max_attempts", "1e2", "more"},   {"worker.nope", "1", "unknown"},
            {"worker.max_attempts", "7", "  "},       {"worker.max_attempts", "100", "most"},
            {"worker.max_attempts", " 1 ", "fewest"},
        };
        int refusals = 0;
        for (const auto &a : asked) {
            const auto fits = settingChangeFits(a.key, a.value, a.reason);
            const qint64 auditedBefore = f.count("SELECT COUNT(*) FROM audit_outbox");
            const auto r = settings.set(a.key, a.value, a.reason, admin);
            QCOMPARE(r.ok(), fits.ok());
            if (fits) {
                QCOMPARE(r->value,
                         QString::number(QString::fromLatin1(a.value).trimmed().toLongLong()));
                QCOMPARE(OpsSettings::load(*f.orders)->integer(a.key, -1), r->value.toLongLong());
                continue;
            }
            ++refusals;
            QCOMPARE(r.error().code, fits.error().code);
            QCOMPARE(r.error().message, fits.error().message);
            QCOMPARE(r.error().reason, fits.error().reason);
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox"), auditedBefore + 1);
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.refused'"
                             " AND entity_id = ? AND reason = ?",
                             {QString::fromLatin1(a.key), fits.error().message}),
                     1);
        }
        QCOMPARE(refusals, 5);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.refused'"), 5);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'setting.changed'"), 2);
        QCOMPARE(OpsSettings::load(*f.orders)->integer("worker.max_attempts", -1), 1);
    }
};

QTEST_GUILESS_MAIN(TstSettings)
#include "tst_settings.moc"
