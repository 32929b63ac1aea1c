// Disables and enables of staff accounts on every engine: never one's own account nor the last
// enabled administrator, a disabled account enabled with its lock cleared, an enable and a
// disable of one account made at the same moment — and the audit rows each leaves.

#include "auth/staffservice.h"
#include "authtesttime.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QMutex>
#include <QTest>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

using namespace OncePay;
using namespace OncePay::Test;

class TstStaffEnableDisable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A disable: never one's own account, never the last enabled administrator (a disabled
    // one does not count), whoever asks; each refusal changes nothing and is audited.
    void disablingAnAccount_data() { addEngineRows(); }
    void disablingAnAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());

        clock.advance(1000);
        auto disabled = staff.disable("amy", kAdmin, "left the company");
        QVERIFY2(disabled.ok(), qPrintable(disabled ? QString() : disabled.error().message));
        QVERIFY(disabled->disabled);
        QVERIFY(staff.find("amy")->disabled);
        QCOMPARE(staff.find("amy")->updatedAt, clock.nowMs());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND before_json LIKE '%\"disabled\":false%'"
                           " AND after_json LIKE '%\"disabled\":true%'"
                           " AND reason = 'left the company'"),
                 1);
        // Disabled already: refused with its own sentence, nothing written, audited.
        QVERIFY(disableRefused(staff, *c, "amy", kAdmin, ErrorCode::Conflict, "already_disabled"));
        QVERIFY(disableRefused(staff, *c, "amy", system, ErrorCode::Conflict, "already_disabled"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND after_json LIKE '%\"reason\":\"already_disabled\"%'"
                           " AND after_json LIKE '%\"code\":\"conflict\"%'"
                           " AND reason = 'amy is disabled already'"),
                 1);

        // Refusals: each with its reason, nothing changed, each audited.
        QVERIFY(
            disableRefused(staff, *c, "root-admin", kAdmin, ErrorCode::Conflict, "own_account"));
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));
        QVERIFY(disableRefused(staff, *c, "nobody", kAdmin, ErrorCode::NotFound, "unknown_staff"));
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        QVERIFY(disableRefused(staff, *c, "root-admin", fin, ErrorCode::Forbidden, "forbidden"));
        // A disabled administrator is not one who could take over.
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        QVERIFY(staff.disable("adm2", kAdmin, "on leave").ok());
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));
        // Nor is an administrator demoted.
        QVERIFY(staff.add({"adm3", "", StaffRole::Admin}, "adm3-secret-pw", kAdmin).ok());
        QVERIFY(staff.setRole("adm3", "auditor", kAdmin, "audit team").ok());
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));

        // With another enabled administrator, one may be disabled; then the other is the last,
        // and the one disabled may change nothing any more.
        QVERIFY(staff.setRole("adm3", "admin", system, "acting administrator").ok());
        const Actor adm3{QStringLiteral("adm3"), QStringLiteral("admin")};
        QVERIFY(staff.disable("root-admin", adm3, "handed over").ok());
        QVERIFY(disableRefused(staff, *c, "adm3", kAdmin, ErrorCode::Forbidden, "staff_disabled"));
        QVERIFY(disableRefused(staff, *c, "adm3", adm3, ErrorCode::Conflict, "own_account"));
        QVERIFY(disableRefused(staff, *c, "adm3", system, ErrorCode::Conflict, "last_admin"));
        QVERIFY(roleRefused(staff, *c, "adm3", "agent", system, ErrorCode::Conflict, "last_admin"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"), 3);
        // The refusal rows name who asked and the account; the last administrator's say so.
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"disable\"%'"),
                 11);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'adm3' AND actor = 'cli:test'"
                           " AND after_json LIKE '%\"reason\":\"last_admin\"%'"
                           " AND reason LIKE '%last enabled administrator%'"),
                 2);
    }

    // The same for a disable: the other enabled administrator is disabled or demoted in a
    // transaction that has not committed yet while the last one is being disabled, or demoted
    // while it is being disabled. The second change waits, sees the first, and refuses.
    void lastAdministratorHoldsWhenADisableMeetsAnotherChange_data() { addEngineRows(); }
    void lastAdministratorHoldsWhenADisableMeetsAnotherChange()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        const Actor op = Actor::system(QStringLiteral("cli:test"));
        auto disableRoot = [op](const StaffService &s) {
            return s.disable("root-admin", op, QStringLiteral("test"));
        };
        auto demoteRoot = [op](const StaffService &s) {
            return s.setRole("root-admin", "agent", op, QStringLiteral("test"));
        };
        const struct {
            const char *first;
            std::function<Result<StaffAccount>(const StaffService &)> second;
        } meetings[] = {
            {"UPDATE staff SET disabled = 1 WHERE username = 'adm2'", disableRoot},
            {"UPDATE staff SET role = 'agent' WHERE username = 'adm2'", disableRoot},
            {"UPDATE staff SET disabled = 1 WHERE username = 'adm2'", demoteRoot},
        };
        for (const auto &m : meetings) {
            bool waited = false;
            auto second = whenTwoChangesMeet(*c, dbs->orders(), clock, m.first, m.second, &waited);
            QVERIFY2(waited, m.first);
            QVERIFY2(!second.ok(), m.first); // the last enabled administrator was not left
            QCOMPARE(second.error().reason, QStringLiteral("last_admin"));
            QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE role = 'admin' AND disabled = 0"),
                     1);
            QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE username = 'root-admin' AND"
                               " role = 'admin' AND disabled = 0"),
                     1);
            // adm2 an enabled administrator again for the next meeting.
            QVERIFY(Sql::update(c->db(), "UPDATE staff SET role = 'admin', disabled = 0"
                                         " WHERE username = 'adm2'")
                        .ok());
        }
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action IN ('staff.disabled',"
                           " 'staff.role_changed')"),
                 0);
    }

    // An enable: a disabled account may sign in again, with its failed sign-ins and lock
    // cleared; audited (staff.enabled, before and after, the reason). Refused, nothing changed
    // and audited: an account enabled already, an unknown one, no reason, someone who may not
    // manage staff (or an administrator disabled or demoted meanwhile).
    void enablingAnAccount_data() { addEngineRows(); }
    void enablingAnAccount()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        // Enabled already: refused with its own sentence.
        QVERIFY(enableRefused(staff, *c, "amy", kAdmin, ErrorCode::Conflict, "already_enabled"));
        QVERIFY(staff.disable("amy", kAdmin, "on leave").ok());
        // While disabled, someone guessed her password until the account locked.
        // (An hour from now by the clock a lock is kept by: the database server's, or on SQLite
        // the test's.)
        const qint64 lockedUntil = lockClockNowMs(*c, clock) + 3600000;
        QVERIFY(Sql::update(c->db(),
                            "UPDATE staff SET failed_attempts = 3, locked_until = ? WHERE"
                            " username = 'amy'",
                            {lockedUntil})
                    .ok());
        QCOMPARE(staff.authenticate("amy", "amy-secret-pw", "test")->refusal,
                 SignInRefusal::BadCredentials); // locked

        // Refusals: each with its reason, nothing changed, each audited.
        QVERIFY(enableRefused(staff, *c, "nobody", kAdmin, ErrorCode::NotFound, "unknown_staff"));
        const Actor fin{QStringLiteral("fin"), QStringLiteral("finance")};
        QVERIFY(enableRefused(staff, *c, "amy", fin, ErrorCode::Forbidden, "forbidden"));
        for (const Actor &by : {kAdmin, system})
            for (const QString &blank : {QString(), QStringLiteral(" \t")})
                QVERIFY2(enableRefused(staff, *c, "amy", by, ErrorCode::Invalid, "reason_required",
                                       blank),
                         qPrintable(by.id + " '" + blank + "'"));

        clock.advance(1000);
        auto enabled = staff.enable("amy", kAdmin, "back from leave");
        QVERIFY2(enabled.ok(), qPrintable(enabled ? QString() : enabled.error().message));
        QVERIFY(!enabled->disabled);
        QCOMPARE(enabled->failedAttempts, 0);
        QCOMPARE(enabled->lockedUntil, 0);
        QCOMPARE(enabled->updatedAt, clock.nowMs());
        const StaffAccount amy = *staff.find("amy");
        QVERIFY(!amy.disabled);
        QCOMPARE(amy.failedAttempts, 0);
        QCOMPARE(amy.lockedUntil, 0);
        QCOMPARE(amy.updatedAt, clock.nowMs());
        QCOMPARE(amy.role, StaffRole::Agent);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff WHERE username = 'amy' AND"
                           " locked_until IS NULL"),
                 1);
        QCOMPARE(count(*c,
                       "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"
                       " AND entity_kind = 'staff' AND entity_id = 'amy'"
                       " AND actor = 'root-admin' AND actor_role = 'admin'"
                       " AND before_json LIKE '%\"disabled\":true%'"
                       " AND before_json LIKE '%\"failed_attempts\":3%'"
                       " AND before_json LIKE ?"
                       " AND after_json LIKE '%\"disabled\":false%'"
                       " AND after_json LIKE '%\"failed_attempts\":0%'"
                       " AND after_json LIKE '%\"locked_until\":null%'"
                       " AND reason = 'back from leave'",
                       {QStringLiteral("%\"locked_until\":%1%").arg(lockedUntil)}),
                 1);
        // She signs in again, with her password and her role.
        auto in = staff.authenticate("amy", "amy-secret-pw", "test");
        QVERIFY(in.ok());
        QCOMPARE(in->refusal, SignInRefusal::None);
        QCOMPARE(in->account.role, StaffRole::Agent);
        // Now enabled: not enabled again.
        QVERIFY(enableRefused(staff, *c, "amy", kAdmin, ErrorCode::Conflict, "already_enabled"));
        QVERIFY(enableRefused(staff, *c, "amy", system, ErrorCode::Conflict, "already_enabled"));

        // An enable with nothing to clear says only what changed.
        QVERIFY(staff.disable("amy", system, "on leave again").ok());
        QVERIFY(staff.enable("amy", system, "back again").ok());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"
                           " AND actor = 'cli:test' AND actor_role = 'system'"
                           " AND before_json NOT LIKE '%failed_attempts%'"
                           " AND after_json NOT LIKE '%failed_attempts%'"
                           " AND reason = 'back again'"),
                 1);

        // A disabled administrator enabled again is one who counts: the other may then go.
        QVERIFY(staff.add({"adm2", "", StaffRole::Admin}, "adm2-secret-pw", kAdmin).ok());
        QVERIFY(staff.disable("adm2", kAdmin, "on leave").ok());
        const Actor adm2{QStringLiteral("adm2"), QStringLiteral("admin")};
        // Disabled, adm2 may not enable anyone (itself included).
        QVERIFY(enableRefused(staff, *c, "adm2", adm2, ErrorCode::Forbidden, "staff_disabled"));
        QVERIFY(disableRefused(staff, *c, "root-admin", system, ErrorCode::Conflict, "last_admin"));
        QVERIFY(staff.enable("adm2", kAdmin, "back").ok());
        QVERIFY(staff.disable("root-admin", adm2, "handed over").ok());
        // ...and root-admin, disabled, is refused in turn; adm2 may enable it again.
        QVERIFY(staff.add({"amy2", "", StaffRole::Agent}, "amy2-secret-pw", adm2).ok());
        QVERIFY(staff.disable("amy2", adm2, "test").ok());
        QVERIFY(enableRefused(staff, *c, "amy2", kAdmin, ErrorCode::Forbidden, "staff_disabled"));
        QVERIFY(staff.enable("root-admin", adm2, "back").ok());
        QVERIFY(staff.enable("amy2", kAdmin, "test").ok());

        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.enabled'"), 5);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND after_json LIKE '%\"step\":\"enable\"%'"),
                 11);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.refused'"
                           " AND entity_id = 'amy' AND actor = 'root-admin'"
                           " AND after_json LIKE '%\"reason\":\"already_enabled\"%'"
                           " AND reason = 'amy is enabled already'"),
                 2);
    }

    // An enable and a disable of the same account meet: the first, not committed yet, holds
    // the rows a staff change locks first (root-admin's, as requireCurrent and
    // lockEnabledAdmins take it) and has changed the account; the second waits, then sees the
    // first and acts on the account as it left it: a disable after an enable goes through, a
    // second disable (or enable) is refused with its own sentence. The account and its audit
    // rows then agree.
    void enableAndDisableMeet_data() { addEngineRows(); }
    void enableAndDisableMeet()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"amy", "", StaffRole::Agent}, "amy-secret-pw", kAdmin).ok());
        const Actor op = Actor::system(QStringLiteral("cli:test"));
        auto enableAmy = [op](const StaffService &s) {
            return s.enable("amy", op, QStringLiteral("test"));
        };
        auto disableAmy = [op](const StaffService &s) {
            return s.disable("amy", op, QStringLiteral("test"));
        };
        const struct {
            bool disabledBefore;
            const char *first;
            std::function<Result<StaffAccount>(const StaffService &)> second;
            const char *refusal; // the second's, or none
            bool disabledAfter;
        } meetings[] = {
            {false, "UPDATE staff SET disabled = 1 WHERE username = 'amy'", enableAmy, nullptr,
             false},
            {true, "UPDATE staff SET disabled = 0 WHERE username = 'amy'", disableAmy, nullptr,
             true},
            {false, "UPDATE staff SET disabled = 1 WHERE username = 'amy'", disableAmy,
             "already_disabled", true},
            {true, "UPDATE staff SET disabled = 0 WHERE username = 'amy'", enableAmy,
             "already_enabled", false},
        };
        for (const auto &m : meetings) {
            QVERIFY(Sql::update(c->db(), "UPDATE staff SET disabled = ? WHERE username = 'amy'",
                                {m.disabledBefore ? 1 : 0})
                        .ok());
            const qint64 changes = count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                                             " ('staff.enabled', 'staff.disabled')");
            bool waited = false;
            auto second = whenTwoChangesMeet(*c, dbs->orders(), clock, m.first, m.second, &waited);
            QVERIFY2(waited, m.first);
            if (m.refusal) {
                QVERIFY2(!second.ok(), m.first);
                QCOMPARE(second.error().reason, QString::fromLatin1(m.refusal));
            } else {
                QVERIFY2(second.ok(), qPrintable(second ? QString() : second.error().toString()));
                QCOMPARE(second->disabled, m.disabledAfter);
            }
            QCOMPARE(staff.find("amy")->disabled, m.disabledAfter);
            QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action IN"
                               " ('staff.enabled', 'staff.disabled')"),
                     changes + (m.refusal ? 0 : 1));
        }

        // Then free-running: one console disables amy over and over while another enables her.
        // Every call is done or refused as enabled/disabled already (no deadlock, no other
        // error), and the audit rows alternate in the order they committed, the last one
        // saying how she is now.
        const int rounds = 15;
        std::atomic<int> go = 0;
        QStringList failures;
        QMutex mutex;
        auto console = [&](bool disabling) {
            return QThread::create([&, disabling] {
                auto c2 = Connection::open(dbs->orders(), disabling ? QStringLiteral("disabler")
                                                                    : QStringLiteral("enabler"));
                if (!c2) {
                    QMutexLocker lock(&mutex);
                    failures << c2.error().toString();
                    return;
                }
                StaffService s(*c2, clock);
                ++go;
                while (go.load() < 2)
                    QThread::yieldCurrentThread();
                for (int i = 0; i < rounds; ++i) {
                    auto r = disabling ? s.disable("amy", op, QStringLiteral("race"))
                                       : s.enable("amy", op, QStringLiteral("race"));
                    if (!r && r.error().reason != (disabling ? QStringLiteral("already_disabled")
                                                             : QStringLiteral("already_enabled"))) {
                        QMutexLocker lock(&mutex);
                        failures << r.error().toString() + u' ' + r.error().reason;
                    }
                }
            });
        };
        std::unique_ptr<QThread> disabler(console(true)), enabler(console(false));
        disabler->start();
        enabler->start();
        QVERIFY(disabler->wait(120000));
        QVERIFY(enabler->wait(120000));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
        auto q = Sql::exec(c->db(), "SELECT action, before_json, after_json FROM audit_outbox"
                                    " WHERE action IN ('staff.enabled', 'staff.disabled')"
                                    " AND reason = 'race' ORDER BY id");
        QVERIFY(q.ok());
        QString last;
        int rows = 0;
        while (q->next()) {
            const QString action = q->value(0).toString();
            QVERIFY2(action != last, qPrintable(QStringLiteral("%1 twice in a row").arg(action)));
            const bool disabling = action == u"staff.disabled";
            QVERIFY(q->value(1).toString().contains(disabling ? u"\"disabled\":false"
                                                              : u"\"disabled\":true"));
            QVERIFY(q->value(2).toString().contains(disabling ? u"\"disabled\":true"
                                                              : u"\"disabled\":false"));
            last = action;
            ++rows;
        }
        QVERIFY2(rows >= 1, "no change went through");
        QCOMPARE(staff.find("amy")->disabled, last == u"staff.disabled");
    }
};

QTEST_MAIN(TstStaffEnableDisable)
#include "tst_staff_enable_disable.moc"
