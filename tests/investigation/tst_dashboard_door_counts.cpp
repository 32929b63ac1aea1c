// The dashboard's callbacks over time on every engine (issue 8): a channel's redelivery answered
// "already received" at the door is counted in callback_door_counts once per duplicate, per
// channel and five minutes, and shows as a duplicate absorbed; so does a stored callback the
// worker skipped as already applied or as a failure after the success. A stale callback is
// refused as stale, not absorbed; an event that is not a payment result is neither received nor
// absorbed. Buckets and range boundaries: from inclusive, to exclusive. A count that cannot be
// written changes no duplicate's answer.

#include "enginefixture.h"
#include "logcapture.h"

#include "db/migrator.h"
#include "db/sql.h"
#include "investigation/dashboardquery.h"
#include "simulator/simulator.h"

#include <QFile>
#include <QMap>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kMinute = 60 * 1000;
constexpr qint64 kHour = 60 * kMinute;
const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};

DashboardData load(EngineFixture &f, qint64 from, qint64 to)
{
    auto d = DashboardQuery(*f.orders, f.clock).load({from, to}, kAgent);
    if (!d)
        qFatal("dashboard: %s", qPrintable(d.error().message));
    return *d;
}

// The door's rows, "start+minutes:duplicates" from `base`, for one channel.
QStringList doorRows(EngineFixture &f, qint64 base)
{
    auto q =
        Sql::exec(f.orders->db(), "SELECT bucket_start_ms, duplicates FROM callback_door_counts"
                                  " WHERE channel = 'stripe' ORDER BY bucket_start_ms");
    if (!q)
        qFatal("door rows: %s", qPrintable(q.error().message));
    QStringList out;
    while (q->next())
        out << QStringLiteral("%1:%2")
                   .arg((q->value(0).toLongLong() - base) / kMinute)
                   .arg(q->value(1).toLongLong());
    return out;
}

MessageRow rowOf(EngineFixture &f, const QByteArray &body)
{
    const InboundRequest request = f.stripe(body);
    auto cb = f.ingest->verifyAndParse(QStringLiteral("stripe"), request);
    if (!cb)
        qFatal("verify: %s", qPrintable(cb.error().message));
    return f.ingest->messageRow(*cb, request);
}

} // namespace

class TstDashboardDoorCounts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Each duplicate of a payment result counts once at the door, in the five minutes it came
    // in; the dashboard's buckets sum them (five minutes, an hour) within [from, to).
    void duplicatesAreCountedPerBucketWithinTheRange_data() { addEngineRows(); }
    void duplicatesAreCountedPerBucketWithinTheRange()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const qint64 t0 = f.clock.nowMs(); // 2026-01-01T00:00:00Z
        f.createOrder("ord-a", 2112);
        f.pay("ord-a", 1, "req-a-1");
        const QByteArray paid = StripeEvents::paymentIntentSucceeded(
            f.params("ord-a", "req-a-1", 2112, "USD", "evt_a", "pi_a"));
        QCOMPARE(f.deliver(paid), IngestStatus::Stored);
        f.drain();
        for (const qint64 at : {kMinute, 2 * kMinute, 59 * kMinute, kHour, 2 * kHour - 1}) {
            f.clock.set(t0 + at);
            QCOMPARE(f.deliver(paid), IngestStatus::Duplicate);
        }
        QCOMPARE(doorRows(f, t0), QStringList({"0:2", "55:1", "60:1", "115:1"}));

        // Two hours in five-minute buckets: from is in, to is out.
        const DashboardData two = load(f, t0, t0 + 2 * kHour);
        QCOMPARE(two.bucketMs, 5 * kMinute);
        QCOMPARE(two.callbacks.size(), 24);
        QCOMPARE(two.callbacks[0].received, 1);
        QCOMPARE(two.callbacks[0].duplicatesAtDoor, 2);
        QCOMPARE(two.callbacks[0].duplicatesAbsorbed(), 2);
        QCOMPARE(two.callbacks[11].duplicatesAtDoor, 1);
        QCOMPARE(two.callbacks[12].duplicatesAtDoor, 1);
        QCOMPARE(two.callbacks[23].duplicatesAtDoor, 1);
        QCOMPARE(two.callbackTotals().duplicatesAbsorbed(), 5);
        QCOMPARE(two.callbackTotals().duplicatesSkipped, 0);
        QCOMPARE(load(f, t0, t0 + kHour).callbackTotals().duplicatesAtDoor, 3);
        QCOMPARE(load(f, t0 + kHour, t0 + 2 * kHour).callbackTotals().duplicatesAtDoor, 2);
        QCOMPARE(load(f, t0 + 5 * kMinute, t0 + kHour).callbackTotals().duplicatesAtDoor, 1);
        QCOMPARE(load(f, t0 + 2 * kHour, t0 + 3 * kHour).callbackTotals().duplicatesAtDoor, 0);
        const DashboardData before = load(f, t0 - kHour, t0);
        QCOMPARE(before.callbackTotals().duplicatesAtDoor + before.callbackTotals().received, 0);

        // A day in hour buckets: each hour sums its five-minute counts.
        const DashboardData day = load(f, t0, t0 + 24 * kHour);
        QCOMPARE(day.bucketMs, kHour);
        QCOMPARE(day.callbacks[0].duplicatesAtDoor, 3);
        QCOMPARE(day.callbacks[1].duplicatesAtDoor, 2);
        QCOMPARE(day.callbacks[2].duplicatesAtDoor, 0);
        QCOMPARE(day.callbackTotals().received, 1);

        // The range "up to the latest callback" ends with the latest stored one: the channel's
        // later retries do not move it.
        auto latest = DashboardQuery(*f.orders, f.clock).latestActivityMs();
        QVERIFY(latest.ok());
        QCOMPARE(*latest, t0);

        // The gateway's group commit: duplicates in one batch, even of a callback stored by
        // the same batch, count once each, together with the single path's.
        f.clock.set(t0 + 2 * kHour + 30 * 1000);
        const MessageRow fresh = rowOf(f, StripeEvents::paymentIntentSucceeded(
                                              f.params("ord-b", "r-b", 1, "USD", "evt_b", "pi_b")));
        const auto results = f.ingest->storeBatch({fresh, fresh, rowOf(f, paid), rowOf(f, paid)});
        QCOMPARE(results.size(), 4);
        QCOMPARE(results[0]->status, IngestStatus::Stored);
        for (int i = 1; i < 4; ++i)
            QCOMPARE(results[i]->status, IngestStatus::Duplicate);
        QCOMPARE(doorRows(f, t0), QStringList({"0:2", "55:1", "60:1", "115:1", "120:3"}));
        const DashboardData later = load(f, t0 + 2 * kHour, t0 + 3 * kHour);
        QCOMPARE(later.callbacks[0].duplicatesAtDoor, 3);
        QCOMPARE(later.callbacks[0].received, 1);
    }

    // The worker's second layer: a second report of an applied capture and a failure after
    // the success are absorbed; a stale success is refused as stale, never absorbed; an event
    // OncePay does not act on, or a "still pending" notice, is neither received nor absorbed,
    // even redelivered.
    void whatTheWorkerSkippedIsSorted_data() { addEngineRows(); }
    void whatTheWorkerSkippedIsSorted()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        const qint64 t0 = f.clock.nowMs();
        f.createOrder("ord-paid", 2112);
        f.pay("ord-paid", 1, "req-paid-1");
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_paid", "pi_paid")));
        f.drain();
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_paid_again", "pi_paid")));
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_paid_fail", "pi_paid")));
        f.drain();
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'skipped'"), 2);
        const DashboardData absorbed = load(f, t0, t0 + kHour);
        QCOMPARE(absorbed.callbackTotals().received, 3);
        QCOMPARE(absorbed.callbackTotals().duplicatesSkipped, 2);
        QCOMPARE(absorbed.callbackTotals().duplicatesAbsorbed(), 2);
        QCOMPARE(absorbed.callbackTotals().stale, 0);

        // Failed, rolled back, then the first attempt's late success: stale, money to refund.
        f.createOrder("ord-rb", 5000, "EUR");
        f.pay("ord-rb", 1, "req-rb-1");
        f.deliver(StripeEvents::paymentIntentFailed(
            f.params("ord-rb", "req-rb-1", 5000, "EUR", "evt_rb_fail", "pi_rb1")));
        f.drain();
        QVERIFY(f.service->rollback("ord-rb", 3, CauseKind::Request, "rb-1", Actor::platform(),
                                    "new attempt"));
        f.deliver(StripeEvents::paymentIntentSucceeded(
            f.params("ord-rb", "req-rb-1", 5000, "EUR", "evt_rb_late", "pi_rb1")));
        f.drain();
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE callback_id LIKE"
                         " '%evt_rb_late' AND result_reason LIKE 'stale:%flagged for refund'"),
                 1);
        const DashboardData stale = load(f, t0, t0 + kHour);
        QCOMPARE(stale.callbackTotals().received, 5);
        QCOMPARE(stale.callbackTotals().stale, 1);
        QCOMPARE(stale.callbackTotals().duplicatesAbsorbed(), 2);

        // Not payment results: stored (as skipped, or informational), redelivered, never
        // counted.
        const QByteArray created = StripeEvents::eventOfType(
            QStringLiteral("payment_intent.created"),
            f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_created", "pi_paid"));
        const QByteArray processing = StripeEvents::paymentIntentProcessing(
            f.params("ord-paid", "req-paid-1", 2112, "USD", "evt_processing", "pi_paid"));
        QCOMPARE(f.deliver(created), IngestStatus::Skipped);
        QCOMPARE(f.deliver(created), IngestStatus::Duplicate);
        QCOMPARE(f.deliver(processing), IngestStatus::Stored);
        QCOMPARE(f.deliver(processing), IngestStatus::Duplicate);
        f.drain();
        QCOMPARE(f.ingest->storeBatch({rowOf(f, created), rowOf(f, processing)}).size(), 2);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages WHERE status = 'skipped'"), 5);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_door_counts"), 0);
        const DashboardData other = load(f, t0, t0 + kHour);
        QCOMPARE(other.callbackTotals(), stale.callbackTotals());

        // Sorted by the outcome's code the worker keeps beside its words (result_code,
        // migration 0020), not by how the words begin: reworded, the counts stay.
        auto codeOf = [&](const char *event) {
            auto v = Sql::scalar(
                f.orders->db(),
                QStringLiteral("SELECT result_code FROM callback_messages WHERE"
                               " callback_id = ?"),
                QVariantList{QString(QStringLiteral("stripe:") + QLatin1String(event))});
            return v ? v->toString() : QString();
        };
        const QMap<QString, QString> codes{{"evt_paid", "applied"},
                                           {"evt_paid_again", "already_applied"},
                                           {"evt_paid_fail", "failure_after_success"},
                                           {"evt_rb_fail", "applied"},
                                           {"evt_rb_late", "stale"}};
        for (auto it = codes.cbegin(); it != codes.cend(); ++it)
            QCOMPARE(codeOf(qPrintable(it.key())), it.value());
        QVERIFY(Sql::update(f.orders->db(), "UPDATE callback_messages SET result_reason = 'x'"
                                            " WHERE status = 'skipped'")
                    .ok());
        QCOMPARE(load(f, t0, t0 + kHour).callbackTotals(), stale.callbackTotals());

        // Messages finished before 0020 get their code from their words (its second step,
        // which changes nothing run again).
        QVERIFY(Sql::update(f.orders->db(), "UPDATE callback_messages SET result_code = NULL,"
                                            " result_reason = CASE callback_id"
                                            " WHEN 'stripe:evt_paid_again' THEN 'already applied:"
                                            " capture pi_paid is recorded'"
                                            " WHEN 'stripe:evt_paid_fail' THEN 'failure after"
                                            " success ignored: order ord-paid is paid at v3'"
                                            " WHEN 'stripe:evt_rb_late' THEN 'stale: late' ELSE"
                                            " result_reason END")
                    .ok());
        QString path;
        for (const Migration &m : Migrator::available(QStringLiteral("orders"), dbs->dialect()))
            if (m.version == 20)
                path = m.resourcePath;
        QVERIFY(path.endsWith(u"0020_message_result_code.sql"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList steps = Migrator::splitStatements(QString::fromUtf8(file.readAll()));
        QCOMPARE(steps.size(), 2);
        for (int run = 0; run < 2; ++run) {
            QVERIFY(Sql::exec(f.orders->db(), steps.at(1)).ok());
            for (auto it = codes.cbegin(); it != codes.cend(); ++it)
                QCOMPARE(codeOf(qPrintable(it.key())), it.value());
        }
        QCOMPARE(load(f, t0, t0 + kHour).callbackTotals(), stale.callbackTotals());
    }

    // The count is tried once the duplicate's answer is decided: when it cannot be written
    // (here its table is gone) the duplicate is still "already received", the batch still
    // stores what it carries, and the lost count is logged.
    void aFailedCountLeavesTheAnswer_data() { addEngineRows(); }
    void aFailedCountLeavesTheAnswer()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("ord-a", 2112);
        f.pay("ord-a", 1, "req-a-1");
        const QByteArray paid = StripeEvents::paymentIntentSucceeded(
            f.params("ord-a", "req-a-1", 2112, "USD", "evt_a", "pi_a"));
        QCOMPARE(f.deliver(paid), IngestStatus::Stored);
        QVERIFY(Sql::exec(f.orders->db(), "DROP TABLE callback_door_counts").ok());

        LogCapture log;
        auto single = f.ingest->ingest(QStringLiteral("stripe"), f.stripe(paid));
        QVERIFY2(single.ok(), qPrintable(single.ok() ? QString() : single.error().message));
        QCOMPARE(single->status, IngestStatus::Duplicate);
        const MessageRow fresh = rowOf(f, StripeEvents::paymentIntentSucceeded(
                                              f.params("ord-b", "r-b", 1, "USD", "evt_b", "pi_b")));
        const auto batch = f.ingest->storeBatch({fresh, rowOf(f, paid), rowOf(f, paid)});
        QCOMPARE(batch.size(), 3);
        QVERIFY(batch[0].ok() && batch[1].ok() && batch[2].ok());
        QCOMPARE(batch[0]->status, IngestStatus::Stored);
        QCOMPARE(batch[1]->status, IngestStatus::Duplicate);
        QCOMPARE(batch[2]->status, IngestStatus::Duplicate);
        QCOMPARE(f.count("SELECT COUNT(*) FROM callback_messages"), 2);
        const QStringList errors = log.lines(QStringLiteral("error"));
        QCOMPARE(errors.size(), 2);
        QVERIFY2(errors[0].startsWith(u"ingest: 1 duplicate(s) answered \"already received\" but"
                                      u" not counted at the door"),
                 qPrintable(errors[0]));
        QVERIFY2(errors[1].startsWith(u"ingest: 2 duplicate(s)"), qPrintable(errors[1]));
        // The connection is still good for the next callback.
        QCOMPARE(f.deliver(StripeEvents::paymentIntentSucceeded(
                     f.params("ord-c", "r-c", 1, "USD", "evt_c", "pi_c"))),
                 IngestStatus::Stored);
    }

    // The simulator's summary and the dashboard agree over the simulated period and its tail
    // (the channels' last retries): every duplicate it saw answered "already received" is a
    // duplicate absorbed at the door, every new callback received, every stale one refused as
    // stale, every forged one refused at the door.
    void theSimulatorsFiguresAreTheDashboards_data() { addEngineRows(); }
    void theSimulatorsFiguresAreTheDashboards()
    {
        ONCEPAY_SCRATCH(dbs);
        SimulationOptions o;
        o.orders = 150;
        o.days = 3;
        o.seed = 17;
        o.faults = *FaultProfile::named(QStringLiteral("hostile"));
        auto summary = Simulator(dbs->config(), o).run();
        QVERIFY2(summary.ok(), qPrintable(summary.ok() ? QString() : summary.error().message));
        const SimulationSummary &s = *summary;
        QVERIFY(s.duplicatesAbsorbed > 0 && s.staleRejected > 0 && s.rejectedAtDoor > 0);
        auto c = Connection::open(dbs->config().orders, QStringLiteral("door-sim"));
        QVERIFY(c.ok());
        const qint64 tail = SimulationOptions::tailDays(o.days) * 24 * kHour;
        auto d = DashboardQuery(*c, Clock::system()).load({s.startMs, s.endMs + tail}, kAgent);
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
        const CallbackBucket t = d->callbackTotals();
        QCOMPARE(t.duplicatesAtDoor, s.duplicatesAbsorbed);
        QCOMPARE(t.received + t.duplicatesAtDoor + t.rejected, s.callbacksSent);
        QCOMPARE(t.stale, s.staleRejected);
        QCOMPARE(t.rejected, s.rejectedAtDoor);
    }
};

QTEST_GUILESS_MAIN(TstDashboardDoorCounts)
#include "tst_dashboard_door_counts.moc"
