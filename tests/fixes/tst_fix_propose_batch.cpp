// A selection's proposals as one batch (FixService::proposeEach) on SQLite, PostgreSQL and
// MariaDB: each proposal is committed on its own; a refusal is collected and the rest go on; a
// database that goes away part-way stops the batch, the ones before it standing and nothing of
// the rest written; the caller may stop it between two proposals.

#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixservice.h"
#include "fixtestsupport.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <optional>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

namespace {

// Dead letters for stripe:evt_a, evt_c and evt_d (callbacks for orders nobody created, retried
// until given up), and stripe:evt_b pending (requeue does not take it).
void makeTargets(EngineFixture &f)
{
    for (const QString e : {"evt_a", "evt_c", "evt_d"})
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-" + e, "a1", 2100, "USD", e, "pi_" + e)));
    for (int i = 0; i < 10; ++i) {
        f.drain();
        f.clock.advance(3600 * 1000);
    }
    f.deliver(StripeEvents::paymentIntentSucceeded(
        f.params("o-evt_b", "a1", 2100, "USD", "evt_b", "pi_evt_b")));
}

QList<FixProposal> requeue(const QStringList &events)
{
    QList<FixProposal> out;
    for (const QString &e : events)
        out << proposal(FixKind::RequeueMessage, "stripe:" + e);
    return out;
}

// The server's session behind `c`: PostgreSQL's backend pid, MariaDB's connection id.
qint64 sessionOf(const Connection &c)
{
    auto id = Sql::scalar(c.db(), c.dialect() == Dialect::Postgres
                                      ? QStringLiteral("SELECT pg_backend_pid()")
                                      : QStringLiteral("SELECT CONNECTION_ID()"));
    return id ? id->toLongLong() : 0;
}

// Ends that session from a second connection, as an administrator (or a failover) would, and
// waits until the server no longer lists it.
bool terminate(Connection &admin, qint64 session)
{
    const bool pg = admin.dialect() == Dialect::Postgres;
    auto done = pg ? Sql::scalar(admin.db(), "SELECT pg_terminate_backend(?)", {session})
                   : Sql::scalar(admin.db(), QStringLiteral("KILL CONNECTION %1").arg(session));
    if (!done) {
        qWarning("terminate: %s", qPrintable(done.error().message));
        return false;
    }
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < 10000) {
        auto left = Sql::scalar(
            admin.db(),
            pg ? QStringLiteral("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?")
               : QStringLiteral("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?"),
            {session});
        if (left && left->toLongLong() == 0)
            return true;
        QThread::msleep(20);
    }
    return false;
}

} // namespace

class TstFixProposeBatch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Three proposals, the second refused (a pending message takes no requeue): the first and
    // third are proposed, each with its audit row; the refusal is said with its reason and
    // audited; the caller heard of each one.
    void aRefusalIsCollectedAndTheRestGoOn_data() { addEngineRows(); }
    void aRefusalIsCollectedAndTheRestGoOn()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        makeTargets(f);
        QList<QPair<int, int>> heard;
        const ProposeOutcome out =
            desk.fixes.proposeEach(requeue({"evt_a", "evt_b", "evt_c"}), amy, [&](int n, int of) {
                heard.append({n, of});
                return true;
            });
        QCOMPARE(out.proposed.size(), 2);
        QCOMPARE(out.refused.size(), 1);
        QVERIFY2(out.refused.first().startsWith("stripe:evt_b: message stripe:evt_b is pending"),
                 qPrintable(out.refused.first()));
        QVERIFY(!out.stoppedBy);
        QVERIFY(!out.cancelled);
        QCOMPARE(out.notSent, 0);
        QCOMPARE(heard, (QList<QPair<int, int>>{{1, 3}, {2, 3}, {3, 3}}));

        for (int i = 0; i < 2; ++i) {
            const QString target = i == 0 ? "stripe:evt_a" : "stripe:evt_c";
            QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND target_id = ?"
                             " AND status = 'open' AND proposed_by = 'amy'",
                             {out.proposed.at(i), target}),
                     1);
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.proposed'"
                             " AND actor = 'amy' AND entity_id = ?",
                             {QString::number(out.proposed.at(i))}),
                     1);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.proposed'"), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND"
                         " actor = 'amy' AND entity_id = 'message:stripe:evt_b'"),
                 1);
    }

    // The database goes away after the first of three: the batch stops there, Unavailable; the
    // first is in the database with its audit row, nothing of the other two is (no proposal,
    // no audit row, the messages as they were). PostgreSQL: the connection's backend ended by
    // pg_terminate_backend; MariaDB: KILL CONNECTION. SQLite has no server to lose: an open
    // connection goes on writing to a file that was deleted or made read-only, so SQLite's own
    // way of being unavailable is used: another connection holds the write lock past the
    // busy timeout.
    void theDatabaseGoingAwayStopsTheBatch_data() { addEngineRows(); }
    void theDatabaseGoingAwayStopsTheBatch()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        makeTargets(f);
        const bool sqlite = dbs->dialect() == Dialect::Sqlite;
        if (sqlite) {
            qInfo("SQLite: the write lock is held by another connection (no server to end)");
            // Not ten seconds of the engine's busy wait; the lock is never let go in time.
            QVERIFY(Sql::exec(f.orders->db(), "PRAGMA busy_timeout = 300").ok());
        }
        const qint64 session = sqlite ? 0 : sessionOf(*f.orders);
        QVERIFY(sqlite || session > 0);
        auto other = Connection::open(dbs->orders(), QStringLiteral("other"));
        QVERIFY2(other.ok(), qPrintable(other.ok() ? QString() : other.error().message));
        bool takenAway = false;
        const ProposeOutcome out =
            desk.fixes.proposeEach(requeue({"evt_a", "evt_c", "evt_d"}), amy, [&](int n, int) {
                if (n == 1)
                    takenAway = sqlite ? Sql::exec(other->db(), "BEGIN IMMEDIATE").ok()
                                       : terminate(*other, session);
                return true;
            });
        QVERIFY(takenAway);
        if (sqlite)
            QVERIFY(Sql::exec(other->db(), "ROLLBACK").ok());
        QCOMPARE(out.proposed.size(), 1);
        QVERIFY(out.refused.isEmpty());
        QVERIFY(out.stoppedBy);
        QCOMPARE(out.stoppedBy->code, ErrorCode::Unavailable);
        QVERIFY(!out.cancelled);
        QCOMPARE(out.notSent, 2);

        if (!sqlite)
            QVERIFY(f.orders->reconnect().ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND target_id ="
                         " 'stripe:evt_a' AND status = 'open'",
                         {out.proposed.first()}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.proposed' AND"
                         " entity_id = ?",
                         {QString::number(out.proposed.first())}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action LIKE 'fix.%'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead' AND"
                         " callback_id IN ('stripe:evt_a', 'stripe:evt_c', 'stripe:evt_d')"),
                 3);
    }

    // Stopped by the caller after the first of three: one proposed, the other two not sent
    // (no proposal, no audit row), and the outcome says it was stopped, not that the database
    // went away.
    void theCallerMayStopBetweenTwoProposals_data() { addEngineRows(); }
    void theCallerMayStopBetweenTwoProposals()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        makeTargets(f);
        int asked = 0;
        const ProposeOutcome out =
            desk.fixes.proposeEach(requeue({"evt_a", "evt_c", "evt_d"}), amy, [&](int, int) {
                ++asked;
                return false;
            });
        QCOMPARE(asked, 1);
        QCOMPARE(out.proposed.size(), 1);
        QVERIFY(out.refused.isEmpty());
        QVERIFY(out.cancelled);
        QVERIFY(!out.stoppedBy);
        QCOMPARE(out.notSent, 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE id = ? AND target_id ="
                         " 'stripe:evt_a'",
                         {out.proposed.first()}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action LIKE 'fix.%'"), 1);

        // Stopping after the last one changes nothing: all were sent.
        const ProposeOutcome last =
            desk.fixes.proposeEach(requeue({"evt_c"}), amy, [](int, int) { return false; });
        QCOMPARE(last.proposed.size(), 1);
        QVERIFY(!last.cancelled);
        QCOMPARE(last.notSent, 0);
    }
};

QTEST_GUILESS_MAIN(TstFixProposeBatch)
#include "tst_fix_propose_batch.moc"
