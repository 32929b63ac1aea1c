// What the fix rule offers for a target (fixKindsOffered, fixOffers), on SQLite, PostgreSQL and
// MariaDB: the same rule propose enforces, each kind for the targets it fits, and a message under
// a worker's live lease (or one that ended within the clock-skew allowance) offered nothing and
// refused, then offered and fixed once the lease is past.

#include "enginefixture.h"
#include "fixes/fixrules.h"
#include "fixes/fixservice.h"
#include "fixes/fixsettings.h"
#include "fixtestsupport.h"
#include "investigation/stuckquery.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using namespace OncePay::Test::FixSupport;

class TstFixOffers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The offer (fixKindsOffered, what the console shows for a selection) answers from the
    // same rule propose enforces. What it offered before the rule moved to the service is
    // kept, except a processing message under a live lease (or with no lease): no requeue,
    // no resolve. With no clock-skew allowance a lease runs out strictly before `now`, as the
    // stuck list's expired leases and the worker's reclaim count it.
    void offerAnswersFromTheServiceRule()
    {
        const qint64 now = 1767225600000;
        const FixClock strict{.nowMs = now, .leaseSkewMs = 0};
        const QStringList both{FixKind::RequeueMessage, FixKind::ResolveMessage};
        const QStringList resolve{FixKind::ResolveMessage};
        const QStringList none;
        const auto offered = [strict](const QList<FixTargetState> &targets) {
            return fixKindsOffered(targets, strict);
        };
        const QString m = QStringLiteral("message");
        QCOMPARE(offered({}), none);
        QCOMPARE(offered({target(m, "dead")}), both);
        QCOMPARE(offered({target(m, "failed")}), both);
        QCOMPARE(offered({target(m, "pending")}), resolve);
        QCOMPARE(offered({target(m, "completed")}), none);
        QCOMPARE(offered({target(m, "skipped")}), none);
        QCOMPARE(offered({target(m, "processing", now - 1)}), both);
        QCOMPARE(offered({target(m, "processing", now)}), none);
        QCOMPARE(offered({target(m, "processing", now + 60000)}), none);
        QCOMPARE(offered({target(m, "processing")}), none);
        // Several messages at once: what fits every one of them.
        QCOMPARE(offered({target(m, "dead"), target(m, "failed"), target(m, "processing", 1)}),
                 both);
        QCOMPARE(offered({target(m, "dead"), target(m, "pending")}), resolve);
        QCOMPARE(offered({target(m, "dead"), target(m, "processing", now + 1)}), none);
        QCOMPARE(offered({target(m, "dead"), target(m, "completed")}), none);

        const QString o = QStringLiteral("order");
        QCOMPARE(offered({target(o, "paid_unconfirmed")}),
                 (QStringList{FixKind::ConfirmPayment, FixKind::RollbackPayment}));
        QCOMPARE(offered({target(o, "payment_failed")}), QStringList{FixKind::RollbackPayment});
        for (const char *state : {"paying", "pending_payment", "paid", "cancelled", "refunded"})
            QCOMPARE(offered({target(o, state)}), none);
        QCOMPARE(offered({target(o, "paid_unconfirmed"), target(o, "paid_unconfirmed")}), none);

        const QString d = QStringLiteral("discrepancy");
        QCOMPARE(offered({target(d, "open", {}, "fee_mismatch")}),
                 (QStringList{FixKind::AdjustFee, FixKind::WriteOff}));
        QCOMPARE(offered({target(d, "open", {}, "amount_mismatch")}),
                 QStringList{FixKind::WriteOff});
        QCOMPARE(offered({target(d, "resolved", {}, "fee_mismatch")}), none);
        QCOMPARE(offered({target(d, "open", {}, "fee_mismatch"), target(d, "open", {}, "x")}),
                 none);

        const QString period = QStringLiteral("period");
        QCOMPARE(offered({target(period, "open")}), QStringList{FixKind::ClosePeriod});
        QCOMPARE(offered({target(period, "open"), target(period, "open")}), none);

        // Targets of different kinds take nothing together.
        QCOMPARE(offered({target(m, "dead"), target(o, "paid_unconfirmed")}), none);

        // Each kind is refused for a target of another kind, and for an unknown kind.
        QCOMPARE(
            fixFits(FixKind::RequeueMessage, target(o, "paid_unconfirmed"), strict).error().code,
            ErrorCode::Invalid);
        QCOMPARE(fixFits("delete_everything", target(m, "dead"), strict).error().code,
                 ErrorCode::Invalid);
        const auto live = fixFits(FixKind::ResolveMessage, target(m, "processing", now), strict);
        QVERIFY(!live.ok());
        QCOMPARE(live.error().code, ErrorCode::Conflict);
        QCOMPARE(live.error().reason, QStringLiteral("not_applicable"));
        QVERIFY2(live.error().message.contains("under a live lease"),
                 qPrintable(live.error().message));
    }

    // The order page's offer: each kind for the messages it fits (fixOffers, EachTarget), not
    // only the kinds that fit all of them. One pending and one dead message: requeue for the
    // dead one, resolve for both.
    void eachKindIsOfferedForTheTargetsItFits()
    {
        const qint64 now = 1767225600000;
        const FixClock at{.nowMs = now, .leaseSkewMs = 30000};
        const QString m = QStringLiteral("message");
        const QList<FixTargetState> order{target(m, "pending"), target(m, "dead"),
                                          target(m, "completed"),
                                          target(m, "processing", now - 1000)};
        const auto each = fixOffers(order, at, FixCover::EachTarget);
        QCOMPARE(each.size(), 2);
        QCOMPARE(each.at(0).kind, FixKind::RequeueMessage);
        QCOMPARE(each.at(0).targets, QList<int>{1});
        QCOMPARE(each.at(1).kind, FixKind::ResolveMessage);
        QCOMPARE(each.at(1).targets, (QList<int>{0, 1}));
        // Taken as a whole (the stuck page), the same selection takes nothing; the two that
        // fit take resolve only.
        QVERIFY(fixOffers(order, at, FixCover::EveryTarget).isEmpty());
        QCOMPARE(fixKindsOffered({order.at(0), order.at(1)}, at),
                 QStringList{FixKind::ResolveMessage});
        // Once the lease is past the allowance, the processing message joins both.
        const auto later = fixOffers(order, FixClock{.nowMs = now + 30000, .leaseSkewMs = 30000},
                                     FixCover::EachTarget);
        QCOMPARE(later.at(0).targets, (QList<int>{1, 3}));
        QCOMPARE(later.at(1).targets, (QList<int>{0, 1, 3}));
        // Kinds that take one target at a time are not offered for several.
        const QString o = QStringLiteral("order");
        QVERIFY(fixOffers({target(o, "paid_unconfirmed"), target(o, "payment_failed")}, at,
                          FixCover::EachTarget)
                    .isEmpty());
        QVERIFY(fixOffers({}, at, FixCover::EachTarget).isEmpty());
    }

    // One rule for the offer and the refusal: a message a worker holds under a live lease is
    // offered neither requeue nor resolve, and propose refuses both with the very error the
    // rule gives; so is one whose lease ended within the clock-skew allowance (the worker's
    // clock may be behind: it may still hold it). Once its lease is past its end by more than
    // the allowance (the worker died), both are offered, and a requeue is proposed, approved
    // and applied.
    void liveLeaseIsNeitherOfferedNorProposed_data() { addEngineRows(); }
    void liveLeaseIsNeitherOfferedNorProposed()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        Desk desk(f);
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-busy", "a1", 2100, "USD", "evt_busy", "pi_busy")));
        f.clock.advance(10 * 60 * 1000);
        // The allowance as migration 0007 sets it.
        QCOMPARE(judgedAt(f).leaseSkewMs, std::optional<qint64>(30000));
        // A worker claimed it six minutes ago and holds its lease for one more minute.
        const qint64 leaseUntil = f.clock.nowMs() + 60 * 1000;
        QVERIFY(claimed(f, "stripe:evt_busy", leaseUntil));

        const StuckQuery stuck(*f.orders, f.clock);
        // Refused while the lease is live, and again while it ended within the allowance.
        int refusals = 0;
        for (const char *phase : {"under a live lease", "within the clock-skew allowance"}) {
            auto held = stuck.load({}, amy);
            QVERIFY(held.ok());
            const auto rows = stuckOf(*held, "stripe:evt_busy");
            QCOMPARE(rows.size(), 1);
            QVERIFY(rows.first().leaseUntilMs == leaseUntil);
            QCOMPARE(fixKindsOffered({targetOf(rows.first())}, judgedAt(f)), QStringList());
            for (const QString &kind : {FixKind::RequeueMessage, FixKind::ResolveMessage}) {
                const auto why = fixFits(kind, targetOf(rows.first()), judgedAt(f));
                QVERIFY(!why.ok());
                auto refused = desk.fixes.propose(proposal(kind, "stripe:evt_busy"), amy);
                QVERIFY(!refused.ok());
                QCOMPARE(refused.error().code, why.error().code);
                QCOMPARE(refused.error().reason, why.error().reason);
                QCOMPARE(refused.error().message, why.error().message);
                QVERIFY2(refused.error().message.contains(phase),
                         qPrintable(refused.error().message));
                ++refusals;
            }
            QCOMPARE(f.count("SELECT COUNT(*) FROM fix_requests"), 0);
            QCOMPARE(f.count("SELECT COUNT(*) FROM audit_outbox WHERE action = 'fix.refused'"
                             " AND actor = 'amy'"),
                     refusals);
            // The lease runs out, but this clock is past it by only a second.
            f.clock.advance(61 * 1000);
        }
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_busy' AND status = 'processing' AND lease_until = ?",
                         {leaseUntil}),
                 1);

        // Past the allowance: the worker died.
        f.clock.advance(30 * 1000);
        auto lapsed = stuck.load({}, amy);
        QVERIFY(lapsed.ok());
        const auto rows = stuckOf(*lapsed, "stripe:evt_busy");
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().kind, StuckKind::ExpiredLease);
        QCOMPARE(fixKindsOffered({targetOf(rows.first())}, judgedAt(f)),
                 (QStringList{FixKind::RequeueMessage, FixKind::ResolveMessage}));
        QVERIFY(fixFits(FixKind::ResolveMessage, targetOf(rows.first()), judgedAt(f)).ok());
        auto fix = desk.fixes.propose(proposal(FixKind::RequeueMessage, "stripe:evt_busy"), amy);
        QVERIFY2(fix.ok(), qPrintable(fix.ok() ? QString() : fix.error().message));
        auto applied = desk.fixes.approve(fix->id, fix->changeSha256, "worker died", kOrigin, fin);
        QVERIFY2(applied.ok(), qPrintable(applied.ok() ? QString() : applied.error().message));
        QCOMPARE(applied->status, FixStatus::Applied);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id ="
                         " 'stripe:evt_busy' AND status = 'pending' AND attempts = 0"
                         " AND lease_until IS NULL"),
                 1);
    }
};

QTEST_GUILESS_MAIN(TstFixOffers)
#include "tst_fix_offers.moc"
