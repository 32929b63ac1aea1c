#pragma once

// The dashboard's aggregates over a time range (DESIGN.md §6), each one indexed query:
// callbacks per time bucket, message statuses, orders by state and the paid ones partly
// refunded, stuck records by kind and open discrepancies by channel, and their totals per
// currency.
//
// Callbacks over time are payment results only (a success, a failure, a refund): events OncePay
// does not act on and "still pending" notices are stored too, but are neither received payments
// nor duplicates. Duplicates are absorbed at two layers: at the door, where a redelivery is
// answered "already received", stores nothing and is counted in callback_door_counts (per
// five minutes; a door bucket belongs to the range that holds its start), and by the worker,
// which skips a stored callback whose payment is already applied or whose outcome is already
// decided (a failure after the success). A stale callback, of a superseded attempt, is refused
// (its captured money is flagged for refund) and counted apart, as are the requests refused at
// the door (ingest_rejections).
// Thread contract: the connection's thread; results are plain values.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"
#include "stuckquery.h"

#include <optional>

namespace OncePay {

struct TimeRange {
    qint64 fromMs = 0; // inclusive
    qint64 toMs = 0;   // exclusive
};

struct CallbackBucket {
    qint64 startMs = 0;
    qint64 received = 0;         // payment results stored in the message table
    qint64 duplicatesAtDoor = 0; // redeliveries answered "already received", stored nowhere
    qint64 duplicatesSkipped =
        0;               // of the received, skipped: already applied, failure after success
    qint64 stale = 0;    // of the received, refused as stale (a superseded attempt)
    qint64 rejected = 0; // refused at the door: bad signature, malformed, oversized …

    qint64 duplicatesAbsorbed() const { return duplicatesAtDoor + duplicatesSkipped; }
    bool operator==(const CallbackBucket &) const = default;
};

struct KeyCount {
    QString key;
    qint64 count = 0;
};

struct DiscrepancyTotal {
    QString channel;
    QString currency;
    qint64 count = 0;
    // |expected − actual| summed: the whole amount when one side is missing, and all that was
    // settled when it was settled in another currency (the row's currency is the settlement's)
    qint64 amountMinor = 0;
};

// One currency's open discrepancies over every channel: never summed across currencies. No
// amount when the sum would not fit in 64 bits: a total is exact or not given.
struct DiscrepancyCurrencyTotal {
    QString currency; // empty: rows that name no currency
    qint64 count = 0;
    std::optional<qint64> amountMinor;

    bool operator==(const DiscrepancyCurrencyTotal &) const = default;
};

// Paid orders with a partial refund, in one currency: an order stays paid until its refunds
// reach its capture, so the states alone do not show that money went back. Counted from the
// ledger's refund debits (booked only for an order's current payment). No amount when the sum
// would not fit in 64 bits.
struct PartialRefundTotal {
    QString currency;
    qint64 orders = 0;
    std::optional<qint64> refundedMinor; // positive: the money that went back

    bool operator==(const PartialRefundTotal &) const = default;
};

struct DashboardData {
    TimeRange range;
    qint64 bucketMs = 0;
    QList<CallbackBucket> callbacks; // one per bucket, oldest first, gaps filled with zeros
    QList<KeyCount> messageStatuses; // messages received in the range, by current status
    QList<KeyCount> ordersByState;   // all orders, now
    QList<PartialRefundTotal> partlyRefunded;  // of the paid ones, now, by currency code
    QList<KeyCount> stuckByKind;               // now, with the ops_settings thresholds
    QList<DiscrepancyTotal> openDiscrepancies; // by channel, then currency
    QList<DiscrepancyCurrencyTotal> openDiscrepancyTotals; // per currency, by currency code
    qint64 loadedAt = 0;
    // When the range ends before the load (a range anchored at the latest activity): what came
    // in from its end up to the load, so that a page can say what the range leaves out (all
    // zeros otherwise; startMs is the range's end).
    CallbackBucket sinceRangeEnd;
    // The stuck counts could not be read (a stored threshold refused, "bad_setting"): the rest
    // is loaded, stuckByKind is empty and this says why, for the page to show.
    std::optional<Error> stuckError;

    qint64 partlyRefundedOrders() const;   // over every currency
    CallbackBucket callbackTotals() const; // the buckets summed; startMs is the range's start
};

class DashboardQuery {
public:
    DashboardQuery(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // A bucket size that gives a readable chart for the range (5 min … 1 day).
    static qint64 bucketFor(const TimeRange &range);

    // When the last request reached the door (0 when none): the latest callback stored or
    // request refused at the door (ingest_rejections), so that a dashboard over an older or
    // simulated database can anchor its range at its own latest activity without hiding an
    // outage (every callback refused, a rotated webhook secret: nothing stored). A channel's
    // retries of older callbacks, absorbed at the door for days after, do not move it.
    Result<qint64> latestActivityMs() const;

    // The range of `spanMs` whose last bucket holds `endMs`, in whole buckets.
    static TimeRange rangeEndingAt(qint64 endMs, qint64 spanMs);

    // The lines' totals per currency, by currency code: counts and amounts of one currency
    // only, in integer minor units; an amount that would overflow 64 bits is not given.
    static QList<DiscrepancyCurrencyTotal> currencyTotals(const QList<DiscrepancyTotal> &lines);

    // Requires Action::ReadOrders. Refused (TooLarge, reason amount_overflow) on every engine
    // when a channel's open discrepancies in one currency sum past 64 bits.
    Result<DashboardData> load(const TimeRange &range, const Actor &actor) const;

private:
    Result<void> loadCallbacks(DashboardData *data) const;
    Result<void> loadSinceRangeEnd(DashboardData *data) const;
    Result<QList<PartialRefundTotal>> partlyRefunded() const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
