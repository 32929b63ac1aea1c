// The clock-skew allowance for a lease (fixes.lease_skew_ms, DESIGN.md §6) on SQLite,
// PostgreSQL and MariaDB: a lease counts as expired for a fix only past its end by more than
// the allowance, in the offer, the proposal and the approval alike; a bad setting refuses; a
// target that moved since the proposal fails as moved whatever the rule says of it now.

#include "enginefixture.h"
#include "fixtestsupport.h"
#include "settings/settingsservice.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

class TstFixLeaseSkew : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A lease end was written by its worker's clock: a lease counts as expired for a fix only
    // once it is past its end by more than the clock-skew allowance (fixes.lease_skew_ms), in
    // the offer and in the refusal alike; without a valid allowance, never. The page's timer
    // asks again at the first millisecond past the allowance.
    void aLeaseCountsAsExpiredOnlyPastTheSkewAllowance()
    {
        const qint64 now = 1767225600000;
        const qint64 skew = 30000;
        const FixClock at{.nowMs = now, .leaseSkewMs = skew};
        const QStringList both{FixKind::RequeueMessage, FixKind::ResolveMessage};
        const QString m = QStringLiteral("message");
        QCOMPARE(fixKindsOffered({target(m, "processing", now - skew - 1)}, at), both);
        QCOMPARE(fixKindsOffered({target(m, "processing", now - skew)}, at), QStringList());
        QCOMPARE(fixKindsOffered({target(m, "processing", now - 1)}, at), QStringList());
        QCOMPARE(fixKindsOffered({target(m, "processing", now + 60000)}, at), QStringList());
        // Dead, failed and pending messages do not depend on the allowance.
        QCOMPARE(fixKindsOffered({target(m, "dead")}, at), both);
        QCOMPARE(fixKindsOffered({target(m, "dead")}, FixClock{.nowMs = now}), both);

        const auto within =
            fixFits(FixKind::RequeueMessage, target(m, "processing", now - 12000), at);
        QVERIFY(!within.ok());
        QCOMPARE(within.error().code, ErrorCode::Conflict);
        QCOMPARE(within.error().reason, QStringLiteral("lease_within_skew"));
        QCOMPARE(within.error().message,
                 QStringLiteral("message t-processing is processing under a lease that ended "
                                "12000 ms ago, within the clock-skew allowance of 30000 ms "
                                "(fixes.lease_skew_ms); requeue_message takes it once its lease "
                                "is past its end by more than that"));

        // No valid allowance: an ended lease is never judged expired.
        const FixClock unknown{.nowMs = now};
        QCOMPARE(fixKindsOffered({target(m, "processing", now - 3600 * 1000)}, unknown),
                 QStringList());
        const auto unjudged =
            fixFits(FixKind::ResolveMessage, target(m, "processing", now - 3600 * 1000), unknown);
        QVERIFY(!unjudged.ok());
        QCOMPARE(unjudged.error().code, ErrorCode::Invalid);
        QCOMPARE(unjudged.error().reason, QStringLiteral("bad_setting"));
        QVERIFY(!fixOfferChangesAt({target(m, "processing", now + 1)}, unknown));

        // When the offer changes by the clock alone: the earliest lease's end plus the
        // allowance, plus one millisecond; nothing for leases already past it or for rows
        // without a lease.
        QCOMPARE(fixOfferChangesAt({target(m, "processing", now + 5000),
                                    target(m, "processing", now - 1000), target(m, "dead"),
                                    target(m, "processing", now - skew - 1)},
                                   at),
                 std::optional<qint64>(now - 1000 + skew + 1));
        QVERIFY(
            !fixOfferChangesAt({target(m, "processing", now - skew - 1), target(m, "dead")}, at));
        const qint64 changes = *fixOfferChangesAt({target(m, "processing", now - 1000)}, at);
        QCOMPARE(fixKindsOffered({target(m, "processing", now - 1000)},
                                 FixClock{.nowMs = changes - 1, .leaseSkewMs = skew}),
                 QStringList());
        QCOMPARE(fixKindsOffered({target(m, "processing", now - 1000)},
                                 FixClock{.nowMs = changes, .leaseSkewMs = skew}),
                 both);
    }

    // The approving host judges the lease again with its own clock: a requeue proposed where the
    // lease was past the allowance is not applied where it is not yet (that host's clock is
    // behind). The approval is refused with the rule's error and audited, nothing changes (no
    // decision, the message as it was, the proposal still open), and the same reviewer's
    // approval is taken once that clock too is past the allowance.
    void aLeaseWithinTheAllowanceIsNotApplied_data() { addEngineRows(); }
    void aLeaseWithinTheAllowanceIsNotApplied()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-skew", "a1", 2100, "USD", "evt_skew", "pi_skew")));
        f.clock.advance(10 * 60 * 1000);
        const qint64 leaseUntil = f.clock.nowMs() - 40 * 1000; // ended 40 s ago by this clock
        QVERIFY(claimed(f, "stripe:evt_skew", leaseUntil));
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_skew"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));

        // The reviewer's host: its clock is 25 s behind, so the lease ended 15 s ago there.
        ManualClock behind(f.clock.nowMs() - 25 * 1000);
        const FixService slow(*f.orders, behind);
        auto refused = slow.approve(fix->id, fix->changeSha256, "worker died", kOrigin, fin);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Conflict);
        QCOMPARE(refused.error().reason, QStringLiteral("lease_within_skew"));
        QVERIFY2(refused.error().message.contains("ended 15000 ms ago, within the clock-skew "
                                                  "allowance of 30000 ms"),
                 qPrintable(refused.error().message));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_skew' AND status = 'processing' AND lease_until = ?",
                         {leaseUntil}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"
                         " AND actor = 'fin' AND reason LIKE '%within the clock-skew allowance%'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action IN ('fix.approved',"
                         " 'fix.applied', 'fix.failed')"),
                 0);

        // Past the allowance on that host too: approved and applied.
        behind.advance(16 * 1000);
        auto applied = slow.approve(fix->id, fix->changeSha256, "worker died", kOrigin, fin);
        QVERIFY2(applied.ok(), qPrintable(applied.ok() ? QString() : applied.error().message));
        QCOMPARE(applied->status, FixStatus::Applied);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_skew' AND status = 'pending' AND lease_until IS NULL"),
                 1);
        // The dead worker's attempt is on the record, as a worker taking the message over
        // records it: lease_expired, under its name, from its claim to its lease's end.
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_attempts a JOIN callback_messages m ON"
                         " m.id = a.message_id WHERE m.callback_id = 'stripe:evt_skew' AND"
                         " a.outcome = 'lease_expired' AND a.worker_id = 'worker:slow/1' AND"
                         " a.ended_at = ? AND a.error = ?",
                         {leaseUntil, QStringLiteral("lease expired before the worker finished;"
                                                     " taken over by fix #%1")
                                          .arg(fix->id)}),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_attempts"), 1);
    }

    // The target as the proposal saw it is compared first: a message a worker claimed again
    // after the proposal (more attempts, a later update) has moved, even while its new lease
    // ended within the clock-skew allowance. The approval fails as moved (Stale target_moved,
    // the approval and the failure recorded, fix.failed audited, the proposal no longer open so
    // a new one can be made), not refused as "try later" with the proposal left open.
    void aMessageClaimedAgainAfterTheProposalHasMoved_data() { addEngineRows(); }
    void aMessageClaimedAgainAfterTheProposalHasMoved()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-again", "a1", 2100, "USD", "evt_again", "pi_again")));
        f.clock.advance(10 * 60 * 1000);
        QVERIFY(claimed(f, "stripe:evt_again", f.clock.nowMs() - 40 * 1000));
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_again"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));

        // A worker claims it again: one more attempt, updated a minute ago, and its new lease
        // ended 10 s ago, within the allowance of 30 s.
        const qint64 leaseUntil = f.clock.nowMs() - 10 * 1000;
        auto n = Sql::update(f.orders->db(),
                             "UPDATE callback_messages SET attempts = attempts + 1,"
                             " lease_owner = 'worker:fast/2', lease_until = ?, updated_at = ?"
                             " WHERE callback_id = ?",
                             {leaseUntil, f.clock.nowMs() - 60 * 1000, "stripe:evt_again"});
        QVERIFY(n && *n == 1);
        QCOMPARE(fixFits(FixKind::RequeueMessage,
                         target(QStringLiteral("message"), "processing", leaseUntil), judgedAt(f))
                     .error()
                     .reason,
                 QStringLiteral("lease_within_skew"));

        auto failed = desk.fixes.approve(fix->id, fix->changeSha256, "worker died", kOrigin, fin);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().code, ErrorCode::Stale);
        QCOMPARE(failed.error().reason, QStringLiteral("target_moved"));
        QVERIFY2(failed.error().message.contains("recorded as failed"),
                 qPrintable(failed.error().message));
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'failed'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open'"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions WHERE decision = 'approve'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.failed'"
                         " AND actor = 'fin'"),
                 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"), 0);
        // The message as the worker left it.
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_again' AND status = 'processing' AND lease_until = ?",
                         {leaseUntil}),
                 1);
    }

    // fixes.lease_skew_ms is read, validated and defaulted in one place: a value that is no
    // whole number from 0 to an hour refuses a message fix (propose and approve) with a clear
    // error, audited, and changes nothing; with no row the default (30 s) holds; the settings
    // service refuses to store such a value; 0 judges strictly.
    void aBadSkewSettingIsRefused_data() { addEngineRows(); }
    void aBadSkewSettingIsRefused()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-set", "a1", 2100, "USD", "evt_set", "pi_set")));
        for (int i = 0; i < 10; ++i) {
            f.drain();
            f.clock.advance(3600 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'dead'"), 1);
        auto open = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_set"), amy);
        QVERIFY2(open.ok(), qPrintable(open.ok() ? QString() : open.error().message));

        int refusals = 0;
        for (const char *bad : {"-1", "soon", "3600001", ""}) {
            QVERIFY(setSetting(f, FixSettings::LeaseSkewKey, bad));
            auto read = FixSettings::leaseSkewMs(*f.orders);
            QVERIFY(!read.ok());
            QCOMPARE(read.error().code, ErrorCode::Invalid);
            QCOMPARE(read.error().reason, QStringLiteral("bad_setting"));
            QCOMPARE(read.error().message,
                     QStringLiteral("ops setting fixes.lease_skew_ms is not a whole number from 0 "
                                    "to 3600000: '%1'")
                         .arg(bad));
            auto proposed =
                desk.fixes.propose(proposal(FixKind::ResolveMessage, "stripe:evt_set"), fay);
            QVERIFY(!proposed.ok());
            QCOMPARE(proposed.error().message, read.error().message);
            auto approved = desk.fixes.approve(open->id, open->changeSha256, "ok", kOrigin, fin);
            QVERIFY(!approved.ok());
            QCOMPARE(approved.error().reason, QStringLiteral("bad_setting"));
            QCOMPARE(approved.error().message, read.error().message);
            refusals += 2;
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"
                         " AND reason LIKE '%fixes.lease_skew_ms is not a whole number%'"),
                 refusals);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests WHERE status = 'open'"), 1);
        QCOMPARE(f.count("SELECT COUNT(*) FROM fix_decisions"), 0);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_set' AND status = 'dead'"),
                 1);

        // The settings service stores only a whole number from 0 to an hour.
        SettingsService settings(*f.orders, f.clock);
        QCOMPARE(settings.set(FixSettings::LeaseSkewKey, "-5", "typo", adm).error().code,
                 ErrorCode::Invalid);
        QCOMPARE(settings.set(FixSettings::LeaseSkewKey, "3600001", "an hour and more", adm)
                     .error()
                     .code,
                 ErrorCode::Invalid);
        QVERIFY(settings.set(FixSettings::LeaseSkewKey, "0", "our hosts share one NTP", adm).ok());
        QCOMPARE(judgedAt(f).leaseSkewMs, std::optional<qint64>(0));
        // No row: the default.
        QVERIFY(Sql::update(f.orders->db(), "DELETE FROM ops_settings WHERE setting_key = ?",
                            {FixSettings::LeaseSkewKey})
                    .ok());
        QCOMPARE(judgedAt(f).leaseSkewMs, std::optional<qint64>(FixSettings::kLeaseSkewDefaultMs));
        auto applied = desk.fixes.approve(open->id, open->changeSha256, "ok", kOrigin, fin);
        QVERIFY2(applied.ok(), qPrintable(applied.ok() ? QString() : applied.error().message));
        QCOMPARE(applied->status, FixStatus::Applied);
    }
};

QTEST_GUILESS_MAIN(TstFixLeaseSkew)
#include "tst_fix_lease_skew.moc"
