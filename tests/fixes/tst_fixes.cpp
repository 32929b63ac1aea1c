// Manual fixes under maker-checker (DESIGN.md §6, issue #9) on SQLite, PostgreSQL and
// MariaDB: the rules hold in the service and, when the service is bypassed, in the database;
// every refusal leaves an audit row; an approved fix takes effect once, through the state
// machine, and the worker then does the rest (a requeued dead letter). What the rule offers for
// a target, a worker's lease included: tst_fix_offers.cpp.

#include "auth/staffservice.h"
#include "db/sql.h"
#include "enginefixture.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
#include "fixes/fixsettings.h"
#include "fixes/fixtargets.h"
#include "fixtestsupport.h"
#include "investigation/dashboardquery.h"
#include "investigation/stuckquery.h"
#include "settings/settingsservice.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

namespace {

qint64 dashboardStuck(EngineFixture &f, const QString &kind)
{
    auto d = DashboardQuery(*f.orders, f.clock)
                 .load({f.clock.nowMs() - 24 * 3600 * 1000LL, f.clock.nowMs()}, amy);
    if (!d)
        qFatal("dashboard: %s", qPrintable(d.error().message));
    for (const KeyCount &k : d->stuckByKind)
        if (k.key == kind)
            return k.count;
    return 0;
}

} // namespace
class TstFixes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void selfApprovalRefusedAlsoByTheDatabase_data() { addEngineRows(); }
    void selfApprovalRefusedAlsoByTheDatabase()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-ghost", "evt_g");
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_g"), fay);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        QCOMPARE(fix->status, FixStatus::Open);

        auto own = desk.fixes.approve(fix->id, fix->changeSha256, "mine", kOrigin, fay);
        QVERIFY(!own.ok());
        QCOMPARE(own.error().code, ErrorCode::Forbidden);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"
                         " AND actor = 'fay' AND entity_id = ?",
                         {QString::number(fix->id)}),
                 1);

        // An agent and an auditor may not decide at all.
        QCOMPARE(desk.fixes.approve(fix->id, fix->changeSha256, "", kOrigin, amy).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(desk.fixes.reject(fix->id, "other", "no", kOrigin, aud).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"), 3);

        // Bypassing the service: the database itself refuses a self-decision, and one by a
        // non-finance account.
        const QString insert = QStringLiteral(
            "INSERT INTO fix_decisions (fix_id, decided_by, decision, comment, decided_at)"
            " VALUES (?, ?, 'approve', 'bypass', 1)");
        auto self = Sql::exec(f.orders->db(), insert, {fix->id, "fay"});
        QVERIFY(!self.ok());
        QCOMPARE(self.error().code, ErrorCode::Forbidden);
        QVERIFY2(self.error().message.contains("own proposal"), qPrintable(self.error().message));
        auto agent = Sql::exec(f.orders->db(), insert, {fix->id, "amy"});
        QVERIFY(!agent.ok());
        QVERIFY2(agent.error().message.contains("finance"), qPrintable(agent.error().message));
        // Nor can the fix be marked applied without its approvals.
        auto applied = Sql::exec(
            f.orders->db(),
            QStringLiteral("UPDATE fix_requests SET status = 'applied' WHERE id = ?"), {fix->id});
        QVERIFY(!applied.ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        QCOMPARE(desk.fixes.get(fix->id)->status, FixStatus::Open);
    }

    void secondOpenProposalForTheSameTargetRefused_data() { addEngineRows(); }
    void secondOpenProposalForTheSameTargetRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-ghost", "evt_g");
        auto first = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_g"), amy);
        QVERIFY(first.ok());
        auto second = desk.fixes.propose(proposal(FixKind::ResolveMessage, "stripe:evt_g"), fay);
        QVERIFY(!second.ok());
        QCOMPARE(second.error().code, ErrorCode::Conflict);
        QVERIFY(second.error().message.contains(QStringLiteral("#%1").arg(first->id)));
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND actor = 'fay'"),
            1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);

        // Once the first is decided, the target takes a new proposal.
        auto rejected = desk.fixes.reject(first->id, "", "", kOrigin, fin);
        QVERIFY(!rejected.ok()); // a rejection needs a reason code and a comment
        QCOMPARE(rejected.error().code, ErrorCode::Invalid);
        rejected = desk.fixes.reject(first->id, "needs_investigation", "look at the order first",
                                     kOrigin, fin);
        QVERIFY(rejected.ok());
        QCOMPARE(rejected->status, FixStatus::Rejected);
        QVERIFY(desk.fixes.propose(proposal(FixKind::ResolveMessage, "stripe:evt_g"), fay).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.rejected' AND "
                         "actor = 'fin'"),
                 1);
        // The database refuses a rejection without a reason even when the service is bypassed.
        auto bare =
            Sql::exec(f.orders->db(),
                      QStringLiteral(
                          "INSERT INTO fix_decisions (fix_id, decided_by, decision, comment,"
                          " decided_at) SELECT MAX(id), 'fox', 'reject', '', 1 FROM fix_requests"));
        QVERIFY(!bare.ok());
    }

    void fixAppliedAfterItsOrderMovedIsRefused_data() { addEngineRows(); }
    void fixAppliedAfterItsOrderMovedIsRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Order o = makeUnconfirmed(f, "o-1", 5000, 4999);
        QCOMPARE(o.state, OrderState::PaidUnconfirmed);
        auto fix = desk.fixes.propose(
            proposal(FixKind::ConfirmPayment, "o-1", "customer sent the bank proof"), amy);
        QVERIFY(fix.ok());
        QCOMPARE(fix->expectedVersion, o.version);

        // The platform rolls the order back meanwhile: the fix's version is gone.
        QVERIFY(f.service
                    ->rollback("o-1", o.version, CauseKind::Request, "req-rb", Actor::platform(),
                               "customer left")
                    .ok());
        const Order moved = f.order("o-1");

        auto approved = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin);
        QVERIFY(!approved.ok());
        QCOMPARE(approved.error().code, ErrorCode::Stale);
        QVERIFY2(approved.error().message.contains("propose it again", Qt::CaseInsensitive),
                 qPrintable(approved.error().message));
        auto after = desk.fixes.get(fix->id);
        QCOMPARE(after->status, FixStatus::Failed);
        QCOMPARE(after->approvals(), 1);
        QCOMPARE(f.order("o-1").version, moved.version);
        QCOMPARE(f.order("o-1").state, OrderState::PendingPayment);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE order_id = 'o-1' AND kind = "
                         "'payment_credit'"),
                 0);
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.failed' AND entity_id = ?",
                {QString::number(fix->id)}),
            1);
        // A digest that is not the proposal's is refused too.
        auto again = desk.fixes.propose(proposal(FixKind::RollbackPayment, "o-1"), amy);
        QVERIFY(!again.ok()); // pending_payment: nothing to roll back
        QCOMPARE(again.error().code, ErrorCode::Conflict);
    }

    // A comment is optional on an approval (`oncepay fix approve` without --comment passes
    // none): the approval is recorded and applied, its comment stored empty, not refused by
    // the column's NOT NULL as an unavailable database.
    void anApprovalWithoutACommentIsApplied_data() { addEngineRows(); }
    void anApprovalWithoutACommentIsApplied()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        makeUnconfirmed(f, "o-nc", 3000, 2999);
        auto fix = desk.fixes.propose(
            proposal(FixKind::ConfirmPayment, "o-nc", "verified with Stripe"), amy);
        QVERIFY(fix.ok());
        auto approved = desk.fixes.approve(fix->id, fix->changeSha256, QString(), kOrigin, fin);
        QVERIFY2(approved.ok(), qPrintable(approved ? QString() : approved.error().toString()));
        QCOMPARE(approved->status, FixStatus::Applied);
        QCOMPARE(f.order("o-nc").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ? AND comment = ''",
                         {fix->id}),
                 1);
        // Blanks alike.
        makeUnconfirmed(f, "o-nc2", 3000, 2999);
        auto blank = desk.fixes.propose(
            proposal(FixKind::ConfirmPayment, "o-nc2", "verified with Stripe"), amy);
        QVERIFY(blank.ok());
        QVERIFY(desk.fixes.approve(blank->id, blank->changeSha256, "   ", kOrigin, fin).ok());
        QCOMPARE(f.order("o-nc2").state, OrderState::Paid);
    }

    void fixApprovedTwiceIsAppliedOnce_data() { addEngineRows(); }
    void fixApprovedTwiceIsAppliedOnce()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        Order o = makeUnconfirmed(f, "o-2", 4000, 3999);
        auto fix = desk.fixes.propose(
            proposal(FixKind::ConfirmPayment, "o-2", "verified with Stripe"), amy);
        QVERIFY(fix.ok());
        QCOMPARE(fix->approvalsNeeded, 1);

        auto wrongDigest =
            desk.fixes.approve(fix->id, QString(64, QLatin1Char('0')), "ok", kOrigin, fin);
        QVERIFY(!wrongDigest.ok());
        QCOMPARE(wrongDigest.error().code, ErrorCode::Conflict);

        auto first = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin);
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
        QCOMPARE(first->status, FixStatus::Applied);
        QCOMPARE(f.order("o-2").state, OrderState::Paid);
        QCOMPARE(f.order("o-2").version, o.version + 1);

        auto twice = desk.fixes.approve(fix->id, fix->changeSha256, "ok", kOrigin, fin);
        QVERIFY(!twice.ok());
        auto other = desk.fixes.approve(fix->id, fix->changeSha256, "me too", kOrigin, fox);
        QVERIFY(!other.ok());
        QCOMPARE(other.error().code, ErrorCode::Conflict);

        QCOMPARE(f.order("o-2").version, o.version + 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE order_id = 'o-2' AND kind = "
                         "'payment_credit'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM purchase_orders WHERE order_id = 'o-2'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions WHERE fix_id = ?", {fix->id}), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.applied'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM order_transitions WHERE order_id = 'o-2' AND "
                         "cause_kind = 'fix'"
                         " AND cause_id = ?",
                         {QStringLiteral("fix:%1").arg(fix->id)}),
                 1);
    }

    void largeFixNeedsTwoDifferentApprovers_data() { addEngineRows(); }
    void largeFixNeedsTwoDifferentApprovers()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        makeUnconfirmed(f, "o-big", 250000, 249999); // 2,500.00 USD: above the 1,000.00 default
        auto fix =
            desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-big", "wire confirmed"), fay);
        QVERIFY(fix.ok());
        QCOMPARE(fix->approvalsNeeded, 2);
        QCOMPARE(*fix->amountMinor, 250000);

        auto one = desk.fixes.approve(fix->id, fix->changeSha256, "first look", kOrigin, fin);
        QVERIFY(one.ok());
        QCOMPARE(one->status, FixStatus::Open);
        QCOMPARE(one->approvals(), 1);
        QCOMPARE(f.order("o-big").state, OrderState::PaidUnconfirmed);
        // The same reviewer cannot supply the second approval, nor can the database be told
        // the fix is applied.
        QVERIFY(!desk.fixes.approve(fix->id, fix->changeSha256, "again", kOrigin, fin).ok());
        QVERIFY(
            !Sql::exec(f.orders->db(),
                       QStringLiteral("UPDATE fix_requests SET status = 'applied' WHERE id = ?"),
                       {fix->id})
                 .ok());
        QCOMPARE(f.order("o-big").state, OrderState::PaidUnconfirmed);

        auto two = desk.fixes.approve(fix->id, fix->changeSha256, "second look", kOrigin, fox);
        QVERIFY2(two.ok(), qPrintable(two.ok() ? QString() : two.error().message));
        QCOMPARE(two->status, FixStatus::Applied);
        QCOMPARE(f.order("o-big").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.approved'"), 2);
    }

    void closedPeriodTakesNoFix_data() { addEngineRows(); }
    void closedPeriodTakesNoFix()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-ghost", "evt_g");
        const qint64 received =
            f.count("SELECT received_at FROM callback_messages WHERE callback_id = 'stripe:evt_g'");
        auto early = desk.fixes.propose(proposal(FixKind::ResolveMessage, "stripe:evt_g"), amy);
        QVERIFY(early.ok());

        // Closing needs a finished reconciliation covering the period.
        const QString period = QStringLiteral("%1..%2").arg(received - 1000).arg(received + 1000);
        auto unreconciled = desk.fixes.propose(proposal(FixKind::ClosePeriod, period), fay);
        QVERIFY(!unreconciled.ok());
        QCOMPARE(unreconciled.error().reason, QStringLiteral("not_reconciled"));
        QVERIFY(Sql::exec(f.orders->db(),
                          QStringLiteral(
                              "INSERT INTO reconciliation_runs (period_from, period_to, status,"
                              " eligible, matched, coverage_ppm, actor, started_at, finished_at)"
                              " VALUES (?, ?, 'finished', 0, 0, 1000000, 'test', 1, 2)"),
                          {received - 86400000, received + 86400000})
                    .ok());
        auto close = desk.fixes.propose(proposal(FixKind::ClosePeriod, period), fay);
        QVERIFY2(close.ok(), qPrintable(close.ok() ? QString() : close.error().message));
        QVERIFY(desk.fixes.approve(close->id, close->changeSha256, "month end", kOrigin, fin).ok());
        QCOMPARE(f.count("SELECT COUNT(*) FROM closed_periods"), 1);

        // A proposal made before the close fails when approved after it …
        auto late = desk.fixes.approve(early->id, early->changeSha256, "ok", kOrigin, fin);
        QVERIFY(!late.ok());
        QCOMPARE(late.error().reason, QStringLiteral("period_closed"));
        QCOMPARE(desk.fixes.get(early->id)->status, FixStatus::Failed);
        // … and a new one is refused outright, with an audit row.
        auto refused = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_g"), amy);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().reason, QStringLiteral("period_closed"));
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused' AND actor = 'amy'"),
            1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
    }

    void requeuedDeadLetterIsProcessedByTheWorker_data() { addEngineRows(); }
    void requeuedDeadLetterIsProcessedByTheWorker()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-late", "evt_late");
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        // The platform's order shows up late; the agent asks for the callback to be replayed.
        Order o = f.createOrder("o-late", 2100);
        f.pay("o-late", o.version, "a1");
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_late",
                                               "order arrived late from checkout"),
                                      amy);
        QVERIFY(fix.ok());
        auto evidence = FixTargets(*f.orders, f.clock).evidence(*fix, fin);
        QVERIFY(evidence.ok());
        QVERIFY2(evidence->join('\n').contains("dead after 4 attempt(s)"),
                 qPrintable(evidence->join('\n')));
        QVERIFY2(evidence->join('\n').contains("unknown order o-late"),
                 qPrintable(evidence->join('\n')));
        QVERIFY(evidence->join('\n').contains("order o-late: paying at version 2"));
        QCOMPARE(FixTargets(*f.orders, f.clock).evidence(*fix, Actor::system("x")).error().code,
                 ErrorCode::Forbidden);
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "go", kOrigin, fin).ok());
        QCOMPARE(
            f.count(
                "SELECT COUNT(*) FROM callback_messages WHERE status = 'pending' AND attempts = 0"),
            1);
        QVERIFY(
            f.count("SELECT requeued_at FROM dead_letters WHERE callback_id = 'stripe:evt_late'") >
            0);
        f.drain();
        QCOMPARE(f.order("o-late").state, OrderState::Paid);
        QCOMPARE(f.count("SELECT COUNT(*) FROM ledger_entries WHERE order_id = 'o-late'"), 1);
        // The proposal, the approval and the application are each audited.
        for (const char *action : {"fix.proposed", "fix.approved", "fix.applied"})
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = ? AND callback_id = "
                             "'stripe:evt_late'",
                             {QString::fromLatin1(action)}),
                     1);
        // Nothing else may be proposed against a completed message.
        auto done = desk.fixes.propose(proposal(FixKind::ResolveMessage, "stripe:evt_late"), amy);
        QVERIFY(!done.ok());
        QCOMPARE(done.error().code, ErrorCode::Conflict);
    }

    void aRequeuedMessageThatDiesAgainIsADeadLetterAgain_data() { addEngineRows(); }
    void aRequeuedMessageThatDiesAgainIsADeadLetterAgain()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-never", "evt_n");
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_n"), amy);
        QVERIFY(fix.ok());
        QVERIFY(desk.fixes.approve(fix->id, fix->changeSha256, "try once more", kOrigin, fin).ok());
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM dead_letters WHERE requeued_at IS NULL"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM dead_letters"), 1);
        QCOMPARE(
            f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'callback.dead_lettered'"),
            2);
        // … and can be requeued again by a new proposal.
        QVERIFY(desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_n"), amy).ok());
    }

    // A dead letter is stuck while its message is still dead: resolved (skipped) or requeued
    // (pending again) through the fix workflow, it leaves the stuck list, its counts and the
    // dashboard's; a requeued message is pending from the requeue on, so it shows as a
    // pending message only once it has waited past the threshold since then.
    void resolvedOrRequeuedDeadLetterIsNoLongerStuck_data() { addEngineRows(); }
    void resolvedOrRequeuedDeadLetterIsNoLongerStuck()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.makeDeadLetter("o-res", "evt_res");
        f.makeDeadLetter("o-req", "evt_req");
        f.makeDeadLetter("o-dead", "evt_dead");
        const StuckQuery stuck(*f.orders, f.clock);
        auto before = stuck.load({}, amy);
        QVERIFY(before.ok());
        QCOMPARE(before->counts.value(StuckKind::DeadLetter), 3);
        QCOMPARE(dashboardStuck(f, "dead_letter"), 3);

        auto resolve = desk.fixes.propose(
            proposal(FixKind::ResolveMessage, "stripe:evt_res", "duplicate of a paid order"), amy);
        QVERIFY2(resolve.ok(), qPrintable(resolve.ok() ? QString() : resolve.error().message));
        auto resolved = desk.fixes.approve(resolve->id, resolve->changeSha256, "ok", kOrigin, fin);
        QVERIFY2(resolved.ok(), qPrintable(resolved.ok() ? QString() : resolved.error().message));
        QCOMPARE(resolved->status, FixStatus::Applied);
        auto requeue = desk.fixes.propose(
            proposal(FixKind::RequeueMessage, "stripe:evt_req", "order arrives later"), amy);
        QVERIFY(requeue.ok());
        auto requeued = desk.fixes.approve(requeue->id, requeue->changeSha256, "go", kOrigin, fox);
        QVERIFY2(requeued.ok(), qPrintable(requeued.ok() ? QString() : requeued.error().message));
        QCOMPARE(requeued->status, FixStatus::Applied);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'skipped'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'pending'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM dead_letters"), 3);

        f.clock.advance(1000);
        auto after = stuck.load({}, amy);
        QVERIFY(after.ok());
        QVERIFY(stuckOf(*after, "stripe:evt_res").isEmpty());
        QVERIFY(stuckOf(*after, "stripe:evt_req").isEmpty());
        const auto still = stuckOf(*after, "stripe:evt_dead");
        QCOMPARE(still.size(), 1);
        QCOMPARE(still.first().kind, StuckKind::DeadLetter);
        QCOMPARE(still.first().status, QStringLiteral("dead"));
        QCOMPARE(after->counts.value(StuckKind::DeadLetter), 1);
        QCOMPARE(after->counts.value(StuckKind::PendingMessage), 0);
        QCOMPARE(stuck.counts()->value(StuckKind::DeadLetter), 1);
        QCOMPARE(stuck.counts()->value(StuckKind::PendingMessage), 0);
        QCOMPARE(dashboardStuck(f, "dead_letter"), 1);
        QCOMPARE(dashboardStuck(f, "pending_message"), 0);
        StuckFilter onlyDead;
        onlyDead.kinds = {StuckKind::DeadLetter};
        QCOMPARE(stuck.load(onlyDead, amy)->records.size(), 1);

        // No worker picks the requeued message up: past the threshold since the requeue, it
        // is a stuck pending message (not a dead letter), waiting since the requeue.
        const qint64 requeuedAt =
            f.count("SELECT requeued_at FROM dead_letters WHERE callback_id = 'stripe:evt_req'");
        f.clock.advance(301 * 1000);
        auto later = stuck.load({}, amy);
        QVERIFY(later.ok());
        const auto waiting = stuckOf(*later, "stripe:evt_req");
        QCOMPARE(waiting.size(), 1);
        QCOMPARE(waiting.first().kind, StuckKind::PendingMessage);
        QCOMPARE(waiting.first().status, QStringLiteral("pending"));
        QCOMPARE(waiting.first().sinceMs, requeuedAt);
        QVERIFY(stuckOf(*later, "stripe:evt_res").isEmpty());
        QCOMPARE(later->counts.value(StuckKind::DeadLetter), 1);
        QCOMPARE(dashboardStuck(f, "pending_message"), 1);

        // When it dies again it is a dead letter again, and stuck again.
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(stuck.counts()->value(StuckKind::DeadLetter), 2);
        QCOMPARE(stuck.counts()->value(StuckKind::PendingMessage), 0);
        QCOMPARE(dashboardStuck(f, "dead_letter"), 2);
    }

    void badProposalsChangeNothing_data() { addEngineRows(); }
    void badProposalsChangeNothing()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        QCOMPARE(desk.fixes.propose(proposal("delete_everything", "x"), amy).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(
            desk.fixes.propose(proposal(FixKind::ConfirmPayment, "' OR 1=1 --"), amy).error().code,
            ErrorCode::NotFound);
        FixProposal noReason = proposal(FixKind::ConfirmPayment, "o-1");
        noReason.reasonCode = QString();
        QCOMPARE(desk.fixes.propose(noReason, amy).error().code, ErrorCode::Invalid);
        QCOMPARE(
            desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-1", "  "), amy).error().code,
            ErrorCode::Invalid);
        QCOMPARE(desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-1"), aud).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(desk.fixes.propose(proposal(FixKind::ConfirmPayment, "o-1"), adm).error().code,
                 ErrorCode::Forbidden);
        QCOMPARE(desk.fixes.approve(999, "x", "", kOrigin, fin).error().code, ErrorCode::NotFound);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"), 7);
        // Reading the queue is for staff roles only.
        QCOMPARE(desk.fixes.list({}, Actor::system("x")).error().code, ErrorCode::Forbidden);
        QVERIFY(desk.fixes.list({}, aud).ok());
    }
};

QTEST_GUILESS_MAIN(TstFixes)
#include "tst_fixes.moc"
