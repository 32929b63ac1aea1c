// Fix decisions meeting staff changes, on SQLite, PostgreSQL and MariaDB. A decision locks its
// reviewer's staff row through the primary key (requireCurrent → lockStaffRow) and then inserts
// into fix_decisions, whose guard trigger (migration 0002) reads the reviewer's staff row again
// by user name — on MariaDB a locking read even at READ COMMITTED (shared locks on the
// user-name index entry, then on the row); PostgreSQL's trigger reads its snapshot, unlocked.
// A staff change locks staff rows through the primary key only (lockEnabledAdmins,
// lockStaffRow) and writes no user name, so no one ever holds a user-name index entry
// exclusively: a decision may wait for a change's row lock (or a change for the decision's),
// and the waits never close a circle. This test holds that order one step at a time;
// tst_fix_locks_race runs decisions and changes at once, many of them.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "db/transaction.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "fixlockstestsupport.h"
#include "lockwait.h"
#include "sqlitelockwatch.h"

#include <QDeadlineTimer>
#include <QScopeGuard>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixLocks;

class TstFixLocks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The order, one step at a time. A role change of fay holds her staff row (locked through
    // the primary key and written, as StaffService::changeAccount does) and has not committed;
    // fay's decision meanwhile — through the service, or written straight into fix_decisions —
    // queues behind it instead of deadlocking, and then sees the change: refused, nothing
    // stored. Only PostgreSQL's guard trigger reads the staff row without a lock (its
    // snapshot): the written decision is stored at once, before the change commits, and so
    // comes first.
    void aDecisionQueuesBehindAChangeOfItsReviewer_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<bool>("bypass");
        for (auto [name, d] : {std::pair{"sqlite", Dialect::Sqlite},
                               {"postgresql", Dialect::Postgres},
                               {"mariadb", Dialect::MySql}})
            for (bool bypass : {false, true})
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(
                    QString::fromLatin1(name),
                    bypass ? QStringLiteral("written") : QStringLiteral("service"))))
                    << int(d) << bypass;
    }
    void aDecisionQueuesBehindAChangeOfItsReviewer()
    {
        ONCEPAY_SCRATCH(dbs);
        QFETCH(bool, bypass);
        EngineFixture f(*dbs);
        StaffService staff(*f.orders, f.clock);
        const Actor system = Actor::system(QStringLiteral("cli:test"));
        QVERIFY(staff.add({amy.id, amy.id, StaffRole::Agent}, kPassword, system).ok());
        QVERIFY(staff.add({fay.id, fay.id, StaffRole::Finance}, kPassword, system).ok());
        f.makeDeadLetter("o-ghost", "evt_q");
        FixService fixes(*f.orders, f.clock);
        FixProposal p;
        p.kind = FixKind::ResolveMessage;
        p.targetId = QStringLiteral("stripe:evt_q");
        p.reasonCode = QStringLiteral("poison_message");
        p.comment = QStringLiteral("seen in the stuck view");
        p.origin = kOrigin;
        auto fix = fixes.propose(p, amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        const qint64 fayId = f.count("SELECT id FROM staff WHERE username = 'fay'");

        Transaction change(f.orders->db(), Transaction::Mode::Immediate);
        QVERIFY(change.begin().ok());
        if (f.orders->dialect() != Dialect::Sqlite)
            QVERIFY(
                Sql::exec(f.orders->db(), "SELECT role FROM staff WHERE id = ? FOR UPDATE", {fayId})
                    .ok());
        QVERIFY(Sql::update(f.orders->db(),
                            "UPDATE staff SET role = 'auditor', updated_at = updated_at + 1"
                            " WHERE id = ?",
                            {fayId})
                    .ok());

        Result<bool> answer = makeError(ErrorCode::Internal, QStringLiteral("did not run"));
        SqliteLockWatch sqliteLock; // SQLite: whether the decision found the write lock
        std::atomic<bool> changeEnded = false;
        std::atomic<bool> answeredAfterChange = false;
        std::unique_ptr<QThread> other(QThread::create([&] {
            auto c = Connection::open(f.config.orders, QStringLiteral("fay"));
            if (!c) {
                answer = c.error();
                return;
            }
            sqliteLock.watch(*c);
            if (bypass) {
                answer = bypassReject(*c, fix->id, fay.id);
            } else {
                auto r = FixService(*c, f.clock)
                             .reject(fix->id, QStringLiteral("other"),
                                     QStringLiteral("not this way"), kOrigin, fay);
                answer = r ? Result<bool>(true) : Result<bool>(r.error());
            }
            answeredAfterChange = changeEnded.load();
        }));
        // Whatever happens below, the change ends before the thread is joined.
        auto join = qScopeGuard([&] {
            if (change.active())
                change.rollback();
            changeEnded = true;
            other->wait();
        });
        other->start();
        const bool readsWithoutLock = bypass && f.orders->dialect() == Dialect::Postgres;
        bool waited = false;
        if (readsWithoutLock) {
            QVERIFY2(other->wait(20000), "the written decision waited for the change");
        } else if (f.orders->dialect() == Dialect::Sqlite) {
            // As SQLite reports it: the decision's connection found the database locked.
            waited = sqliteLock.waitUntilMet(20000);
            qInfo("SQLite: the decision %s the database's write lock (the change's immediate "
                  "transaction); SQLite has no row locks, so the order rows are locked in is "
                  "checked on PostgreSQL and MariaDB only",
                  waited ? "waited for" : "did not meet");
        } else {
            waited = aSessionWaitsOnALock(f.config.orders, 20000);
        }
        changeEnded = true;
        QVERIFY(change.commit().ok());
        join.dismiss();
        other->wait();

        const qint64 stored =
            f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ?", {fix->id});
        if (readsWithoutLock) {
            QVERIFY2(answer.ok(), qPrintable(answer.ok() ? QString() : answer.error().message));
            QVERIFY(!answeredAfterChange);
            QCOMPARE(stored, 1);
            QCOMPARE(fixes.get(fix->id)->status, FixStatus::Rejected);
            return;
        }
        QVERIFY2(waited, "the decision did not wait for the change of its reviewer");
        QVERIFY(!answer.ok());
        QCOMPARE(answer.error().code, ErrorCode::Forbidden);
        QCOMPARE(answer.error().reason,
                 bypass ? QStringLiteral("database_rule") : QStringLiteral("role_changed"));
        QCOMPARE(stored, 0);
        QCOMPARE(fixes.get(fix->id)->status, FixStatus::Open);
    }
};

QTEST_GUILESS_MAIN(TstFixLocks)
#include "tst_fix_locks.moc"
