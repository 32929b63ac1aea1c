// Staff accounts and sign-in on every engine: Argon2id hashes, wrong password, lockout and
// its expiry, disabled accounts, unknown names, rights, and the audit rows each leaves.

#include "auth/passwordhasher.h"
#include "auth/staffservice.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "testdatabases.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

const Actor kAdmin{QStringLiteral("root-admin"), QStringLiteral("admin")};

qint64 count(const Connection &c, const QString &sql, const QVariantList &binds = {})
{
    auto v = Sql::scalar(c.db(), sql, binds);
    if (!v)
        qFatal("count: %s", qPrintable(v.error().message));
    return v->toLongLong();
}

} // namespace

class TstAuth : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void permissionTable()
    {
        using enum Action;
        QVERIFY(can(StaffRole::Agent, ReadOrders) && can(StaffRole::Auditor, ReadOrders));
        QVERIFY(can(StaffRole::Agent, ProposeFix) && can(StaffRole::Finance, ProposeFix));
        QVERIFY(!can(StaffRole::Auditor, ProposeFix) && !can(StaffRole::Admin, ProposeFix));
        QVERIFY(can(StaffRole::Finance, DecideFix));
        QVERIFY(!can(StaffRole::Agent, DecideFix) && !can(StaffRole::Admin, DecideFix));
        QVERIFY(can(StaffRole::Finance, ReadAudit) && can(StaffRole::Auditor, ReadAudit));
        QVERIFY(!can(StaffRole::Agent, ReadAudit) && !can(StaffRole::Admin, ReadAudit));
        QVERIFY(can(StaffRole::Admin, ManageStaff) && can(StaffRole::Admin, ManageSettings));
        QVERIFY(!can(StaffRole::Finance, ManageStaff) && !can(StaffRole::Auditor, ManageSettings));
        QVERIFY(require(Actor::system("cli"), ManageStaff).ok());
        QCOMPARE(require(Actor::system("worker"), ReadAudit).error().code, ErrorCode::Forbidden);
        QCOMPARE(require(Actor::platform(), ManageStaff).error().code, ErrorCode::Forbidden);
        for (StaffRole r : allStaffRoles())
            QCOMPARE(parseStaffRole(staffRoleName(r)), r);
        QVERIFY(!parseStaffRole("root"));
    }

    void hashesAreArgon2id()
    {
        auto h = PasswordHasher::hash(QStringLiteral("correct horse battery"));
        QVERIFY(h.ok());
        QVERIFY(h->startsWith(u"$argon2id$v=19$"));
        // m is in KiB, t is passes: at least 19 MiB and 2 passes.
        const QString params = h->section(u'$', 3, 3);
        const int m = params.section(u',', 0, 0).mid(2).toInt();
        const int t = params.section(u',', 1, 1).mid(2).toInt();
        QVERIFY2(m >= 19 * 1024, qPrintable(params));
        QVERIFY2(t >= 2, qPrintable(params));
        QVERIFY(PasswordHasher::verify(*h, QStringLiteral("correct horse battery")));
        QVERIFY(!PasswordHasher::verify(*h, QStringLiteral("correct horse batterY")));
        QVERIFY(!PasswordHasher::verify(QStringLiteral("plain"), QStringLiteral("plain")));
        QVERIFY(!PasswordHasher::needsRehash(*h));
        QVERIFY(!PasswordHasher::checkPolicy(QStringLiteral("short")).ok());
    }

    void signInAndOut_data() { addEngineRows(); }
    void signInAndOut()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        auto added = staff.add({"agent1", "Agent One", StaffRole::Agent}, "agent1-secret", kAdmin);
        QVERIFY2(added.ok(), qPrintable(added.ok() ? QString() : added.error().message));
        QVERIFY(count(*c, "SELECT COUNT(*) FROM staff WHERE username = 'agent1' AND password_hash "
                          "LIKE '$argon2id$%'") == 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.added' AND "
                           "entity_id = 'agent1'"),
                 1);
        // The display name is personal data: not in the audit payload.
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE after_json LIKE '%Agent One%'"),
                 0);

        auto in = staff.authenticate("Agent1 ", "agent1-secret", "test");
        QVERIFY(in.ok());
        QVERIFY(in->signedIn());
        QCOMPARE(in->account.role, StaffRole::Agent);
        QCOMPARE(in->account.username, QStringLiteral("agent1"));
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'login.succeeded' AND "
                           "actor = 'agent1'"
                           " AND actor_role = 'agent'"),
                 1);
        QVERIFY(staff.signOut(in->account, "test").ok());
        QCOMPARE(
            count(*c,
                  "SELECT COUNT(*) FROM audit_outbox WHERE action = 'logout' AND actor = 'agent1'"),
            1);
        // Nothing anywhere holds the password.
        QCOMPARE(count(*c,
                       "SELECT COUNT(*) FROM audit_outbox WHERE after_json LIKE '%agent1-secret%'"
                       " OR before_json LIKE '%agent1-secret%' OR reason LIKE '%agent1-secret%'"),
                 0);
    }

    void wrongPasswordThenLockout_data() { addEngineRows(); }
    void wrongPasswordThenLockout()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        QVERIFY(Sql::update(c->db(), "UPDATE ops_settings SET setting_value = '3' WHERE "
                                     "setting_key = 'auth.max_failed_logins'")
                    .ok());
        QVERIFY(Sql::update(c->db(), "UPDATE ops_settings SET setting_value = '60' WHERE "
                                     "setting_key = 'auth.lockout_seconds'")
                    .ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        auto first = staff.authenticate("fin", "wrong-password", "test");
        QVERIFY(first.ok());
        QCOMPARE(first->refusal, SignInRefusal::BadCredentials);
        QCOMPARE(first->attemptsLeft, 2);
        QCOMPARE(staff.authenticate("fin", "wrong-again", "test")->attemptsLeft, 1);
        auto third = staff.authenticate("fin", "wrong-thrice", "test");
        QCOMPARE(third->refusal, SignInRefusal::Locked);
        QCOMPARE(third->lockedUntil, clock.nowMs() + 60000);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'login.failed' AND "
                           "entity_id = 'fin'"),
                 3);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'login.locked' AND "
                           "entity_id = 'fin'"),
                 1);

        // Even the right password is refused while locked, and says until when.
        auto locked = staff.authenticate("fin", "finance-secret", "test");
        QCOMPARE(locked->refusal, SignInRefusal::Locked);
        QCOMPARE(locked->lockedUntil, clock.nowMs() + 60000);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'login.refused' AND "
                           "reason = 'locked'"),
                 1);

        // After the lock runs out, a wrong password starts a fresh count, the right one works.
        clock.advance(61000);
        QCOMPARE(staff.authenticate("fin", "nope-nope-nope", "test")->attemptsLeft, 2);
        QVERIFY(staff.authenticate("fin", "finance-secret", "test")->signedIn());
        QCOMPARE(staff.find("fin")->failedAttempts, 0);

        // An administrator's reset lifts a lock at once.
        for (int i = 0; i < 3; ++i)
            (void)staff.authenticate("fin", "wrong-password", "test");
        QCOMPARE(staff.authenticate("fin", "finance-secret", "test")->refusal,
                 SignInRefusal::Locked);
        QVERIFY(staff.resetPassword("fin", "finance-secret-2", kAdmin).ok());
        QVERIFY(staff.authenticate("fin", "finance-secret-2", "test")->signedIn());
        QCOMPARE(
            count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.password_reset'"),
            1);
    }

    void disabledAndUnknown_data() { addEngineRows(); }
    void disabledAndUnknown()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        QVERIFY(staff.add({"aud", "", StaffRole::Auditor}, "auditor-secret", kAdmin).ok());
        QVERIFY(staff.disable("aud", kAdmin, "left the company").ok());
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'staff.disabled'"), 1);
        QCOMPARE(staff.authenticate("aud", "auditor-secret", "test")->refusal,
                 SignInRefusal::Disabled);
        // A wrong password on a disabled account says no more than for anyone else.
        QCOMPARE(staff.authenticate("aud", "guess-guess", "test")->refusal,
                 SignInRefusal::BadCredentials);

        auto unknown = staff.authenticate("mallory", "whatever-pass", "test");
        QVERIFY(unknown.ok());
        QCOMPARE(unknown->refusal, SignInRefusal::BadCredentials);
        QCOMPARE(unknown->attemptsLeft, -1);
        auto injection = staff.authenticate("' OR 1=1 --", "' OR 1=1 --", "test");
        QVERIFY(injection.ok());
        QCOMPARE(injection->refusal, SignInRefusal::BadCredentials);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE action = 'login.failed' AND "
                           "actor = 'anonymous'"),
                 2);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM audit_outbox WHERE after_json LIKE '%mallory%'"),
                 0);
    }

    void onlyAdministratorsManageStaff_data() { addEngineRows(); }
    void onlyAdministratorsManageStaff()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(1767225600000);
        StaffService staff(*c, clock);
        const Actor agent{QStringLiteral("agent1"), QStringLiteral("agent")};
        const Actor finance{QStringLiteral("fin1"), QStringLiteral("finance")};
        QCOMPARE(staff.add({"x1", "", StaffRole::Admin}, "some-password", agent).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(staff.add({"x1", "", StaffRole::Admin}, "some-password", finance).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(staff.list(agent).error().code, ErrorCode::Forbidden);
        QVERIFY(staff.add({"x1", "", StaffRole::Admin}, "some-password", Actor::system("cli:test"))
                    .ok());
        QCOMPARE(staff.add({"x1", "", StaffRole::Agent}, "some-password", kAdmin).error().code,
                 ErrorCode::Conflict);
        QCOMPARE(
            staff.add({"Bad Name", "", StaffRole::Agent}, "some-password", kAdmin).error().code,
            ErrorCode::Invalid);
        QCOMPARE(staff.add({"x2", "", StaffRole::Agent}, "short", kAdmin).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(staff.disable("x1", finance, "no").error().code, ErrorCode::Forbidden);
        QCOMPARE(staff.resetPassword("nobody", "some-password", kAdmin).error().code,
                 ErrorCode::NotFound);
        QCOMPARE(staff.list(kAdmin)->size(), 1);
        QCOMPARE(count(*c, "SELECT COUNT(*) FROM staff"), 1);
    }
};

QTEST_GUILESS_MAIN(TstAuth)
#include "tst_auth.moc"
