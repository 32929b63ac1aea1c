// The dashboard's range and what it leaves out, on every engine: the range "up to the latest
// activity" ends with the latest request that reached the door, stored or refused, so an outage
// (a rotated webhook secret: every callback refused, nothing stored) is inside it; a range that
// ends before the load counts what came in since (received, duplicates at the door, refused at
// the door). Stuck records that cannot be counted are said, with the rest of the dashboard
// loaded, never shown as zeros.

#include "enginefixture.h"

#include "investigation/dashboardquery.h"
#include "investigation/stuckquery.h"

#include <QTest>

using namespace OncePay;
using namespace OncePay::Test;

namespace {

constexpr qint64 kHour = 3600 * 1000;
constexpr qint64 kDay = 24 * kHour;
const Actor kAgent{QStringLiteral("agent"), QStringLiteral("agent")};

Result<DashboardData> load(EngineFixture &f, const TimeRange &range)
{
    return DashboardQuery(*f.orders, f.clock).load(range, kAgent);
}

// A Stripe request signed with a secret the channel no longer shares: refused at the door.
void refusedAtTheDoor(EngineFixture &f, const QString &event)
{
    const QByteArray body = StripeEvents::paymentIntentSucceeded(
        f.params("ord-a", "req-a-1", 2112, "USD", event, "pi_" + event));
    auto r = f.ingest->ingest(
        QStringLiteral("stripe"),
        StripeSigner::sign(body, "whsec_rotated_000000000000", f.clock.nowMs() / 1000));
    QVERIFY(!r);
    QCOMPARE(r.error().reason, QStringLiteral("bad_signature"));
}

} // namespace

class TstDashboardRangeAnchor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void anOutageIsInTheAnchoredRange_data() { addEngineRows(); }
    void anOutageIsInTheAnchoredRange()
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

        // Three days later the secret is rotated on the channel's side: four callbacks, each
        // refused, nothing stored.
        f.clock.set(t0 + 3 * kDay + 5 * kHour);
        for (int i = 0; i < 4; ++i) {
            refusedAtTheDoor(f, QStringLiteral("evt_r%1").arg(i));
            f.clock.advance(60 * 1000);
        }
        const qint64 lastRefusal = t0 + 3 * kDay + 5 * kHour + 3 * 60 * 1000;
        auto latest = DashboardQuery(*f.orders, f.clock).latestActivityMs();
        QVERIFY(latest.ok());
        QCOMPARE(*latest, lastRefusal);

        // The range up to it holds the callback and every refusal; nothing is left after it.
        f.clock.set(t0 + 10 * kDay);
        auto anchored = load(f, DashboardQuery::rangeEndingAt(*latest, 30 * kDay));
        QVERIFY2(anchored.ok(), qPrintable(anchored.ok() ? QString() : anchored.error().message));
        QCOMPARE(anchored->callbackTotals().received, 1);
        QCOMPARE(anchored->callbackTotals().rejected, 4);
        QCOMPARE(anchored->sinceRangeEnd.rejected, 0);
        QVERIFY(anchored->range.toMs < anchored->loadedAt);

        // A range that ends before the load says what came in since its end: the refusals, and
        // a redelivery of the stored callback answered at the door.
        f.clock.set(t0 + 3 * kDay + 6 * kHour);
        QCOMPARE(f.deliver(paid), IngestStatus::Duplicate);
        f.clock.set(t0 + 10 * kDay);
        auto older = load(f, DashboardQuery::rangeEndingAt(t0, 30 * kDay));
        QVERIFY(older.ok());
        QCOMPARE(older->range.toMs, t0 + kDay);
        QCOMPARE(older->callbackTotals().received, 1);
        QCOMPARE(older->callbackTotals().rejected, 0);
        QCOMPARE(older->sinceRangeEnd.startMs, t0 + kDay);
        QCOMPARE(older->sinceRangeEnd.received, 0);
        QCOMPARE(older->sinceRangeEnd.duplicatesAtDoor, 1);
        QCOMPARE(older->sinceRangeEnd.rejected, 4);

        // A range that ends now leaves nothing out.
        auto now = load(f, DashboardQuery::rangeEndingAt(f.clock.nowMs(), 30 * kDay));
        QVERIFY(now.ok());
        QCOMPARE(now->callbackTotals().rejected, 4);
        QCOMPARE(now->callbackTotals().duplicatesAtDoor, 1);
        QCOMPARE(now->sinceRangeEnd, CallbackBucket{now->range.toMs});
    }

    // Only refusals (a secret rotated before the first callback): the range ends with them.
    void refusalsAloneAnchorTheRange_data() { addEngineRows(); }
    void refusalsAloneAnchorTheRange()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        auto none = DashboardQuery(*f.orders, f.clock).latestActivityMs();
        QVERIFY(none.ok());
        QCOMPARE(*none, 0);
        refusedAtTheDoor(f, QStringLiteral("evt_only"));
        auto latest = DashboardQuery(*f.orders, f.clock).latestActivityMs();
        QVERIFY(latest.ok());
        QCOMPARE(*latest, f.clock.nowMs());
    }

    // The stuck counts cannot be read (here a table taken away; in use, a stored threshold
    // refused as bad_setting): the dashboard loads the rest and carries the error, no counts.
    void stuckCountsThatFailAreSaid_data() { addEngineRows(); }
    void stuckCountsThatFailAreSaid()
    {
        ONCEPAY_SCRATCH(dbs);
        EngineFixture f(*dbs);
        f.createOrder("ord-a", 2112);
        const TimeRange range = DashboardQuery::rangeEndingAt(f.clock.nowMs(), kDay);
        auto before = load(f, range);
        QVERIFY(before.ok());
        QVERIFY(!before->stuckError);
        QCOMPARE(before->stuckByKind.size(), allStuckKinds().size());

        QVERIFY(Sql::exec(f.orders->db(),
                          "ALTER TABLE refund_obligations RENAME TO refund_obligations_gone")
                    .ok());
        auto direct = StuckQuery(*f.orders, f.clock).counts();
        QVERIFY(!direct);
        auto d = load(f, range);
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
        QVERIFY(d->stuckError);
        QCOMPARE(d->stuckError->code, direct.error().code);
        QVERIFY(d->stuckError->message.contains(QStringLiteral("refund_obligations")));
        QVERIFY(d->stuckByKind.isEmpty());
        QCOMPARE(d->ordersByState.size(), 1); // the rest is loaded
        QVERIFY(Sql::exec(f.orders->db(),
                          "ALTER TABLE refund_obligations_gone RENAME TO refund_obligations")
                    .ok());

        // A stored threshold that is no whole number: whatever the stuck query answers, the
        // dashboard shows the same (its error, or its counts), never a substitute.
        QVERIFY(Sql::exec(f.orders->db(), "UPDATE ops_settings SET setting_value = 'soon'"
                                          " WHERE setting_key = 'stuck.pending_seconds'")
                    .ok());
        auto counts = StuckQuery(*f.orders, f.clock).counts();
        auto bad = load(f, range);
        QVERIFY(bad.ok());
        if (counts) {
            QVERIFY(!bad->stuckError);
            QCOMPARE(bad->stuckByKind.size(), counts->size());
        } else {
            QVERIFY(bad->stuckError);
            QCOMPARE(bad->stuckError->reason, counts.error().reason);
            QCOMPARE(bad->stuckError->message, counts.error().message);
        }
    }
};

QTEST_GUILESS_MAIN(TstDashboardRangeAnchor)
#include "tst_dashboard_range_anchor.moc"
