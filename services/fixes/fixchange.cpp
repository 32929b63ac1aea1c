#include "fixchange.h"

#include "core/money.h"
#include "db/sql.h"

#include <QDateTime>
#include <QMap>
#include <QSqlQuery>

namespace OncePay {

namespace {

QString text(const QJsonValue &v)
{
    return v.isUndefined() || v.isNull() ? QStringLiteral("—") : v.toVariant().toString();
}

} // namespace

QList<FixChangeLine> fixChangeLines(const QJsonObject &change)
{
    using Kind = FixChangeLine::Kind;
    const QJsonObject before = change.value(QStringLiteral("before")).toObject();
    const QJsonObject after = change.value(QStringLiteral("after")).toObject();
    const QJsonObject detail = change.value(QStringLiteral("detail")).toObject();
    const QJsonObject context = change.value(QStringLiteral("context")).toObject();
    const QString target = change.value(QStringLiteral("target")).toString();
    const bool message = target.startsWith(u"message:");
    const bool discrepancy = target.startsWith(u"discrepancy:");

    QList<FixChangeLine> changes;
    QList<FixChangeLine> contexts;
    QStringList keys = before.keys();
    for (const QString &k : after.keys())
        if (!keys.contains(k))
            keys.append(k);
    for (const QString &k : keys) {
        const QString b = text(before.value(k));
        QString a = after.contains(k) ? text(after.value(k)) : b;
        // Applying a message fix stamps updated_at with the time of applying (applyMessage),
        // also for a change stored before its `after` said so.
        if (message && k == u"updated_at")
            a = FixChange::WhenApplied;
        changes.append({k, b, a, Kind::Change});
    }
    // A message fix's detail (its channel) is only context; a discrepancy's or a period's
    // detail is the ledger entry or the closed period the fix writes.
    for (const QString &k : detail.keys()) {
        const QString v = text(detail.value(k));
        if (message)
            contexts.append({k, v, v, Kind::Context});
        else
            changes.append({k, QString(), v, Kind::Change});
    }
    if (change.contains(QStringLiteral("amount_minor"))) {
        const QString amount =
            Currency::format(change.value(QStringLiteral("amount_minor")).toString().toLongLong(),
                             change.value(QStringLiteral("currency")).toString());
        // A discrepancy fix books the amount; a message's or an order's amount is what it is.
        if (discrepancy)
            changes.append({QStringLiteral("amount"), QString(), amount, Kind::Change});
        else
            contexts.append({QStringLiteral("amount"), amount, amount, Kind::Context});
    }
    for (const QString &k : context.keys()) {
        const QString v = text(context.value(k));
        contexts.append({k, v, v, Kind::Context});
    }
    return changes + contexts;
}

Result<CapturedMoney> readCaptured(const Connection &c, const QString &orderId,
                                   qint64 orderAmountMinor, const QString &orderCurrency)
{
    auto q = Sql::exec(c.db(),
                       QStringLiteral("SELECT channel, channel_txn_id, amount_minor, currency,"
                                      " status, captured_at FROM payments WHERE order_id = ?"
                                      " ORDER BY captured_at, id"),
                       {orderId});
    if (!q)
        return q.error();
    CapturedMoney m;
    QMap<QString, qint64> &totals = m.totals;
    while (q->next()) {
        const qint64 minor = q->value(2).toLongLong();
        const QString currency = q->value(3).toString();
        const QString status = q->value(4).toString();
        m.evidenceLines << QStringLiteral("  payment %1 %2: %3, %4, captured %5")
                               .arg(
                                   q->value(0).toString(), q->value(1).toString(),
                                   Currency::format(minor, currency), status,
                                   QDateTime::fromMSecsSinceEpoch(q->value(5).toLongLong(), Qt::UTC)
                                       .toString(Qt::ISODate));
        if (status == u"captured")
            totals[currency] += minor;
    }
    const QString ordered = Currency::format(orderAmountMinor, orderCurrency);
    if (totals.isEmpty()) {
        m.evidenceLines << QStringLiteral("  nothing captured against the order's %1").arg(ordered);
        m.context.insert(QStringLiteral("captured"), QStringLiteral("—"));
        return m;
    }
    QStringList parts;
    for (auto it = totals.cbegin(); it != totals.cend(); ++it)
        parts << Currency::format(it.value(), it.key());
    m.captured = parts.join(QStringLiteral(" + "));
    m.context.insert(QStringLiteral("captured"), m.captured);
    if (totals.size() != 1 || !totals.contains(orderCurrency)) {
        // No difference across currencies: the reviewer reads both.
        m.evidenceLines << QStringLiteral("  captured %1 in total, the order is %2 (another "
                                          "currency: no difference computed)")
                               .arg(m.captured, ordered);
        return m;
    }
    const qint64 diff = totals.value(orderCurrency) - orderAmountMinor;
    if (diff < 0) {
        m.shortfall = Currency::format(-diff, orderCurrency);
        m.context.insert(QStringLiteral("shortfall"), m.shortfall);
        m.evidenceLines << QStringLiteral("  captured %1 in total: %2 less than the order's %3")
                               .arg(m.captured, m.shortfall, ordered);
    } else if (diff > 0) {
        m.excess = Currency::format(diff, orderCurrency);
        m.context.insert(QStringLiteral("excess"), m.excess);
        m.evidenceLines << QStringLiteral("  captured %1 in total: %2 more than the order's %3")
                               .arg(m.captured, m.excess, ordered);
    } else {
        m.evidenceLines
            << QStringLiteral("  captured %1 in total: the order's amount").arg(m.captured);
    }
    return m;
}

} // namespace OncePay
