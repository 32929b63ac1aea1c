// FixTargets for discrepancies (adjust_fee, write_off): what a fix books, in which currency, how
// much is at stake for its approvals, and the moment a discrepancy belongs to for the period
// rules (fixtargets.h).

#include "core/money.h"
#include "db/sql.h"
#include "fixrules.h"
#include "fixtargets.h"
#include "reconciliation/discrepancymoment.h"

#include <QJsonValue>
#include <QSqlQuery>
#include <QSqlRecord>

namespace OncePay {

namespace {

QString str(qint64 v)
{
    return QString::number(v); // JSON numbers are doubles: integers travel as strings
}

Error stale(const QString &what)
{
    return makeError(ErrorCode::Stale, what, QStringLiteral("target_moved"));
}

const QString kCurrencyMismatch = QStringLiteral("currency_mismatch");
const QString kSettledAfterWriteOff = QStringLiteral("settled_after_write_off");

// Migration 0012's discrepancies.expected_currency (the currency of expected_minor), or NULL on
// a database from before it.
Result<QString> expectedCurrencyColumn(const QSqlDatabase &db)
{
    auto q = Sql::exec(db, QStringLiteral("SELECT * FROM discrepancies WHERE 1 = 0"));
    if (!q)
        return q.error();
    return q->record().indexOf(QStringLiteral("expected_currency")) >= 0
               ? QStringLiteral("d.expected_currency")
               : QStringLiteral("NULL");
}

} // namespace

QString FixTargets::discrepancyAtSql()
{
    return discrepancyMovedAtSql(QStringLiteral("pm")); // the rule the desk ages by too
}

QString FixTargets::discrepancyJoinsSql()
{
    return QStringLiteral(
        " FROM discrepancies d"
        " LEFT JOIN settlement_lines l ON l.id = d.settlement_line_id"
        " LEFT JOIN payments pm ON pm.channel = d.channel AND pm.channel_txn_id = d.channel_txn_id"
        " LEFT JOIN orders o ON o.order_id = COALESCE(pm.order_id, d.order_id)");
}

Result<PlannedFix> FixTargets::planDiscrepancy(const FixProposal &p) const
{
    bool ok = false;
    const qint64 id = p.targetId.trimmed().toLongLong(&ok);
    if (!ok)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("a discrepancy is named by its number, not '%1'").arg(p.targetId));
    auto expectedColumn = expectedCurrencyColumn(m_c.db());
    if (!expectedColumn)
        return expectedColumn.error();
    auto q =
        Sql::exec(m_c.db(),
                  QStringLiteral("SELECT d.kind, d.channel, d.channel_txn_id, d.order_id,"
                                 " d.expected_minor, d.actual_minor, d.currency, d.status, ") +
                      discrepancyAtSql() +
                      QStringLiteral(", l.currency, l.gross_minor, o.currency, pm.currency, ") +
                      *expectedColumn + QStringLiteral(", d.discrepancy_key") +
                      discrepancyJoinsSql() + QStringLiteral(" WHERE d.id = ?"),
                  {id});
    if (!q)
        return q.error();
    if (!q->next())
        return makeError(ErrorCode::NotFound, QStringLiteral("no discrepancy #%1").arg(id));
    const QString kind = q->value(0).toString();
    const QString status = q->value(7).toString();
    // The rule the console's offer asks too (fixrules.h).
    if (auto fits = fixFits(p.kind,
                            {.targetKind = QStringLiteral("discrepancy"),
                             .targetId = QString::number(id),
                             .status = status,
                             .discrepancyKind = kind},
                            {.nowMs = m_clock.nowMs()});
        !fits)
        return fits.error();
    const bool adjust = p.kind == FixKind::AdjustFee;
    const QString orderId = q->value(3).toString();
    if (adjust && orderId.isEmpty())
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("discrepancy #%1 has no order to book a fee adjustment on").arg(id),
            QStringLiteral("not_applicable"));
    const bool hasAmounts = !q->value(4).isNull() && !q->value(5).isNull();
    const qint64 expected = q->value(4).toLongLong();
    const qint64 actual = q->value(5).toLongLong();
    QString currency = q->value(6).toString();
    if (currency.isEmpty())
        currency = q->value(9).toString();
    std::optional<qint64> amount = p.amountMinor;
    // The currency of the expected amount: as recorded (migration 0012); before it, a currency
    // mismatch's was its order's (stored under the line's currency), any other's its own.
    QString expectedIn = q->value(13).toString();
    if (expectedIn.isEmpty() && kind == kCurrencyMismatch)
        expectedIn = !q->value(11).isNull() ? q->value(11).toString() : q->value(12).toString();
    if (expectedIn.isEmpty())
        expectedIn = currency;
    PlannedFix f;
    // Amounts in two currencies (a currency mismatch; a chargeback of a payment in another
    // currency than its line): no difference, so no default.
    if (kind == kCurrencyMismatch || (expectedIn != currency && hasAmounts && expected != 0)) {
        const QString settledIn = currency;
        if (!amount || p.currency.isEmpty())
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("discrepancy #%1 has amounts in two currencies "
                                            "(expected in %2, settled in %3); give the amount to "
                                            "book and its currency")
                                 .arg(QString::number(id), expectedIn, settledIn),
                             QStringLiteral("amount_and_currency_required"));
        if (p.currency != expectedIn && p.currency != settledIn)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("a fix of discrepancy #%1 books %2 or %3, not %4")
                                 .arg(QString::number(id), expectedIn, settledIn, p.currency),
                             QStringLiteral("wrong_currency"));
        currency = p.currency;
        if (hasAmounts) {
            const qint64 involved = qAbs(currency == expectedIn ? expected : actual);
            if (qAbs(*amount) > involved)
                return makeError(
                    ErrorCode::Invalid,
                    QStringLiteral("discrepancy #%1 involves %2; a fix of %3 is more than that")
                        .arg(QString::number(id), Currency::format(involved, currency),
                             Currency::format(*amount, currency)),
                    QStringLiteral("amount_beyond_discrepancy"));
            // Its approvals count what is at stake on either side, each in its currency.
            f.atStake = {{expectedIn, expected}, {settledIn, actual}};
        }
    } else {
        if (!p.currency.isEmpty() && p.currency != currency)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("a fix of discrepancy #%1 books %2, not %3")
                                 .arg(QString::number(id), currency, p.currency),
                             QStringLiteral("wrong_currency"));
        std::optional<qint64> difference;
        if (hasAmounts)
            difference = expected - actual;
        else if (!q->value(10).isNull())
            difference = q->value(10).toLongLong(); // an unknown settlement line: its gross
        // A fix closes the discrepancy: one that books less (or other) than its difference
        // would close it with money unexplained, and would need the approvals of that smaller
        // amount. There are no partial fixes.
        if (amount && difference && *amount != *difference)
            return makeError(ErrorCode::Invalid,
                             QStringLiteral("discrepancy #%1 differs by %2; %3 books that whole "
                                            "difference, not %4")
                                 .arg(QString::number(id), Currency::format(*difference, currency),
                                      p.kind, Currency::format(*amount, currency)),
                             QStringLiteral("amount_not_difference"));
        if (!amount)
            amount = difference;
        if (difference)
            f.atStake = {{currency, *difference}};
    }
    if (!amount)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("discrepancy #%1 carries no amounts; give the amount to book").arg(id));
    if (*amount == 0)
        return makeError(ErrorCode::Invalid, QStringLiteral("a fix of amount 0 changes nothing"));
    // A settlement after a write-off: its fix books the write-off back (the difference is
    // minus what was written off) and resolves the written-off discrepancy with it, whose line
    // has come.
    std::optional<qint64> reverses;
    if (kind == kSettledAfterWriteOff) {
        const QString key = q->value(14).toString().mid(kSettledAfterWriteOff.size() + 1);
        auto w = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT id, status FROM discrepancies"
                                          " WHERE discrepancy_key = ?"),
                           {key});
        if (!w)
            return w.error();
        if (!w->next() || w->value(1).toString() != u"written_off")
            return makeError(ErrorCode::Conflict,
                             QStringLiteral("discrepancy #%1 reverses a write-off that is no "
                                            "longer recorded; reconcile again")
                                 .arg(id),
                             QStringLiteral("not_applicable"));
        reverses = w->value(0).toLongLong();
    }
    f.targetKind = QStringLiteral("discrepancy");
    f.targetId = QString::number(id);
    f.orderId = orderId;
    f.before = {{QStringLiteral("status"), status},
                {QStringLiteral("kind"), kind},
                {QStringLiteral("expected_minor"),
                 q->value(4).isNull() ? QJsonValue() : QJsonValue(str(expected))},
                {QStringLiteral("actual_minor"),
                 q->value(5).isNull() ? QJsonValue() : QJsonValue(str(actual))}};
    f.after = {{QStringLiteral("status"),
                adjust || reverses ? QStringLiteral("resolved") : QStringLiteral("written_off")}};
    f.detail = {{QStringLiteral("ledger_kind"),
                 adjust ? QStringLiteral("fee_adjustment") : QStringLiteral("write_off")},
                {QStringLiteral("ledger_order"),
                 orderId.isEmpty() ? QStringLiteral("discrepancy:%1").arg(id) : orderId},
                {QStringLiteral("channel"), q->value(1).toString()},
                {QStringLiteral("channel_txn_id"), q->value(2).toString()}};
    if (reverses) {
        f.before.insert(QStringLiteral("reverses"),
                        QJsonObject{{QStringLiteral("discrepancy"), str(*reverses)},
                                    {QStringLiteral("status"), QStringLiteral("written_off")}});
        f.after.insert(QStringLiteral("reverses"),
                       QJsonObject{{QStringLiteral("discrepancy"), str(*reverses)},
                                   {QStringLiteral("status"), QStringLiteral("resolved")}});
        f.detail.insert(QStringLiteral("reverses"), str(*reverses));
    }
    f.amountMinor = amount;
    f.currency = currency;
    f.effectiveAt = q->value(8).toLongLong();
    return f;
}

Result<void> FixTargets::applyDiscrepancy(const FixRequest &fix) const
{
    const qint64 now = m_clock.nowMs();
    const QJsonObject d = fix.change.value(QStringLiteral("detail")).toObject();
    const QJsonObject after = fix.change.value(QStringLiteral("after")).toObject();
    auto n = Sql::update(
        m_c.db(),
        QStringLiteral("UPDATE discrepancies SET status = ?, closed_at = ?"
                       " WHERE id = ? AND status = 'open'"),
        {after.value(QStringLiteral("status")).toString(), now, fix.targetId.toLongLong()});
    if (!n)
        return n.error();
    if (*n != 1)
        return stale(
            QStringLiteral("discrepancy #%1 changed while the fix was applied").arg(fix.targetId));
    const QString reverses = d.value(QStringLiteral("reverses")).toString();
    if (!reverses.isEmpty()) {
        auto r =
            Sql::update(m_c.db(),
                        QStringLiteral("UPDATE discrepancies SET status = 'resolved',"
                                       " closed_at = ? WHERE id = ? AND status = 'written_off'"),
                        {now, reverses.toLongLong()});
        if (!r)
            return r.error();
        if (*r != 1)
            return stale(
                QStringLiteral("discrepancy #%1 changed while the fix was applied").arg(reverses));
    }
    auto l = Sql::exec(
        m_c.db(),
        QStringLiteral(
            "INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor, currency,"
            " channel, channel_txn_id, memo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {QStringLiteral("fix:%1").arg(fix.id), d.value(QStringLiteral("ledger_order")).toString(),
         d.value(QStringLiteral("ledger_kind")).toString(), fix.amountMinor.value_or(0),
         fix.currency, Sql::nullIfEmpty(d.value(QStringLiteral("channel")).toString()),
         Sql::nullIfEmpty(d.value(QStringLiteral("channel_txn_id")).toString()),
         reverses.isEmpty()
             ? QStringLiteral("fix #%1 on discrepancy #%2 (%3)")
                   .arg(fix.id)
                   .arg(fix.targetId, fix.reasonCode)
             : QStringLiteral("fix #%1 on discrepancy #%2 (%3): reverses the write-off of"
                              " discrepancy #%4")
                   .arg(fix.id)
                   .arg(fix.targetId, fix.reasonCode, reverses),
         now});
    if (!l)
        return l.error();
    return {};
}

} // namespace OncePay
