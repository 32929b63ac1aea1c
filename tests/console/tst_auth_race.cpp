// Sign-ins that arrive together, on every engine (review finding 2): the lock-out holds when
// many wrong passwords arrive at once, a right password never clears a lock that was set while
// it was being checked, and a wrong password that lands on a lock is refused and audited as
// such without counting or restarting the lock. Sequential sign-in rules: tst_auth.cpp.

#include "auth/staffservice.h"
#include "authtesttime.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QTest>
#include <QThread>

#include <latch>
#include <memory>
#include <vector>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kStart = 1767225600000;

qint64 audited(const Connection &c, const char *action, const char *reason = nullptr)
{
    QString sql = QStringLiteral(
                      "SELECT COUNT(*) FROM audit_outbox WHERE entity_id = 'fin' AND action = '%1'")
                      .arg(QString::fromLatin1(action));
    if (reason)
        sql += QStringLiteral(" AND reason = '%1'").arg(QString::fromLatin1(reason));
    return count(c, sql);
}

} // namespace

class TstAuthRace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The reviewer's race.sh with threads: 12 wrong passwords at once (each on its own
    // connection, all read the account before any is decided) lock the account once, after
    // exactly the allowed number of failures; the rest are refused as locked, and the right
    // password afterwards too.
    void manyWrongPasswordsAtOnceLockOnce_data() { addEngineRows(); }
    void manyWrongPasswordsAtOnceLockOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        QVERIFY(setSetting(*c, "auth.max_failed_logins", "5"));
        QVERIFY(setSetting(*c, "auth.lockout_seconds", "900"));
        ManualClock clock(kStart);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        const qint64 before = lockClockNowMs(*c, clock);
        constexpr int kTries = 12;
        std::latch together(kTries);
        std::vector<QString> errors(kTries);
        std::vector<bool> signedIn(kTries, false);
        std::vector<std::unique_ptr<QThread>> threads;
        for (int i = 0; i < kTries; ++i) {
            threads.emplace_back(QThread::create([&, i] {
                auto own = Connection::open(dbs->orders(), QStringLiteral("try%1").arg(i));
                together.arrive_and_wait();
                if (!own) {
                    errors[i] = own.error().message;
                    return;
                }
                auto r = StaffService(*own, clock)
                             .authenticate("fin", QStringLiteral("wrong-%1").arg(i), "race");
                if (!r)
                    errors[i] = r.error().message;
                else
                    signedIn[i] = r->signedIn();
            }));
            threads.back()->start();
        }
        for (auto &t : threads)
            QVERIFY(t->wait(120000));
        const qint64 after = lockClockNowMs(*c, clock);
        for (int i = 0; i < kTries; ++i) {
            QVERIFY2(errors[i].isEmpty(), qPrintable(errors[i]));
            QVERIFY(!signedIn[i]);
        }

        QCOMPARE(audited(*c, "login.failed", "wrong_password"), 5);
        QCOMPARE(audited(*c, "login.locked"), 1);
        QCOMPARE(audited(*c, "login.refused", "locked"), kTries - 5);
        // 900 s from when it was set, by the database's clock (SQLite: the test's).
        const StaffAccount locked = *staff.find("fin");
        QVERIFY(locked.lockedUntil >= before + 900000 && locked.lockedUntil <= after + 900000);
        QCOMPARE(locked.failedAttempts, 0);

        // The right password while locked: refused, the lock and count as they were.
        auto right = staff.authenticate("fin", "finance-secret", "race");
        QVERIFY(right.ok());
        QCOMPARE(right->refusal, SignInRefusal::BadCredentials);
        QCOMPARE(staff.find("fin")->lockedUntil, locked.lockedUntil);
        QCOMPARE(audited(*c, "login.succeeded"), 0);
        QCOMPARE(audited(*c, "login.refused", "locked"), kTries - 4);
    }

    // The right password checked while another sign-in's failure locks the account (its
    // transaction not yet committed when this one read the account): once the lock commits
    // this sign-in sees it, is refused, and the lock stays.
    void rightPasswordNeverClearsALockSetMeanwhile_data() { addEngineRows(); }
    void rightPasswordNeverClearsALockSetMeanwhile()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        ManualClock clock(kStart);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());
        QVERIFY(Sql::update(c->db(), "UPDATE staff SET failed_attempts = 4 WHERE username = 'fin'")
                    .ok());

        const qint64 until = lockClockNowMs(*c, clock) + 900000;
        const QByteArray lockSql =
            QStringLiteral("UPDATE staff SET failed_attempts = 0, locked_until = %1 WHERE "
                           "username = 'fin'")
                .arg(until)
                .toLatin1();
        SignInResult answer;
        bool waited = false;
        auto r = whenTwoChangesMeet(
            *c, dbs->orders(), clock, lockSql.constData(),
            [&](const StaffService &s) -> Result<StaffAccount> {
                auto in = s.authenticate("fin", "finance-secret", "race");
                if (!in)
                    return in.error();
                answer = *in;
                return in->account;
            },
            &waited);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QVERIFY(waited);
        QVERIFY(!answer.signedIn());
        QCOMPARE(answer.refusal, SignInRefusal::BadCredentials);
        const StaffAccount fin = *staff.find("fin");
        QCOMPARE(fin.lockedUntil, until);
        QCOMPARE(fin.failedAttempts, 0);
        QCOMPARE(audited(*c, "login.succeeded"), 0);
        QCOMPARE(audited(*c, "login.refused", "locked"), 1);
    }

    // A wrong password that lands on a lock set meanwhile: refused as locked and audited so
    // (login.refused, reason locked), neither counted as a failure nor restarting the lock.
    void wrongPasswordOnALockSetMeanwhileIsRefused_data() { addEngineRows(); }
    void wrongPasswordOnALockSetMeanwhileIsRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        QVERIFY(setSetting(*c, "auth.max_failed_logins", "1"));
        ManualClock clock(kStart);
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        clock.advance(5000); // the lock was set 5 s ago; a restarted lock would end later
        const qint64 until = lockClockNowMs(*c, clock) - 5000 + 60000;
        const QByteArray lockSql =
            QStringLiteral("UPDATE staff SET failed_attempts = 0, locked_until = %1 WHERE "
                           "username = 'fin'")
                .arg(until)
                .toLatin1();
        SignInResult answer;
        bool waited = false;
        auto r = whenTwoChangesMeet(
            *c, dbs->orders(), clock, lockSql.constData(),
            [&](const StaffService &s) -> Result<StaffAccount> {
                auto in = s.authenticate("fin", "wrong-password", "race");
                if (!in)
                    return in.error();
                answer = *in;
                return in->account;
            },
            &waited);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QVERIFY(waited);
        QCOMPARE(answer.refusal, SignInRefusal::BadCredentials);
        const StaffAccount fin = *staff.find("fin");
        QCOMPARE(fin.lockedUntil, until);
        QCOMPARE(fin.failedAttempts, 0);
        QCOMPARE(audited(*c, "login.failed"), 0);
        QCOMPARE(audited(*c, "login.locked"), 0);
        QCOMPARE(audited(*c, "login.refused", "locked"), 1);
    }
};

QTEST_GUILESS_MAIN(TstAuthRace)
#include "tst_auth_race.moc"
