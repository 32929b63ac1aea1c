#include "dashboardquery.h"

#include "auth/permissions.h"
#include "core/money.h"
#include "db/sql.h"

#include <QSqlError>
#include <QSqlQuery>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

namespace OncePay {

namespace {

constexpr qint64 kMinute = 60 * 1000;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

// Integer bucket index of `column`. The numbers are ours, not user input, so they are
// written into the statement: it keeps the GROUP BY expression identical on every engine.
QString bucketExpr(Dialect d, const QString &column, qint64 from, qint64 size)
{
    const QString div = d == Dialect::MySql ? QStringLiteral(" DIV ") : QStringLiteral(" / ");
    return QStringLiteral("((%1 - %2)%3%4)").arg(column).arg(from).arg(div).arg(size);
}

Result<QList<KeyCount>> keyCounts(const Connection &c, const QString &sql,
                                  const QVariantList &binds = {})
{
    auto q = Sql::exec(c.db(), sql, binds);
    if (!q)
        return q.error();
    QList<KeyCount> out;
    while (q->next())
        out << KeyCount{q->value(0).toString(), q->value(1).toLongLong()};
    return out;
}

} // namespace

CallbackBucket DashboardData::callbackTotals() const
{
    CallbackBucket t;
    t.startMs = range.fromMs;
    for (const CallbackBucket &b : callbacks) {
        t.received += b.received;
        t.duplicatesAtDoor += b.duplicatesAtDoor;
        t.duplicatesSkipped += b.duplicatesSkipped;
        t.stale += b.stale;
        t.rejected += b.rejected;
    }
    return t;
}

qint64 DashboardData::partlyRefundedOrders() const
{
    qint64 n = 0;
    for (const PartialRefundTotal &t : partlyRefunded)
        n += t.orders;
    return n;
}

qint64 DashboardQuery::bucketFor(const TimeRange &range)
{
    const qint64 span = qMax<qint64>(1, range.toMs - range.fromMs);
    for (qint64 size : {5 * kMinute, 15 * kMinute, kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay})
        if (span / size <= 48)
            return size;
    return ((span / 48) / kDay + 1) * kDay;
}

Result<qint64> DashboardQuery::latestActivityMs() const
{
    // Each an index's last entry (callback_messages_received, ingest_rejections_time).
    qint64 latest = 0;
    for (const char *sql : {"SELECT MAX(received_at) FROM callback_messages",
                            "SELECT MAX(created_at) FROM ingest_rejections"}) {
        auto v = Sql::scalar(m_c.db(), QString::fromLatin1(sql));
        if (!v)
            return v.error();
        if (!v->isNull())
            latest = std::max(latest, v->toLongLong());
    }
    return latest;
}

TimeRange DashboardQuery::rangeEndingAt(qint64 endMs, qint64 spanMs)
{
    const qint64 bucket = bucketFor({endMs - spanMs, endMs});
    const qint64 to = (endMs / bucket + 1) * bucket;
    return {to - spanMs, to};
}

QList<DiscrepancyCurrencyTotal> DashboardQuery::currencyTotals(const QList<DiscrepancyTotal> &lines)
{
    QList<DiscrepancyCurrencyTotal> out;
    for (const DiscrepancyTotal &d : lines) {
        auto it = std::find_if(out.begin(), out.end(), [&d](const DiscrepancyCurrencyTotal &t) {
            return t.currency == d.currency;
        });
        if (it == out.end()) {
            out.append({d.currency, 0, qint64(0)});
            it = out.end() - 1;
        }
        it->count += d.count;
        if (it->amountMinor)
            it->amountMinor = Currency::checkedAdd(*it->amountMinor, d.amountMinor);
    }
    std::sort(out.begin(), out.end(),
              [](const DiscrepancyCurrencyTotal &a, const DiscrepancyCurrencyTotal &b) {
                  return a.currency < b.currency;
              });
    return out;
}

Result<void> DashboardQuery::loadCallbacks(DashboardData *data) const
{
    const qint64 from = data->range.fromMs;
    const qint64 size = data->bucketMs;
    const qint64 buckets = (data->range.toMs - from + size - 1) / size;
    data->callbacks.clear();
    for (qint64 i = 0; i < buckets; ++i)
        data->callbacks << CallbackBucket{from + i * size};
    const QVariantList binds{from, data->range.toMs};

    // The worker's outcome codes (result_code, migration 0020; Decision::code in
    // services/worker/callbackprocessor.h): "already_applied" and "failure_after_success" (the
    // attempt's outcome was already decided: a late repeat of it changes nothing, like a
    // duplicate) are absorbed; "stale" is refused. Other skips (a refund of a superseded
    // attempt's money that resolves its flag, nothing to book) are only received.
    auto q = Sql::exec(
        m_c.db(),
        QStringLiteral(
            "SELECT %1, COUNT(*),"
            " SUM(CASE WHEN status = 'skipped' AND result_code IN ('already_applied',"
            " 'failure_after_success') THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN status = 'skipped' AND result_code = 'stale' THEN 1 ELSE 0 END)"
            " FROM callback_messages WHERE received_at >= ? AND received_at < ?"
            " AND event_kind IN ('payment_succeeded', 'payment_failed', 'refunded')"
            " GROUP BY 1")
            .arg(bucketExpr(m_c.dialect(), QStringLiteral("received_at"), from, size)),
        binds, Sql::Decimals::Exact); // the SUM is a decimal on PostgreSQL and MariaDB
    if (!q)
        return q.error();
    while (q->next()) {
        const qint64 i = q->value(0).toLongLong();
        if (i < 0 || i >= buckets)
            continue;
        auto skipped = Sql::exactInteger(q->value(2), QStringLiteral("duplicates skipped"));
        if (!skipped)
            return skipped.error();
        auto stale = Sql::exactInteger(q->value(3), QStringLiteral("stale callbacks"));
        if (!stale)
            return stale.error();
        data->callbacks[i].received = q->value(1).toLongLong();
        data->callbacks[i].duplicatesSkipped = *skipped;
        data->callbacks[i].stale = *stale;
    }
    if (q->lastError().isValid())
        return Sql::classify(q->lastError(), QStringLiteral("callbacks over time"));
    auto door = Sql::exec(
        m_c.db(),
        QStringLiteral("SELECT %1, SUM(duplicates) FROM callback_door_counts"
                       " WHERE bucket_start_ms >= ? AND bucket_start_ms < ? GROUP BY 1")
            .arg(bucketExpr(m_c.dialect(), QStringLiteral("bucket_start_ms"), from, size)),
        binds, Sql::Decimals::Exact);
    if (!door)
        return door.error();
    while (door->next()) {
        const qint64 i = door->value(0).toLongLong();
        if (i < 0 || i >= buckets)
            continue;
        auto n = Sql::exactInteger(door->value(1), QStringLiteral("duplicates at the door"));
        if (!n)
            return n.error();
        data->callbacks[i].duplicatesAtDoor = *n;
    }
    if (door->lastError().isValid())
        return Sql::classify(door->lastError(), QStringLiteral("duplicates at the door"));
    auto r =
        Sql::exec(m_c.db(),
                  QStringLiteral("SELECT %1, COUNT(*) FROM ingest_rejections"
                                 " WHERE created_at >= ? AND created_at < ? GROUP BY 1")
                      .arg(bucketExpr(m_c.dialect(), QStringLiteral("created_at"), from, size)),
                  binds);
    if (!r)
        return r.error();
    while (r->next()) {
        const qint64 i = r->value(0).toLongLong();
        if (i >= 0 && i < buckets)
            data->callbacks[i].rejected = r->value(1).toLongLong();
    }
    return {};
}

Result<void> DashboardQuery::loadSinceRangeEnd(DashboardData *data) const
{
    data->sinceRangeEnd = CallbackBucket{data->range.toMs};
    if (data->range.toMs >= data->loadedAt)
        return {};
    const QVariantList binds{data->range.toMs};
    auto received = Sql::scalar(
        m_c.db(),
        QStringLiteral("SELECT COUNT(*) FROM callback_messages WHERE received_at >= ?"
                       " AND event_kind IN ('payment_succeeded', 'payment_failed', 'refunded')"),
        binds);
    if (!received)
        return received.error();
    auto door = Sql::scalar(
        m_c.db(),
        QStringLiteral(
            "SELECT SUM(duplicates) FROM callback_door_counts WHERE bucket_start_ms >= ?"),
        binds, Sql::Decimals::Exact);
    if (!door)
        return door.error();
    auto refused = Sql::scalar(
        m_c.db(), QStringLiteral("SELECT COUNT(*) FROM ingest_rejections WHERE created_at >= ?"),
        binds);
    if (!refused)
        return refused.error();
    data->sinceRangeEnd.received = received->toLongLong();
    if (!door->isNull()) {
        auto n = Sql::exactInteger(*door, QStringLiteral("duplicates at the door"));
        if (!n)
            return n.error();
        data->sinceRangeEnd.duplicatesAtDoor = *n;
    }
    data->sinceRangeEnd.rejected = refused->toLongLong();
    return {};
}

Result<QList<PartialRefundTotal>> DashboardQuery::partlyRefunded() const
{
    // From the refund debits (covering index ledger_kind_order, migration 0014), summed per
    // order first, to their orders by primary key: as many rows as refunds, never a pass over
    // the orders or the ledger. Summed first so that no engine starts from the paid orders
    // (most of them) whatever its statistics say. A refunded order is not counted (its refunds
    // reached the capture), nor money owed back for a superseded attempt (no debit is booked
    // for it); an order's refunds are in its payment's currency.
    auto q =
        Sql::exec(m_c.db(),
                  QStringLiteral("SELECT r.currency, COUNT(*), SUM(r.refunded) FROM"
                                 " (SELECT order_id, currency, SUM(amount_minor) AS refunded"
                                 " FROM ledger_entries WHERE kind = 'refund_debit'"
                                 " GROUP BY order_id, currency) r"
                                 " JOIN orders o ON o.order_id = r.order_id WHERE o.state = 'paid'"
                                 " GROUP BY r.currency ORDER BY r.currency"),
                  {}, Sql::Decimals::Exact);
    if (!q)
        return q.error();
    QList<PartialRefundTotal> out;
    while (q->next()) {
        PartialRefundTotal t{q->value(0).toString(), q->value(1).toLongLong(), {}};
        auto sum =
            Sql::exactInteger(q->value(2), QStringLiteral("partial refunds in %1").arg(t.currency));
        if (sum && *sum != std::numeric_limits<qint64>::min())
            t.refundedMinor = -*sum; // debits are negative
        else if (!sum && sum.error().code != ErrorCode::TooLarge)
            return sum.error();
        out << t;
    }
    if (q->lastError().isValid())
        return Sql::classify(q->lastError(), QStringLiteral("partial refunds"));
    return out;
}

Result<DashboardData> DashboardQuery::load(const TimeRange &range, const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    if (range.toMs <= range.fromMs)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("the time range ends before it starts"));
    DashboardData data;
    data.range = range;
    data.bucketMs = bucketFor(range);
    data.loadedAt = m_clock.nowMs();
    if (auto r = loadCallbacks(&data); !r)
        return r.error();
    if (auto r = loadSinceRangeEnd(&data); !r)
        return r.error();

    auto statuses =
        keyCounts(m_c,
                  QStringLiteral("SELECT status, COUNT(*) FROM callback_messages"
                                 " WHERE received_at >= ? AND received_at < ? GROUP BY status"
                                 " ORDER BY status"),
                  {range.fromMs, range.toMs});
    if (!statuses)
        return statuses.error();
    data.messageStatuses = *statuses;

    auto states = keyCounts(
        m_c, QStringLiteral("SELECT state, COUNT(*) FROM orders GROUP BY state ORDER BY state"));
    if (!states)
        return states.error();
    data.ordersByState = *states;
    auto partial = partlyRefunded();
    if (!partial)
        return partial.error();
    data.partlyRefunded = *partial;

    // A stuck count that cannot be read (a stored threshold refused) is shown in its place,
    // never replaced by zeros; the rest of the dashboard stands. A database that fails is
    // the whole load's failure.
    auto stuck = StuckQuery(m_c, m_clock).counts();
    if (!stuck && stuck.error().code == ErrorCode::Unavailable)
        return stuck.error();
    if (!stuck) {
        spdlog::warn("dashboard: stuck records not counted: {}",
                     stuck.error().message.toStdString());
        data.stuckError = stuck.error();
    } else {
        for (auto it = stuck->cbegin(); it != stuck->cend(); ++it)
            data.stuckByKind << KeyCount{stuckKindName(it.key()), it.value()};
    }

    // A currency mismatch's two amounts are in different currencies: all that was settled (in
    // the row's currency, the settlement's) is at issue, not their difference.
    // PostgreSQL's and MariaDB's SUM of BIGINT is a decimal, read as a double by default (not
    // exact past 2^53): read exactly here, so that every engine gives the exact integer.
    auto d = Sql::exec(
        m_c.db(),
        QStringLiteral(
            "SELECT channel, COALESCE(currency, ''), COUNT(*),"
            " SUM(CASE WHEN kind = 'currency_mismatch' THEN ABS(COALESCE(actual_minor, 0))"
            " ELSE ABS(COALESCE(expected_minor, 0) - COALESCE(actual_minor, 0)) END)"
            " FROM discrepancies WHERE status = 'open'"
            " GROUP BY channel, COALESCE(currency, '') ORDER BY channel, 2"),
        {}, Sql::Decimals::Exact);
    // SQLite's SUM refuses to pass 64 bits ("integer overflow"), on the statement or, for a
    // later line, on the row it reaches: the dashboard is refused, never shown cut short.
    const auto failed = [](const Error &e) -> Error {
        if (!e.message.contains(u"integer overflow"))
            return e;
        spdlog::warn("dashboard: open discrepancies sum past 64 bits: {}", e.message.toStdString());
        return makeError(ErrorCode::TooLarge,
                         QStringLiteral("the open discrepancies of a channel add up to more "
                                        "than can be counted exactly"),
                         QStringLiteral("amount_overflow"));
    };
    if (!d)
        return failed(d.error());
    while (d->next()) {
        DiscrepancyTotal line{d->value(0).toString(), d->value(1).toString(),
                              d->value(2).toLongLong(), 0};
        auto amount = Sql::exactInteger(
            d->value(3),
            QStringLiteral("open discrepancies of %1 in %2").arg(line.channel, line.currency));
        if (!amount) {
            spdlog::warn("dashboard: {}", amount.error().message.toStdString());
            if (amount.error().code != ErrorCode::TooLarge)
                return amount.error();
            // PostgreSQL's and MariaDB's exact sum, past 64 bits.
            return makeError(ErrorCode::TooLarge,
                             QStringLiteral("the open discrepancies of %1 in %2 add up to more "
                                            "than can be counted exactly")
                                 .arg(line.channel, line.currency),
                             QStringLiteral("amount_overflow"));
        }
        line.amountMinor = *amount;
        data.openDiscrepancies << line;
    }
    if (d->lastError().isValid())
        return failed(Sql::classify(d->lastError(), QStringLiteral("open discrepancies")));
    data.openDiscrepancyTotals = currencyTotals(data.openDiscrepancies);
    return data;
}

} // namespace OncePay
