#include "simulationworld.h"

#include "core/money.h"

namespace OncePay::Sim {

namespace {

constexpr qint64 kMinute = 60 * 1000;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

qint64 amountFor(const QString &currency, Rng &rng)
{
    if (currency == u"JPY")
        return rng.range(5, 500) * 100; // ¥500 – ¥50,000
    if (currency == u"KRW")
        return rng.range(5, 500) * 1000; // ₩5,000 – ₩500,000
    if (currency == u"XOF")
        return rng.range(2, 600) * 500; // 1,000 – 300,000 F CFA
    if (currency == u"CNY")
        return rng.range(3000, 300000); // ¥30.00 – ¥3,000.00
    return rng.range(500, 50000);       // 5.00 – 500.00
}

} // namespace

QList<qint64> retryScheduleMs(const QString &channel)
{
    if (channel == u"paypal") {
        // Up to 25 retries over 3 days, backing off.
        QList<qint64> out;
        qint64 t = 0;
        for (int i = 0; i < 25; ++i) {
            t += std::min<qint64>(3 * kHour, (i + 1) * (i + 1) * 2 * kMinute);
            out << std::min(t, 3 * kDay);
        }
        return out;
    }
    if (channel == u"stripe") // immediately, then backing off over up to three days
        return {kMinute,    5 * kMinute, 30 * kMinute, 2 * kHour,  5 * kHour, 10 * kHour,
                20 * kHour, 30 * kHour,  45 * kHour,   60 * kHour, 72 * kHour};
    return {kMinute, 10 * kMinute, kHour, 6 * kHour, kDay}; // the relays' own schedules
}

QList<SimOrder> planOrders(const SimulationOptions &o, const ChannelEmitter &emitter, Rng &rng,
                           Timeline &timeline)
{
    const FaultProfile &f = o.faults;
    QList<SimOrder> orders;
    const QStringList channels = ChannelEmitter::channels();
    const qint64 span = qint64(o.days) * kDay - 6 * kHour; // leave the last hours to settle
    quint64 txn = 0;
    for (int i = 0; i < o.orders; ++i) {
        SimOrder so;
        so.id = QStringLiteral("ord-%1-%2").arg(o.seed).arg(i + 1, 6, 10, QLatin1Char('0'));
        // Channel mix: Stripe and PayPal carry most of the volume.
        const double c = rng.unit();
        so.channel = channels[c < 0.45 ? 0 : c < 0.8 ? 1 : c < 0.92 ? 2 : 3];
        const QStringList currencies = ChannelEmitter::currencies(so.channel);
        so.currency = currencies[int(rng.range(0, currencies.size() - 1))];
        so.amountMinor = amountFor(so.currency, rng);
        so.createdAt = o.startMs +
                       qint64(double(span) * double(i) / double(std::max(1, o.orders))) +
                       rng.range(0, 10 * kMinute);

        const double s = rng.unit();
        double acc = 0;
        auto pick = [&](double p) { return s < (acc += p); };
        if (pick(f.abandoned))
            so.story = Story::Abandoned;
        else if (pick(f.cancelled))
            so.story = Story::Cancelled;
        else if (pick(f.declineThenRetry))
            so.story = Story::DeclineThenRetry;
        else if (pick(f.refunded))
            so.story = Story::Refunded;
        else if (pick(f.failureAfterSuccess))
            so.story = Story::FailureAfterSuccess;
        else if (pick(f.mismatch))
            so.story = Story::Mismatch;

        Attempt first{QStringLiteral("att-%1-1").arg(so.id), emitter.newTxnId(so.channel, ++txn)};
        so.attempts << first;
        so.expectedState = QStringLiteral("paid");
        so.expectedLedger = so.amountMinor;
        switch (so.story) {
        case Story::Abandoned:
            so.expectedState = QStringLiteral("paying");
            so.expectedLedger = 0;
            break;
        case Story::Cancelled:
            so.expectedState = QStringLiteral("cancelled");
            so.expectedLedger = 0;
            break;
        case Story::DeclineThenRetry:
            so.attempts[0].declines = true;
            so.attempts[0].lateStale = rng.chance(f.lateStale);
            so.attempts << Attempt{QStringLiteral("att-%1-2").arg(so.id),
                                   emitter.newTxnId(so.channel, ++txn)};
            break;
        case Story::Refunded:
            so.refundFirst = rng.chance(f.refundFirst);
            so.expectedState = QStringLiteral("refunded");
            so.expectedLedger = 0;
            break;
        case Story::Mismatch:
            so.expectedState = QStringLiteral("paid_unconfirmed");
            so.expectedLedger = 0;
            break;
        default: break;
        }
        orders << so;

        Event create;
        create.type = EventType::Create;
        create.order = i;
        timeline.at(so.createdAt, create);
        Event next;
        next.order = i;
        next.type = so.story == Story::Cancelled ? EventType::Cancel : EventType::Pay;
        timeline.at(so.createdAt + rng.range(kMinute, 20 * kMinute), next);

        if (rng.chance(f.poison)) {
            Event poison;
            poison.type = EventType::Poison;
            poison.order = i;
            timeline.at(so.createdAt + rng.range(kMinute, kHour), poison);
        }
    }
    return orders;
}

} // namespace OncePay::Sim
