// An order's timeline shows every attempt of the worker that did not complete — a refund that
// arrived before its capture and failed twice shows both failures, with their numbers, worker
// and error, before it completed; an attempt lost with its worker shows as such — and the
// dossier says the same. At one instant a callback's outcome follows the transition it caused,
// before a later transition its result led to; entries of one kind follow their row ids.
// On every engine where the engine runs.

#include "investigation/dossier.h"
#include "investigation/ordermodels.h"
#include "investigation/orderpicturequery.h"
#include "scenario.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;
using P = StripeEvents::Params;

namespace {

const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};

qsizetype indexOf(const QList<TimelineEntry> &t, TimelineKind kind, const QString &causeId,
                  int attempt = 0)
{
    for (qsizetype i = 0; i < t.size(); ++i)
        if (t[i].kind == kind && t[i].causeId == causeId && t[i].attempt == attempt)
            return i;
    return -1;
}

qsizetype transitionTo(const QList<TimelineEntry> &t, qint64 version)
{
    for (qsizetype i = 0; i < t.size(); ++i)
        if (t[i].kind == TimelineKind::Transition && t[i].version == version)
            return i;
    return -1;
}

} // namespace

class TstOrderAttempts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void timelineShowsEveryFailedAttempt_data() { addEngineRows(); }
    void timelineShowsEveryFailedAttempt()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-1", 45000, "KRW");
        f.pay("o-1", 1, "a1");
        const P p = f.params("o-1", "a1", 45000, "KRW", "evt_cap", "pi_k");
        P refund = p;
        refund.eventId = QStringLiteral("evt_ref");
        f.deliver(StripeEvents::chargeRefunded(refund));
        const qint64 first = f.clock.nowMs();
        f.drain();
        f.clock.advance(60 * 1000);
        const qint64 second = f.clock.nowMs();
        f.drain();
        f.deliver(StripeEvents::paymentIntentSucceeded(p));
        f.drain();
        f.clock.advance(60 * 1000);
        QCOMPARE(f.drain().completed, 1);

        auto picture = OrderPictureQuery(*f.orders).load("o-1", kAgent);
        QVERIFY2(picture.ok(), qPrintable(picture.ok() ? QString() : picture.error().message));
        QCOMPARE(picture->attempts.size(), 2);
        const QList<TimelineEntry> &t = picture->timeline;
        const QString ref = QStringLiteral("stripe:evt_ref");
        const qsizetype received = indexOf(t, TimelineKind::CallbackReceived, ref);
        const qsizetype one = indexOf(t, TimelineKind::WorkerAttempt, ref, 1);
        const qsizetype two = indexOf(t, TimelineKind::WorkerAttempt, ref, 2);
        const qsizetype outcome = indexOf(t, TimelineKind::MessageOutcome, ref);
        QVERIFY(received >= 0 && one >= 0 && two >= 0 && outcome >= 0);
        QVERIFY(received < one);
        QVERIFY(one < two);
        QVERIFY(two < outcome);
        QCOMPARE(t[outcome].toState, QStringLiteral("completed"));
        QCOMPARE(std::count_if(
                     t.begin(), t.end(),
                     [](const TimelineEntry &e) { return e.kind == TimelineKind::WorkerAttempt; }),
                 2);
        for (const qsizetype i : {one, two}) {
            QCOMPARE(t[i].at, i == one ? first : second);
            QCOMPARE(t[i].toState, QStringLiteral("failed"));
            QCOMPARE(t[i].actor, QStringLiteral("worker:test/1"));
            QCOMPARE(t[i].detail, QStringLiteral("refund of pi_k arrived before its capture"));
            QVERIFY(t[i].refused); // marked like a refusal
        }
        QCOMPARE(TimelineModel::describe(t[one]),
                 QStringLiteral("Worker attempt 1 failed; retry scheduled"));
        QCOMPARE(TimelineModel::detailText(t[two], {}),
                 QStringLiteral("refund of pi_k arrived before its capture"));

        // The dossier is built from the same timeline and says the same.
        const QString dossier = Dossier::html(*picture, QStringLiteral("agent"), f.clock.nowMs());
        QVERIFY(dossier.contains(QStringLiteral("Worker attempt 1 failed; retry scheduled")));
        QVERIFY(dossier.contains(QStringLiteral("Worker attempt 2 failed; retry scheduled")));
        QVERIFY(dossier.contains(QStringLiteral("worker:test/1")));
    }

    // A worker dies holding the message: the order shows the lost attempt under its name.
    void timelineShowsAnAttemptLostWithItsWorker_data() { addEngineRows(); }
    void timelineShowsAnAttemptLostWithItsWorker()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-2", 2100);
        f.pay("o-2", 1, "a1");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("o-2", "a1", 2100, "USD", "evt_ok", "pi_2")));
        QVERIFY(MessageStore(*f.orders, f.clock).claim(QStringLiteral("worker:dead/1"), 5, 30000));
        f.clock.advance(31 * 1000);
        QCOMPARE(f.drain().completed, 1);

        auto picture = OrderPictureQuery(*f.orders).load("o-2", kAgent);
        QVERIFY(picture.ok());
        const QList<TimelineEntry> &t = picture->timeline;
        const qsizetype lost = indexOf(t, TimelineKind::WorkerAttempt, "stripe:evt_ok", 1);
        QVERIFY(lost >= 0);
        QCOMPARE(t[lost].toState, QStringLiteral("lease_expired"));
        QCOMPARE(t[lost].actor, QStringLiteral("worker:dead/1"));
        QVERIFY(t[lost].refused);
        QVERIFY(lost < indexOf(t, TimelineKind::MessageOutcome, "stripe:evt_ok"));
        QCOMPARE(TimelineModel::describe(t[lost]),
                 QStringLiteral("Worker attempt 1 lost: its worker stopped, the lease expired"));
    }

    // The checkout rolls a failed order back within the millisecond its failure was processed
    // (ord-2026-000006 of the demo): v3 (the callback), the callback's outcome, then v4.
    void outcomeFollowsTheTransitionItsCallbackCaused_data() { addEngineRows(); }
    void outcomeFollowsTheTransitionItsCallbackCaused()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("o-6", 5000, "EUR");
        f.pay("o-6", 1, "a1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("o-6", "a1", 5000, "EUR", "evt_fail", "pi_6")));
        QCOMPARE(f.drain().completed, 1);
        QVERIFY(f.service->rollback("o-6", 3, CauseKind::Request, "rb-6", Actor::platform(),
                                    "new attempt"));
        auto picture = OrderPictureQuery(*f.orders).load("o-6", kAgent);
        QVERIFY(picture.ok());
        const QList<TimelineEntry> &t = picture->timeline;
        const qsizetype v3 = transitionTo(t, 3);
        const qsizetype v4 = transitionTo(t, 4);
        const qsizetype outcome = indexOf(t, TimelineKind::MessageOutcome, "stripe:evt_fail");
        QVERIFY(v3 >= 0 && v4 >= 0 && outcome >= 0);
        QCOMPARE(t[v3].at, t[v4].at); // one instant
        QCOMPARE(t[outcome].at, t[v4].at);
        QCOMPARE(t[v3].causeId, QStringLiteral("stripe:evt_fail"));
        QCOMPARE(outcome, v3 + 1);
        QVERIFY(outcome < v4);
    }

    // At one instant a capture's transitions, outcome and money stay together, before another
    // message's failed attempt of the same millisecond (ord-2026-000026 of the demo: the
    // capture at v3/v4 and its credit, the early refund's fifth attempt).
    void callbackEffectsFollowTheirTransition()
    {
        OrderPicture p;
        p.order.orderId = QStringLiteral("o-c");
        for (const qint64 v : {3, 4}) {
            OrderTransition t;
            t.id = 10 + v;
            t.newVersion = v;
            t.causeKind = QStringLiteral("callback");
            t.causeId = QStringLiteral("cb-cap");
            t.createdAt = 700;
            p.transitions << t;
        }
        CallbackMessageRow refund;
        refund.id = 1;
        refund.callbackId = QStringLiteral("cb-ref");
        refund.status = QStringLiteral("failed");
        refund.receivedAt = 100;
        refund.updatedAt = 700;
        CallbackMessageRow capture;
        capture.id = 2;
        capture.callbackId = QStringLiteral("cb-cap");
        capture.status = QStringLiteral("completed");
        capture.receivedAt = 600;
        capture.finishedAt = 700;
        p.messages << refund << capture;
        CallbackAttemptRow fifth;
        fifth.id = 5;
        fifth.messageId = 1;
        fifth.callbackId = QStringLiteral("cb-ref");
        fifth.attempt = 5;
        fifth.outcome = QStringLiteral("failed");
        fifth.endedAt = 700;
        p.attempts << fifth;
        LedgerRow credit;
        credit.id = 1;
        credit.kind = QStringLiteral("payment_credit");
        credit.callbackId = QStringLiteral("cb-cap");
        credit.createdAt = 700;
        p.ledger << credit;
        QStringList order;
        for (const TimelineEntry &e : buildTimeline(p))
            if (e.at == 700)
                order << QStringLiteral("%1:%2").arg(int(e.kind)).arg(e.causeId);
        const auto name = [](TimelineKind k, const char *cause) {
            return QStringLiteral("%1:%2").arg(int(k)).arg(QLatin1String(cause));
        };
        QCOMPARE(order, (QStringList{name(TimelineKind::Transition, "cb-cap"),
                                     name(TimelineKind::Transition, "cb-cap"),
                                     name(TimelineKind::MessageOutcome, "cb-cap"),
                                     name(TimelineKind::Ledger, "cb-cap"),
                                     name(TimelineKind::WorkerAttempt, "cb-ref"),
                                     name(TimelineKind::MessageOutcome, "cb-ref")}));
    }

    // Entries of one kind at one instant follow their row ids, whatever order they came in.
    void equalTimesFollowRowIds()
    {
        OrderPicture p;
        p.order.orderId = QStringLiteral("o-t");
        p.messages << CallbackMessageRow{};
        p.messages[0].id = 1;
        p.messages[0].callbackId = QStringLiteral("cb-1");
        p.messages[0].status = QStringLiteral("completed");
        p.messages[0].receivedAt = 100;
        p.messages[0].finishedAt = 500;
        for (const qint64 id : {9, 4}) {
            CallbackAttemptRow a;
            a.id = id;
            a.messageId = 1;
            a.callbackId = QStringLiteral("cb-1");
            a.attempt = int(id);
            a.outcome = QStringLiteral("failed");
            a.endedAt = 300;
            p.attempts << a;
            LedgerRow l;
            l.id = id;
            l.kind = QStringLiteral("capture");
            l.createdAt = 300;
            p.ledger << l;
        }
        const QList<TimelineEntry> t = buildTimeline(p);
        QList<qint64> attempts;
        QList<qint64> ledger;
        for (const TimelineEntry &e : t) {
            if (e.kind == TimelineKind::WorkerAttempt)
                attempts << e.rowId;
            if (e.kind == TimelineKind::Ledger)
                ledger << e.rowId;
        }
        QCOMPARE(attempts, (QList<qint64>{4, 9}));
        QCOMPARE(ledger, (QList<qint64>{4, 9}));
        QCOMPARE(t.first().kind, TimelineKind::CallbackReceived);
        QCOMPARE(t.last().kind, TimelineKind::MessageOutcome);
    }
};

QTEST_MAIN(TstOrderAttempts)
#include "tst_order_attempts.moc"
