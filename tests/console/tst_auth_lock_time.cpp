// Whose clock a staff account's lock keeps (review rev-signin, finding 2): on PostgreSQL and
// MariaDB the database server's, never the workstation's. A console whose clock is far ahead
// does not lift a lock or get fresh guesses, one whose clock is behind does not write a lock
// that has already ended, and a lock ends after auth.lockout_seconds of real time whatever the
// workstation's clock says. On SQLite the database is a file on this machine and its clock is
// the injected one: tst_auth (wrongPasswordThenLockout) moves it.

#include "auth/staffservice.h"
#include "authtesttime.h"
#include "db/migrator.h"
#include "stafftestsupport.h"
#include "testdatabases.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QTest>
#include <QThread>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kHourMs = 3600 * 1000;

// A workstation's clock that runs, set `offsetMs` away from the true time.
class SkewedClock final : public Clock {
public:
    explicit SkewedClock(qint64 offsetMs)
        : m_offset(offsetMs)
    {}
    qint64 nowMs() const override { return Clock::systemNowMs() + m_offset; }

private:
    const qint64 m_offset;
};

qint64 audited(const Connection &c, const char *action, const char *reason = nullptr)
{
    QString sql = QStringLiteral(
                      "SELECT COUNT(*) FROM audit_outbox WHERE entity_id = 'fin' AND action = '%1'")
                      .arg(QString::fromLatin1(action));
    if (reason)
        sql += QStringLiteral(" AND reason = '%1'").arg(QString::fromLatin1(reason));
    return count(c, sql);
}

// `fin`'s lock, and whether it runs from between `before` and `after` (the server's clock
// around the failure that set it) for `lockMs`.
bool lockRunsFrom(const StaffService &staff, qint64 before, qint64 after, qint64 lockMs)
{
    const qint64 until = staff.find("fin")->lockedUntil;
    const bool ok = until >= before + lockMs && until <= after + lockMs;
    if (!ok)
        qWarning("locked until %lld, not within [%lld, %lld] + %lld ms", until, before, after,
                 lockMs);
    return ok;
}

} // namespace

class TstAuthLockTime : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A console whose clock is an hour ahead (moved on purpose, or simply wrong) meets a lock
    // set 900 s ago by the server's clock: the right password is refused, more guesses are
    // refused as locked without counting, and the lock ends when it did.
    void clientClockAheadDoesNotLiftALock_data() { addServerEngineRows(); }
    void clientClockAheadDoesNotLiftALock()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        QVERIFY(setSetting(*c, "auth.max_failed_logins", "3"));
        QVERIFY(setSetting(*c, "auth.lockout_seconds", "900"));
        SkewedClock clock(0); // right
        StaffService staff(*c, clock);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        const qint64 before = lockClockNowMs(*c, clock);
        for (const char *guess : {"guess-one", "guess-two", "guess-three"})
            QCOMPARE(staff.authenticate("fin", guess, "ws-1")->refusal,
                     SignInRefusal::BadCredentials);
        QVERIFY(lockRunsFrom(staff, before, lockClockNowMs(*c, clock), 900000));
        const qint64 until = staff.find("fin")->lockedUntil;
        QCOMPARE(audited(*c, "login.locked"), 1);

        SkewedClock ahead(kHourMs);
        StaffService fromAhead(*c, ahead);
        auto right = fromAhead.authenticate("fin", "finance-secret", "ws-ahead");
        QVERIFY(right.ok());
        QVERIFY(!right->signedIn());
        QCOMPARE(right->refusal, SignInRefusal::BadCredentials);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(fromAhead.authenticate("fin", QStringLiteral("more-%1").arg(i), "ws-ahead")
                         ->refusal,
                     SignInRefusal::BadCredentials);
        const StaffAccount fin = *staff.find("fin");
        QCOMPARE(fin.lockedUntil, until);
        QCOMPARE(fin.failedAttempts, 0);
        QCOMPARE(audited(*c, "login.succeeded"), 0);
        QCOMPARE(audited(*c, "login.failed", "wrong_password"), 3); // no fresh guesses
        QCOMPARE(audited(*c, "login.locked"), 1);
        QCOMPARE(audited(*c, "login.refused", "locked"), 5);

        // What the Administration view and `staff list` show, from a console whose clock is
        // an hour ahead (or behind): locked, as the server's clock says.
        for (const qint64 skew : {kHourMs, -kHourMs}) {
            SkewedClock skewed(skew);
            auto listed = StaffService(*c, skewed).list(kAdmin);
            QVERIFY(listed.ok());
            auto it = std::find_if(listed->cbegin(), listed->cend(),
                                   [](const StaffAccount &a) { return a.username == u"fin"; });
            QVERIFY(it != listed->cend());
            QVERIFY2(it->locked, qPrintable(QString::number(skew)));
            QVERIFY(StaffService(*c, skewed).find("fin")->locked);
        }
    }

    // A console whose clock is an hour behind: its failures lock the account for 900 s from
    // the server's time, not from an hour ago (a lock that would have ended before it began).
    void clientClockBehindLocksForTheFullTime_data() { addServerEngineRows(); }
    void clientClockBehindLocksForTheFullTime()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        QVERIFY(setSetting(*c, "auth.max_failed_logins", "3"));
        QVERIFY(setSetting(*c, "auth.lockout_seconds", "900"));
        SkewedClock behind(-kHourMs);
        StaffService staff(*c, behind);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        const qint64 before = lockClockNowMs(*c, behind);
        for (const char *guess : {"guess-one", "guess-two", "guess-three"})
            (void)staff.authenticate("fin", guess, "ws-behind");
        QVERIFY(lockRunsFrom(staff, before, lockClockNowMs(*c, behind), 900000));
        QCOMPARE(audited(*c, "login.locked"), 1);
        QVERIFY(!staff.authenticate("fin", "finance-secret", "ws-behind")->signedIn());
        QCOMPARE(audited(*c, "login.refused", "locked"), 1);
    }

    // auth.lockout_seconds of real time end the lock, by the server's clock, for a console
    // whose own clock stands still (a clock the lock was kept by would never let it end).
    void lockEndsAfterLockoutSecondsOfRealTime_data() { addServerEngineRows(); }
    void lockEndsAfterLockoutSecondsOfRealTime()
    {
        ONCEPAY_SCRATCH(dbs);
        auto c = openMigrated(dbs->orders(), QStringLiteral("test"));
        QVERIFY(c.ok());
        QVERIFY(setSetting(*c, "auth.max_failed_logins", "1"));
        QVERIFY(setSetting(*c, "auth.lockout_seconds", "2"));
        ManualClock stopped(QDateTime::currentMSecsSinceEpoch());
        StaffService staff(*c, stopped);
        QVERIFY(addRootAdmin(staff));
        QVERIFY(staff.add({"fin", "", StaffRole::Finance}, "finance-secret", kAdmin).ok());

        const qint64 before = lockClockNowMs(*c, stopped);
        QCOMPARE(staff.authenticate("fin", "wrong-password", "ws-1")->refusal,
                 SignInRefusal::BadCredentials);
        QVERIFY(lockRunsFrom(staff, before, lockClockNowMs(*c, stopped), 2000));
        const qint64 until = staff.find("fin")->lockedUntil;
        QCOMPARE(audited(*c, "login.locked"), 1);

        // Wait, in real time, until the server's clock is past the lock.
        QDeadlineTimer deadline(30000);
        while (lockClockNowMs(*c, stopped) <= until && !deadline.hasExpired())
            QThread::msleep(100);
        QVERIFY(lockClockNowMs(*c, stopped) > until);

        auto in = staff.authenticate("fin", "finance-secret", "ws-1");
        QVERIFY(in.ok());
        QVERIFY(in->signedIn());
        const StaffAccount fin = *staff.find("fin");
        QCOMPARE(fin.lockedUntil, 0);
        QCOMPARE(fin.failedAttempts, 0);
        QCOMPARE(audited(*c, "login.succeeded"), 1);
        QCOMPARE(audited(*c, "login.refused", "locked"), 0);
    }
};

QTEST_GUILESS_MAIN(TstAuthLockTime)
#include "tst_auth_lock_time.moc"
