#include "db/connection.h"
#include "db/sql.h"
#include "simulationworld.h"
#include "simulator.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QSqlError>
#include <QSqlRecord>
#include <QTextStream>

namespace OncePay {

namespace {

QString dayOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).date().toString(Qt::ISODate);
}

} // namespace

QJsonObject SimulationSummary::toJson() const
{
    QJsonObject states, defects;
    for (auto it = ordersByState.cbegin(); it != ordersByState.cend(); ++it)
        states.insert(it.key(), it.value());
    for (auto it = defectsPlanted.cbegin(); it != defectsPlanted.cend(); ++it)
        defects.insert(it.key(), it.value());
    return {{"orders", orders},
            {"first_day", dayOf(startMs)},
            {"last_day", dayOf(endMs - 1)},
            {"callbacks_sent", callbacksSent},
            {"stored_new", storedNew},
            {"duplicates_absorbed", duplicatesAbsorbed},
            {"forged_sent", forgedSent},
            {"rejected_at_door", rejectedAtDoor},
            {"stale_sent", staleSent},
            {"stale_rejected", staleRejected},
            {"poison_sent", poisonSent},
            {"dead_letters", deadLetters},
            {"worker_crashes", workerCrashes},
            {"audit_ship_refused_during_outage", auditShipRefused},
            {"audit_rows", auditRows},
            {"stuck_paid_unconfirmed", stuckPaidUnconfirmed},
            {"refund_flags_open", refundFlagsOpen},
            {"open_messages", openMessages},
            {"orders_by_state", states},
            {"defects_planted", defects},
            {"statement_files", QJsonArray::fromStringList(statementFiles)},
            {"demo_accounts_created", QJsonArray::fromStringList(demoAccountsCreated)},
            {"invariant_failures", QJsonArray::fromStringList(invariantFailures)},
            {"business_digest", businessDigest},
            {"elapsed_ms", elapsedMs}};
}

QString SimulationSummary::toText() const
{
    QString t;
    QTextStream out(&t);
    out << "simulated days          " << dayOf(startMs) << " to " << dayOf(endMs - 1) << " (UTC)\n"
        << "orders                  " << orders << " in " << elapsedMs / 1000.0 << " s\n"
        << "callbacks sent          " << callbacksSent << " (" << storedNew << " new, "
        << duplicatesAbsorbed << " duplicates absorbed, " << rejectedAtDoor
        << " rejected at the door of " << forgedSent << " forged)\n"
        << "stale callbacks         " << staleSent << " sent, " << staleRejected
        << " rejected as stale\n"
        << "poison callbacks        " << poisonSent << " sent, " << deadLetters << " dead letters\n"
        << "worker crashes          " << workerCrashes << " (leases expired and were reclaimed)\n"
        << "audit outage            " << auditShipRefused << " shipping attempts refused; "
        << auditRows << " audit rows in the chain\n"
        << "stuck at the end        " << stuckPaidUnconfirmed << " paid_unconfirmed, "
        << refundFlagsOpen << " refund flags open, " << openMessages << " messages still open\n"
        << "orders by state        ";
    for (auto it = ordersByState.cbegin(); it != ordersByState.cend(); ++it)
        out << ' ' << it.key() << ' ' << it.value();
    out << '\n';
    if (!defectsPlanted.isEmpty()) {
        out << "defects planted        ";
        for (auto it = defectsPlanted.cbegin(); it != defectsPlanted.cend(); ++it)
            out << ' ' << it.key() << ' ' << it.value();
        out << '\n';
    }
    for (const QString &f : statementFiles)
        out << "statement               " << f << '\n';
    if (!demoAccountsCreated.isEmpty())
        out << "demo accounts           " << demoAccountsCreated.join(QStringLiteral(", "))
            << " (password <user>-demo; demo only)\n";
    out << "business digest         " << businessDigest << '\n';
    out << (invariantFailures.isEmpty()
                ? QStringLiteral("invariants              all hold\n")
                : QStringLiteral("INVARIANTS FAILED       %1\n").arg(invariantFailures.size()));
    for (const QString &f : invariantFailures.mid(0, 20))
        out << "  " << f << '\n';
    return t;
}

Result<QString> Simulator::businessDigest(const Connection &c)
{
    // Columns that carry business meaning; ids, UUIDs, lease owners and timings of the
    // worker are left out on purpose.
    const QStringList queries = {
        "SELECT order_id, customer_ref, amount_minor, currency, state, version, "
        "current_request_id, channel,"
        " channel_txn_id, state_reason, paid_at, created_at FROM orders ORDER BY order_id",
        "SELECT order_id, from_state, to_state, new_version, cause_kind, cause_id, reason, "
        "created_at"
        " FROM order_transitions ORDER BY order_id, new_version",
        "SELECT order_id, expected_version, actual_version, actual_state, requested_to, "
        "cause_kind, cause_id, reason"
        " FROM transition_rejections ORDER BY order_id, cause_id, requested_to",
        "SELECT order_id, channel, channel_txn_id, request_id, callback_id, amount_minor, "
        "currency, status"
        " FROM payments ORDER BY channel, channel_txn_id",
        "SELECT entry_key, order_id, kind, amount_minor, currency, callback_id FROM ledger_entries "
        "ORDER BY entry_key",
        "SELECT order_id, callback_id FROM purchase_orders ORDER BY order_id",
        "SELECT order_id, callback_id FROM logistics_orders ORDER BY order_id",
        "SELECT callback_id, channel, event_kind, order_ref, attempt_ref, channel_txn_id, "
        "amount_minor, currency,"
        " status, result_reason, raw_body FROM callback_messages ORDER BY callback_id",
        "SELECT callback_id, reason FROM dead_letters ORDER BY callback_id",
        "SELECT callback_id, order_id, channel, channel_txn_id, amount_minor, currency, "
        "resolved_at IS NULL"
        " FROM refund_obligations ORDER BY callback_id",
        "SELECT channel, reason_code, body_sha256 FROM ingest_rejections ORDER BY body_sha256",
    };
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString &sql : queries) {
        auto q = Sql::exec(c.db(), sql);
        if (!q)
            return q.error();
        const int columns = q->record().count();
        while (q->next()) {
            for (int i = 0; i < columns; ++i) {
                const QByteArray v = q->value(i).isNull() ? QByteArrayLiteral("\x01")
                                                          : q->value(i).toString().toUtf8();
                h.addData(QByteArray::number(v.size()));
                h.addData(QByteArrayView(":"));
                h.addData(v);
            }
            h.addData(QByteArrayView("\n"));
        }
        h.addData(QByteArrayView("\x02"));
    }
    return QString::fromLatin1(h.result().toHex());
}

namespace Sim {

void checkInvariants(const Connection &c, const QList<SimOrder> &world, SimulationSummary &s)
{
    auto count = [&](const QString &sql) {
        auto v = Sql::scalar(c.db(), sql);
        return v ? v->toLongLong() : -1;
    };
    auto q = Sql::exec(c.db(), QStringLiteral("SELECT state, COUNT(*) FROM orders GROUP BY state"));
    if (q)
        while (q->next())
            s.ordersByState[q->value(0).toString()] = q->value(1).toLongLong();
    s.staleRejected = count("SELECT COUNT(*) FROM callback_messages WHERE status = 'skipped' AND "
                            "result_code = 'stale'");
    s.deadLetters = count("SELECT COUNT(*) FROM dead_letters");
    s.stuckPaidUnconfirmed = count("SELECT COUNT(*) FROM orders WHERE state = 'paid_unconfirmed'");
    s.refundFlagsOpen = count("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL");
    s.openMessages = count(
        "SELECT COUNT(*) FROM callback_messages WHERE status IN ('pending','processing','failed')");
    s.auditRows = -1;

    auto failIf = [&](bool bad, const QString &what) {
        if (bad)
            s.invariantFailures << what;
    };

    // PostgreSQL's and MariaDB's SUM of BIGINT is a decimal: read exactly, never as a double
    // (rounded past 2^53). A sum that cannot be read exactly is a failure of its own, not a
    // ledger that seems to be some other number.
    QHash<QString, qint64> ledger;
    QSet<QString> unreadable; // orders whose ledger is not compared: its failure is already said
    bool ledgerRead = false;
    QHash<QString, QString> state;
    auto l = Sql::exec(
        c.db(),
        QStringLiteral("SELECT order_id, SUM(amount_minor) FROM ledger_entries GROUP BY order_id"),
        {}, Sql::Decimals::Exact);
    if (l) {
        while (l->next()) {
            const QString order = l->value(0).toString();
            auto sum = Sql::exactInteger(l->value(1), QStringLiteral("ledger of %1").arg(order));
            if (sum) {
                ledger[order] = *sum;
            } else {
                unreadable << order;
                failIf(true, sum.error().message);
            }
        }
        // SQLite's SUM past 64 bits fails on the row it reaches, ending the loop.
        ledgerRead = !l->lastError().isValid();
        if (!ledgerRead)
            failIf(true, Sql::classify(l->lastError(), QStringLiteral("ledger sums")).message);
    } else {
        failIf(true, l.error().message);
    }
    if (auto o = Sql::exec(c.db(), QStringLiteral("SELECT order_id, state FROM orders")))
        while (o->next())
            state[o->value(0).toString()] = o->value(1).toString();

    for (const SimOrder &o : world) {
        failIf(state.value(o.id) != o.expectedState,
               QStringLiteral("%1: state %2, expected %3")
                   .arg(o.id, state.value(o.id), o.expectedState));
        // Credits booked = captures succeeded − refunds, exactly.
        failIf(ledgerRead && !unreadable.contains(o.id) && ledger.value(o.id) != o.expectedLedger,
               QStringLiteral("%1: ledger %2, expected %3")
                   .arg(o.id)
                   .arg(ledger.value(o.id))
                   .arg(o.expectedLedger));
    }
    failIf(count("SELECT COUNT(*) FROM (SELECT order_id FROM ledger_entries WHERE kind = "
                 "'payment_credit'"
                 " GROUP BY order_id HAVING COUNT(*) > 1) d") != 0,
           QStringLiteral("an order has more than one payment credit"));
    const qint64 reachedPaid =
        count("SELECT COUNT(*) FROM orders WHERE state IN ('paid', 'refunded')");
    failIf(count("SELECT COUNT(*) FROM purchase_orders") != reachedPaid,
           QStringLiteral("purchase orders differ from orders that reached paid"));
    failIf(count("SELECT COUNT(*) FROM logistics_orders") != reachedPaid,
           QStringLiteral("logistics orders differ from orders that reached paid"));
    failIf(s.openMessages != 0,
           QStringLiteral("%1 messages still open after settling").arg(s.openMessages));
    failIf(
        s.staleRejected != s.staleSent,
        QStringLiteral("stale rejected %1 != stale sent %2").arg(s.staleRejected).arg(s.staleSent));
    failIf(s.deadLetters != s.poisonSent, QStringLiteral("dead letters %1 != poison callbacks %2")
                                              .arg(s.deadLetters)
                                              .arg(s.poisonSent));
    failIf(s.rejectedAtDoor != s.forgedSent, QStringLiteral("rejected at the door %1 != forged %2")
                                                 .arg(s.rejectedAtDoor)
                                                 .arg(s.forgedSent));
    failIf(count("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at IS NULL") != 0,
           QStringLiteral("audit outbox not drained after the outage"));
}

} // namespace Sim
} // namespace OncePay
