#include "consolebenchstatements.h"

#include "consolebenchtools.h"

#include "db/sql.h"
#include "fixes/fixservice.h"
#include "investigation/dashboardquery.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSqlRecord>

#include <algorithm>

namespace OncePay::Bench {

namespace {

const QString kOrderCols =
    QStringLiteral("o.order_id, o.customer_ref, o.amount_minor, o.currency, o.state, o.version, "
                   "o.current_request_id, o.channel, o.channel_txn_id, o.state_reason, o.paid_at, "
                   "o.created_at, o.updated_at");

// " OR (<prefix>channel = ? AND <prefix>channel_txn_id = ?)" per transaction, as
// OrderPictureQuery writes it, its values appended to `binds`.
QString orTransactions(const ChannelTxns &txns, const QString &prefix, QVariantList *binds)
{
    QString sql;
    for (const auto &[channel, txn] : txns) {
        sql += QStringLiteral(" OR (%1channel = ? AND %1channel_txn_id = ?)").arg(prefix);
        *binds << channel << txn;
    }
    return sql;
}

} // namespace

Statements stuckStatements(qint64 now, bool rows)
{
    const qint64 cut = now - 300 * 1000, idemCut = now - 600 * 1000;
    const QString cols = "m.id, m.order_ref, m.callback_id, m.channel, m.status, %1,"
                         " m.attempts, m.last_error, m.amount_minor, m.currency, m.lease_until";
    Statements statements{
        {"SELECT setting_key, setting_value FROM ops_settings", {}},
        // the fix rule's clock-skew allowance, read with the rows (FixSettings::leaseSkewMs)
        {"SELECT setting_value FROM ops_settings WHERE setting_key = ?",
         {QStringLiteral("fixes.lease_skew_ms")}}};
    const QString pendingSince = "(CASE WHEN m.status = 'pending' THEN m.updated_at"
                                 " ELSE COALESCE(m.requeued_at, m.received_at) END)";
    const QList<std::tuple<QString, QString, QString, QVariantList>> kinds{
        {cols.arg(pendingSince),
         "FROM callback_messages m WHERE m.status IN ('pending',"
         " 'failed') AND m.received_at < ? AND " +
             pendingSince + " < ?",
         pendingSince,
         {cut, cut}},
        {cols.arg("m.updated_at"),
         "FROM callback_messages m WHERE m.status = 'processing'"
         " AND m.updated_at < ? AND m.lease_until >= ?",
         "m.updated_at",
         {cut, now}},
        {cols.arg("m.lease_until"),
         "FROM callback_messages m WHERE m.status = 'processing'"
         " AND m.lease_until < ? AND m.lease_until < ?",
         "m.lease_until",
         {now, now}},
        {"d.id, m.order_ref, d.callback_id, m.channel, m.status, d.created_at, d.attempts,"
         " d.reason, m.amount_minor, m.currency, m.lease_until",
         "FROM dead_letters d JOIN callback_messages m ON m.id = d.message_id WHERE"
         " m.status = 'dead' AND d.requeued_at IS NULL AND d.created_at < ?",
         "d.created_at",
         {now}},
        {"i.request_id, i.order_id, NULL, NULL, i.operation, i.created_at, 0, i.outcome,"
         " NULL, NULL, NULL",
         "FROM idempotency_records i WHERE i.status = 0 AND i.created_at < ? AND EXISTS"
         " (SELECT 1 FROM orders o WHERE o.order_id = i.order_id AND o.version ="
         " i.expected_version)",
         "i.created_at",
         {idemCut}},
        {"r.id, r.order_id, r.callback_id, r.channel, 'refund_due', r.created_at, 0,"
         " r.reason, r.amount_minor, r.currency, NULL",
         "FROM refund_obligations r WHERE r.resolved_at IS NULL AND r.created_at < ?",
         "r.created_at",
         {now}},
        {"o.order_id, o.order_id, NULL, o.channel, o.state, o.updated_at, 0,"
         " o.state_reason, o.amount_minor, o.currency, NULL",
         "FROM orders o WHERE o.state IN ('paying', 'paid_unconfirmed') AND o.updated_at < "
         "?",
         "o.updated_at",
         {cut}}};
    // The rows: every stuck record of each kind in one read, oldest first — what showing the
    // whole list needs at least (the page reads it a page at a time).
    for (const auto &[select, from, order, binds] : kinds) {
        statements.append({"SELECT COUNT(*) " + from, binds});
        if (rows)
            statements.append({"SELECT " + select + " " + from + " ORDER BY " + order, binds});
    }
    return statements;
}

// The dashboard's statements as DashboardQuery runs them (consolebenchstatements.h).
Result<Statements> dashboardStatements(const QSqlDatabase &db)
{
    // The range the benchmark chooses: 30 days up to the latest activity (a callback stored or
    // a request refused at the door), as over a generated database that ends before now.
    qint64 latestMs = 0;
    for (const char *sql : {"SELECT MAX(received_at) FROM callback_messages",
                            "SELECT MAX(created_at) FROM ingest_rejections"}) {
        auto latest = Sql::scalar(db, QString::fromLatin1(sql));
        if (!latest)
            return latest.error();
        latestMs = std::max(latestMs, latest->toLongLong());
    }
    const TimeRange range = DashboardQuery::rangeEndingAt(latestMs, 30 * 24 * 3600 * 1000LL);
    const qint64 from = range.fromMs, to = range.toMs, size = DashboardQuery::bucketFor(range);
    auto bucket = [&](const char *column) {
        return QStringLiteral("((%1 - %2) / %3)").arg(QLatin1String(column)).arg(from).arg(size);
    };
    Statements statements{
        {"SELECT MAX(received_at) FROM callback_messages", {}},
        {"SELECT MAX(created_at) FROM ingest_rejections", {}},
        {"SELECT " + bucket("received_at") +
             ", COUNT(*), SUM(CASE WHEN status = 'skipped' AND result_code IN"
             " ('already_applied', 'failure_after_success') THEN 1 ELSE 0 END), SUM(CASE WHEN"
             " status = 'skipped' AND result_code = 'stale' THEN 1 ELSE 0 END) FROM"
             " callback_messages WHERE received_at >= ? AND"
             " received_at < ? AND event_kind IN ('payment_succeeded', 'payment_failed',"
             " 'refunded') GROUP BY 1",
         {from, to}},
        {"SELECT " + bucket("bucket_start_ms") +
             ", SUM(duplicates) FROM callback_door_counts WHERE bucket_start_ms >= ? AND"
             " bucket_start_ms < ? GROUP BY 1",
         {from, to}},
        {"SELECT " + bucket("created_at") +
             ", COUNT(*) FROM ingest_rejections WHERE created_at >= ? AND created_at < ? GROUP BY"
             " 1",
         {from, to}},
        // What reached the door after the range's end (it ends before now).
        {"SELECT COUNT(*) FROM callback_messages WHERE received_at >= ? AND event_kind IN"
         " ('payment_succeeded', 'payment_failed', 'refunded')",
         {to}},
        {"SELECT SUM(duplicates) FROM callback_door_counts WHERE bucket_start_ms >= ?", {to}},
        {"SELECT COUNT(*) FROM ingest_rejections WHERE created_at >= ?", {to}},
        {"SELECT status, COUNT(*) FROM callback_messages WHERE received_at >= ? AND received_at"
         " < ? GROUP BY status ORDER BY status",
         {from, to}},
        {"SELECT state, COUNT(*) FROM orders GROUP BY state ORDER BY state", {}},
        {"SELECT r.currency, COUNT(*), SUM(r.refunded) FROM (SELECT order_id, currency,"
         " SUM(amount_minor) AS refunded FROM ledger_entries WHERE kind = 'refund_debit' GROUP BY"
         " order_id, currency) r JOIN orders o ON o.order_id = r.order_id WHERE o.state = 'paid'"
         " GROUP BY r.currency ORDER BY r.currency",
         {}}};
    statements += stuckStatements(QDateTime::currentMSecsSinceEpoch(), false);
    statements.append(std::pair<QString, QVariantList>{
        "SELECT channel, COALESCE(currency, ''), COUNT(*), SUM(CASE WHEN kind ="
        " 'currency_mismatch' THEN ABS(COALESCE(actual_minor, 0)) ELSE ABS(COALESCE(expected_minor,"
        " 0) - COALESCE(actual_minor, 0)) END) FROM discrepancies WHERE status = 'open' GROUP BY"
        " channel, COALESCE(currency, '') ORDER BY channel, 2",
        QVariantList{}});
    return statements;
}

QList<ConsoleBenchSearch> searchStatements(const ConsoleBenchData &data)
{
    const QString one = QStringLiteral("one indexed SELECT");
    auto single = [](const QString &sql, const QString &term) { return Statements{{sql, {term}}}; };
    return {
        {"order id", data.orderId, one,
         single("SELECT " + kOrderCols + " FROM orders o WHERE o.order_id = ?", data.orderId)},
        {"customer", data.customerRef, one,
         single("SELECT " + kOrderCols +
                    " FROM orders o WHERE o.customer_ref = ? ORDER BY o.created_at DESC",
                data.customerRef)},
        // A transaction id is unique only within its channel: the orders holding it, each with
        // the channel that holds it, and the callbacks carrying it on a channel where no order
        // or payment holds it, for an order that does not exist (OrderSearch's second
        // statement, run after a match by transaction).
        {"channel transaction",
         data.channelTxnId,
         QStringLiteral("two indexed SELECTs (its holders; callbacks for no order)"),
         {{"SELECT " + kOrderCols +
               ", p.channel FROM payments p JOIN orders o ON o.order_id = p.order_id"
               " WHERE p.channel_txn_id = ?",
           {data.channelTxnId}},
          {"SELECT m.callback_id, m.channel, m.order_ref, m.channel_txn_id, m.event_kind,"
           " m.status, m.attempts, m.last_error, d.reason, d.id, m.received_at"
           " FROM callback_messages m LEFT JOIN dead_letters d ON d.message_id = m.id"
           " WHERE m.channel_txn_id = ?"
           " AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = m.order_ref)"
           " AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.channel = m.channel"
           " AND o.channel_txn_id = m.channel_txn_id)"
           " AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.channel = m.channel"
           " AND p.channel_txn_id = m.channel_txn_id)"
           " ORDER BY m.received_at DESC, m.id DESC LIMIT 200",
           {data.channelTxnId}}}},
        // A callback's order: the one it names, else the one holding its transaction on its
        // channel (a refund made in the channel's dashboard names none) — through a payment or
        // the order's own transaction.
        {"callback",
         data.callbackId,
         QStringLiteral("three indexed SELECTs (the order it names; its transaction's)"),
         {{"SELECT " + kOrderCols +
               " FROM callback_messages m JOIN orders o ON o.order_id = m.order_ref"
               " WHERE m.callback_id = ?",
           {data.callbackId}},
          {"SELECT " + kOrderCols +
               " FROM callback_messages m JOIN payments p ON p.channel = m.channel AND"
               " p.channel_txn_id = m.channel_txn_id JOIN orders o ON o.order_id = p.order_id"
               " WHERE m.callback_id = ?",
           {data.callbackId}},
          {"SELECT " + kOrderCols +
               " FROM callback_messages m JOIN orders o ON o.channel = m.channel AND"
               " o.channel_txn_id = m.channel_txn_id WHERE m.callback_id = ?",
           {data.callbackId}}}},
        // A request id: a payment attempt's idempotency record, or the rollback or cancel it
        // caused on the order's transitions.
        {"idempotency request",
         data.requestId,
         QStringLiteral("two indexed SELECTs (idempotency records; transitions)"),
         {{"SELECT " + kOrderCols +
               " FROM idempotency_records i JOIN orders o ON o.order_id = i.order_id"
               " WHERE i.request_id = ?",
           {data.requestId}},
          {"SELECT " + kOrderCols +
               " FROM order_transitions t JOIN orders o ON o.order_id = t.order_id"
               " WHERE t.cause_id = ? AND t.cause_kind = 'request'",
           {data.requestId}}}},
    };
}

Result<ChannelTxns> orderTransactions(const QSqlDatabase &db, const QString &orderId)
{
    ChannelTxns txns;
    for (const char *sql : {"SELECT channel, channel_txn_id FROM orders WHERE order_id = ?",
                            "SELECT channel, channel_txn_id FROM payments WHERE order_id = ?"
                            " ORDER BY captured_at, id"}) {
        auto q = Sql::exec(db, QString::fromLatin1(sql), {orderId});
        if (!q)
            return q.error();
        while (q->next()) {
            const std::pair<QString, QString> t{q->value(0).toString(), q->value(1).toString()};
            if (!t.first.isEmpty() && !t.second.isEmpty() && !txns.contains(t) && txns.size() < 50)
                txns << t;
        }
    }
    return txns;
}

Statements orderPageStatements(const QString &orderId, const ChannelTxns &txns)
{
    const QVariantList id{orderId};
    QVariantList messageBinds{orderId}, exceptionBinds{orderId};
    const QString messagesBy =
        "m.order_ref = ?" + orTransactions(txns, QStringLiteral("m."), &messageBinds);
    const QString exceptionsBy = "order_id = ?" + orTransactions(txns, QString(), &exceptionBinds);
    return {{"SELECT " + kOrderCols + " FROM orders o WHERE o.order_id = ?", id},
            {"SELECT * FROM order_transitions WHERE order_id = ? ORDER BY new_version", id},
            {"SELECT * FROM transition_rejections WHERE order_id = ? ORDER BY created_at", id},
            // its money first: the payments' transactions qualify the two reads after it
            {"SELECT p.*, m.payment_id FROM payments p LEFT JOIN settlement_matches m ON"
             " m.payment_id = p.id WHERE p.order_id = ? ORDER BY p.captured_at, p.id",
             id},
            {"SELECT * FROM ledger_entries WHERE order_id = ? ORDER BY created_at, id", id},
            {"SELECT * FROM refund_obligations WHERE order_id = ? ORDER BY created_at, id", id},
            // its callbacks, by the order they name and by its transactions, each on its channel
            {"SELECT m.*, d.reason, d.created_at, d.id FROM callback_messages m LEFT JOIN"
             " dead_letters d ON d.message_id = m.id WHERE " +
                 messagesBy + " ORDER BY m.received_at, m.id",
             messageBinds},
            // the failed worker attempts of those callbacks (callback_attempts by message_id)
            {"SELECT a.* FROM callback_attempts a WHERE a.message_id IN (SELECT m.id FROM"
             " callback_messages m WHERE " +
                 messagesBy + ")",
             messageBinds},
            // its reconciliation exceptions, by order and by its transactions on their channels
            // (0008's indexes), each with its payment's currency
            {"SELECT d.*, (SELECT MIN(p.currency) FROM payments p WHERE p.channel ="
             " d.channel AND p.channel_txn_id = d.channel_txn_id) FROM discrepancies d"
             " WHERE " +
                 exceptionsBy + " ORDER BY opened_at, id",
             exceptionBinds},
            {"SELECT * FROM idempotency_records WHERE order_id = ? ORDER BY created_at, id", id},
            {"SELECT status, callback_id, created_at FROM purchase_orders WHERE order_id = ?", id},
            {"SELECT status, callback_id, created_at FROM logistics_orders WHERE order_id = ?", id},
            // the fixes proposed for it, with their decisions (FixService::list: the fixes, then
            // each one's decisions)
            {"SELECT f.*, d.* FROM (SELECT * FROM fix_requests WHERE " +
                 FixService::orderCondition() +
                 " ORDER BY id DESC LIMIT 200) f LEFT JOIN fix_decisions d ON d.fix_id = f.id"
                 " ORDER BY f.id DESC, d.id",
             id}};
}

double rawMs(const QSqlDatabase &db, const Statements &statements)
{
    QElapsedTimer t;
    t.start();
    for (const auto &[sql, binds] : statements) {
        auto q = Sql::exec(db, sql, binds);
        if (!q)
            die(q.error().message);
        const int columns = q->record().count();
        while (q->next())
            for (int c = 0; c < columns; ++c)
                (void)q->value(c);
    }
    return t.nsecsElapsed() / 1e6;
}

Statements orDie(const Result<Statements> &statements)
{
    if (!statements)
        die(statements.error().message);
    return *statements;
}

} // namespace OncePay::Bench
