#include "fixtargets.h"

#include "audit/auditevent.h"
#include "audit/auditoutbox.h"
#include "auth/permissions.h"
#include "core/money.h"
#include "db/sql.h"
#include "desk/reconciliationdesk.h"
#include "fixchange.h"
#include "fixrules.h"
#include "fixsettings.h"
#include "orders/orderrepository.h"
#include "orders/orderservice.h"
#include "worker/messagestore.h"

#include <QDateTime>
#include <QJsonValue>
#include <QSqlQuery>

#include <optional>

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

// The refusals of a discrepancy fix's amount or currency (planDiscrepancy).
bool amountRefusal(const Error &e)
{
    return e.reason == u"amount_not_difference" || e.reason == u"amount_and_currency_required" ||
           e.reason == u"wrong_currency" || e.reason == u"amount_beyond_discrepancy";
}

} // namespace

Result<QPair<qint64, qint64>> FixTargets::parsePeriod(const QString &text)
{
    const QStringList parts = text.split(QStringLiteral(".."));
    if (parts.size() != 2)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("a period is FROM..TO (dates YYYY-MM-DD or epoch ms), not '%1'")
                .arg(text));
    auto one = [](const QString &s) -> std::optional<qint64> {
        bool ok = false;
        const qint64 ms = s.toLongLong(&ok);
        if (ok)
            return ms;
        const QDate d = QDate::fromString(s.trimmed(), Qt::ISODate);
        if (!d.isValid())
            return std::nullopt;
        return QDateTime(d, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
    };
    const auto from = one(parts[0]);
    const auto to = one(parts[1]);
    if (!from || !to || *from >= *to)
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("period '%1' is not a valid FROM..TO with FROM < TO").arg(text));
    return QPair<qint64, qint64>{*from, *to};
}

QString FixTargets::periodTarget(qint64 fromMs, qint64 toMs)
{
    return QStringLiteral("%1..%2").arg(fromMs).arg(toMs);
}

Result<void> FixTargets::ensurePeriodOpen(qint64 effectiveAt) const
{
    if (effectiveAt <= 0)
        return {};
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT id, period_from, period_to FROM closed_periods"
                                      " WHERE period_from <= ? AND ? < period_to"),
                       {effectiveAt, effectiveAt});
    if (!q)
        return q.error();
    if (q->next())
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("the target lies in closed period #%1 (%2 .. %3); a closed "
                                        "period takes no fix")
                             .arg(q->value(0).toLongLong())
                             .arg(QDateTime::fromMSecsSinceEpoch(q->value(1).toLongLong(), Qt::UTC)
                                      .toString(Qt::ISODate),
                                  QDateTime::fromMSecsSinceEpoch(q->value(2).toLongLong(), Qt::UTC)
                                      .toString(Qt::ISODate)),
                         QStringLiteral("period_closed"));
    return {};
}

Result<PlannedFix> FixTargets::plan(const FixProposal &p) const
{
    return plan(p, nullptr);
}

Result<PlannedFix> FixTargets::plan(const FixProposal &p, QJsonObject *seenBefore) const
{
    const QString target = FixKind::targetKind(p.kind);
    if (target == u"message")
        return planMessage(p, seenBefore);
    if (target == u"order")
        return planOrder(p);
    if (target == u"discrepancy")
        return planDiscrepancy(p);
    if (target == u"period")
        return planPeriod(p);
    return makeError(ErrorCode::Invalid,
                     QStringLiteral("unknown fix kind '%1' (one of: %2)")
                         .arg(p.kind, FixKind::all().join(QStringLiteral(", "))));
}

// --- messages --------------------------------------------------------------------------

Result<PlannedFix> FixTargets::planMessage(const FixProposal &p, QJsonObject *seenBefore) const
{
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT callback_id, order_ref, status, attempts, updated_at,"
                                      " lease_until, amount_minor, currency, received_at, channel"
                                      " FROM callback_messages WHERE callback_id = ?"),
                       {p.targetId.trimmed()});
    if (!q)
        return q.error();
    if (!q->next())
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("no message with callback id '%1'").arg(p.targetId));
    const QString status = q->value(2).toString();
    FixTargetState state{
        .targetKind = QStringLiteral("message"), .targetId = p.targetId, .status = status};
    if (!q->value(5).isNull())
        state.leaseUntilMs = q->value(5).toLongLong();
    const QJsonObject before{{QStringLiteral("status"), status},
                             {QStringLiteral("attempts"), str(q->value(3).toLongLong())},
                             {QStringLiteral("updated_at"), str(q->value(4).toLongLong())}};
    // Seen before the rule judges it: an approval compares it with the proposal's first, so a
    // message that moved fails as moved even when the rule would refuse it now.
    if (seenBefore)
        *seenBefore = before;
    // A lease end was written by its worker's clock: judged with the clock-skew allowance.
    auto skew = FixSettings::leaseSkewMs(m_c);
    if (!skew)
        return skew.error();
    // The rule the console's offer asks too (fixrules.h).
    if (auto fits = fixFits(p.kind, state, {.nowMs = m_clock.nowMs(), .leaseSkewMs = *skew}); !fits)
        return fits.error();
    const bool requeue = p.kind == FixKind::RequeueMessage;
    PlannedFix f;
    f.targetKind = QStringLiteral("message");
    f.targetId = q->value(0).toString();
    f.callbackId = q->value(0).toString();
    f.orderId = q->value(1).toString();
    f.before = before;
    // Applying stamps updated_at with the time of applying (applyMessage).
    if (requeue)
        f.after = {{QStringLiteral("status"), QStringLiteral("pending")},
                   {QStringLiteral("attempts"), QStringLiteral("0")},
                   {QStringLiteral("updated_at"), FixChange::WhenApplied}};
    else
        f.after = {{QStringLiteral("status"), QStringLiteral("skipped")},
                   {QStringLiteral("result_reason"), QStringLiteral("resolved by a manual fix")},
                   {QStringLiteral("updated_at"), FixChange::WhenApplied}};
    f.detail = {{QStringLiteral("channel"), q->value(9).toString()}};
    if (!q->value(6).isNull()) {
        f.amountMinor = q->value(6).toLongLong();
        f.currency = q->value(7).toString();
    }
    f.effectiveAt = q->value(8).toLongLong();
    return f;
}

Result<void> FixTargets::applyMessage(const FixRequest &fix) const
{
    const qint64 now = m_clock.nowMs();
    const QJsonObject before = fix.change.value(QStringLiteral("before")).toObject();
    const QString status = before.value(QStringLiteral("status")).toString();
    const qint64 updatedAt = before.value(QStringLiteral("updated_at")).toString().toLongLong();
    // A message still 'processing' is one whose worker died holding it (the rule takes it only
    // once its lease is over): that attempt is lost, and recorded as a worker taking it over
    // records it (MessageStore::claim) — read now, written with the change below.
    std::optional<CallbackAttempt> lost;
    if (status == u"processing") {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT id, attempts, lease_owner, lease_until FROM"
                                          " callback_messages WHERE callback_id = ? AND status ="
                                          " 'processing' AND updated_at = ?"),
                           {fix.targetId, updatedAt});
        if (!q)
            return q.error();
        if (q->next())
            lost = CallbackAttempt{
                q->value(0).toLongLong(),
                q->value(1).toInt(),
                q->value(2).toString(),
                QStringLiteral("lease_expired"),
                QStringLiteral("lease expired before the worker finished; taken over by fix #%1")
                    .arg(fix.id),
                updatedAt,
                q->value(3).toLongLong()};
    }
    Result<int> n = 0;
    if (fix.kind == FixKind::RequeueMessage)
        n = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE callback_messages SET status = 'pending', attempts = 0,"
                           " next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,"
                           " finished_at = NULL, updated_at = ?, requeued_at = ?"
                           " WHERE callback_id = ? AND status = ? AND updated_at = ?"),
            {now, now, now, fix.targetId, status, updatedAt});
    else
        n = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE callback_messages SET status = 'skipped',"
                           " result_reason = ?, result_code = 'resolved_by_fix',"
                           " lease_owner = NULL, lease_until = NULL,"
                           " finished_at = ?, updated_at = ?"
                           " WHERE callback_id = ? AND status = ? AND updated_at = ?"),
            {QStringLiteral("resolved by fix #%1: %2").arg(fix.id).arg(fix.comment.left(200)), now,
             now, fix.targetId, status, updatedAt});
    if (!n)
        return n.error();
    if (*n != 1)
        return stale(
            QStringLiteral("message %1 changed while the fix was applied").arg(fix.targetId));
    if (lost) {
        if (auto a = MessageStore(m_c, m_clock).recordAttempt(*lost); !a)
            return a.error();
    }
    if (fix.kind == FixKind::RequeueMessage) {
        auto d = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE dead_letters SET requeued_at = ? WHERE callback_id = ?"
                           " AND requeued_at IS NULL"),
            {now, fix.targetId});
        if (!d)
            return d.error();
    }
    return {};
}

// --- orders ----------------------------------------------------------------------------

Result<PlannedFix> FixTargets::planOrder(const FixProposal &p) const
{
    auto found = OrderRepository(m_c).find(p.targetId.trimmed());
    if (!found)
        return found.error();
    if (!*found)
        return makeError(ErrorCode::NotFound, QStringLiteral("no order '%1'").arg(p.targetId));
    const Order o = **found;
    const bool confirm = p.kind == FixKind::ConfirmPayment;
    const OrderState to = confirm ? OrderState::Paid : OrderState::PendingPayment;
    // The rule the console's offer asks too (fixrules.h).
    if (auto fits = fixFits(p.kind,
                            {.targetKind = QStringLiteral("order"),
                             .targetId = o.orderId,
                             .status = orderStateName(o.state)},
                            {.nowMs = m_clock.nowMs()});
        !fits)
        return fits.error();
    auto captured =
        Sql::scalar(m_c.db(),
                    QStringLiteral("SELECT MAX(captured_at) FROM payments WHERE order_id = ?"
                                   " AND status = 'captured'"),
                    {o.orderId});
    if (!captured)
        return captured.error();
    if (confirm) { // what the confirmation would refuse is not proposed
        if (auto ok = OrderService(m_c, m_clock).confirmable(o); !ok)
            return ok.error();
    }
    PlannedFix f;
    f.targetKind = QStringLiteral("order");
    f.targetId = o.orderId;
    f.orderId = o.orderId;
    f.expectedVersion = o.version;
    f.before = {{QStringLiteral("state"), orderStateName(o.state)},
                {QStringLiteral("version"), str(o.version)}};
    f.after = {{QStringLiteral("state"), orderStateName(to)},
               {QStringLiteral("version"), str(o.version + 1)}};
    f.amountMinor = o.amountMinor;
    f.currency = o.currency;
    f.effectiveAt = captured->isNull() ? o.createdAt : captured->toLongLong();
    // What the reviewer approves against: the money captured, short of or beyond the order's
    // amount, and why the order stands where it does.
    auto money = readCaptured(m_c, o.orderId, o.amountMinor, o.currency);
    if (!money)
        return money.error();
    f.context = money->context;
    // A confirmation books the money captured (payment_credit), which may be more than the
    // order's amount or in another currency: its approvals count from every captured total,
    // each in its currency, beside the order's amount (FixService::propose).
    for (auto it = money->totals.cbegin(); it != money->totals.cend(); ++it)
        f.atStake.append({it.key(), it.value()});
    if (!o.stateReason.isEmpty())
        f.context.insert(QStringLiteral("state_reason"), o.stateReason);
    return f;
}

Result<void> FixTargets::applyOrder(const FixRequest &fix, const Actor &approver) const
{
    const OrderState to =
        fix.kind == FixKind::ConfirmPayment ? OrderState::Paid : OrderState::PendingPayment;
    TransitionRequest t =
        OrderService::request(fix.targetId, fix.expectedVersion, to, CauseKind::Fix,
                              QStringLiteral("fix:%1").arg(fix.id), approver,
                              QStringLiteral("fix #%1 (%2) proposed by %3: %4")
                                  .arg(fix.id)
                                  .arg(fix.reasonCode, fix.proposedBy, fix.comment.left(200)));
    auto o = OrderService(m_c, m_clock).transitionInTransaction(t);
    if (!o)
        return o.error();
    return {};
}

// --- periods ---------------------------------------------------------------------------

Result<PlannedFix> FixTargets::planPeriod(const FixProposal &p) const
{
    auto period = parsePeriod(p.targetId);
    if (!period)
        return period.error();
    // The rule the console's offer asks too (fixrules.h); what decides a period is read below.
    if (auto fits =
            fixFits(p.kind, {.targetKind = QStringLiteral("period"), .targetId = p.targetId},
                    {.nowMs = m_clock.nowMs()});
        !fits)
        return fits.error();
    const auto [from, to] = *period;
    auto overlap = Sql::scalar(m_c.db(),
                               QStringLiteral("SELECT COUNT(*) FROM closed_periods"
                                              " WHERE period_from < ? AND ? < period_to"),
                               {to, from});
    if (!overlap)
        return overlap.error();
    if (overlap->toLongLong() > 0)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("the period overlaps a period that is already closed"),
                         QStringLiteral("period_closed"));
    auto run = Sql::exec(
        m_c.db(),
        QStringLiteral("SELECT id, coverage_ppm FROM reconciliation_runs WHERE status = 'finished'"
                       " AND period_from <= ? AND period_to >= ? ORDER BY id DESC"),
        {from, to});
    if (!run)
        return run.error();
    if (!run->next())
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("no finished reconciliation run covers the period; reconcile it first"),
            QStringLiteral("not_reconciled"));
    const qint64 runId = run->value(0).toLongLong();
    const qint64 coverage = run->value(1).toLongLong();
    // Dated as a fix to each is (discrepancyAtSql): an exception of the period's own captures
    // keeps it open even when its line settled after the period's end.
    auto open = Sql::scalar(m_c.db(),
                            QStringLiteral("SELECT COUNT(*)") + discrepancyJoinsSql() +
                                QStringLiteral(" WHERE d.status = 'open' AND %1 >= ? AND %1 < ?")
                                    .arg(discrepancyAtSql()),
                            {from, to});
    if (!open)
        return open.error();
    if (open->toLongLong() > 0)
        return makeError(
            ErrorCode::Conflict,
            QStringLiteral("%1 discrepancies of the period are still open; decide them first")
                .arg(open->toLongLong()),
            QStringLiteral("open_discrepancies"));
    PlannedFix f;
    f.targetKind = QStringLiteral("period");
    f.targetId = periodTarget(from, to);
    f.before = {{QStringLiteral("status"), QStringLiteral("open")},
                {QStringLiteral("open_discrepancies"), QStringLiteral("0")},
                {QStringLiteral("reconciliation_run"), str(runId)},
                {QStringLiteral("coverage_ppm"), str(coverage)}};
    f.after = {{QStringLiteral("status"), QStringLiteral("closed")}};
    f.detail = {{QStringLiteral("period_from"), str(from)}, {QStringLiteral("period_to"), str(to)}};
    return f;
}

Result<void> FixTargets::applyPeriod(const FixRequest &fix, const Actor &approver) const
{
    const QJsonObject d = fix.change.value(QStringLiteral("detail")).toObject();
    auto c = Sql::exec(
        m_c.db(),
        QStringLiteral("INSERT INTO closed_periods (period_from, period_to, closed_by, closed_at)"
                       " VALUES (?, ?, ?, ?)"),
        {d.value(QStringLiteral("period_from")).toString().toLongLong(),
         d.value(QStringLiteral("period_to")).toString().toLongLong(), approver.id,
         m_clock.nowMs()});
    if (!c)
        return c.error();
    return {};
}

// --- apply -----------------------------------------------------------------------------

Result<void> FixTargets::apply(const FixRequest &fix, const Actor &approver) const
{
    FixProposal again;
    again.kind = fix.kind;
    again.targetId = fix.targetId;
    // The amount approved is the one under the digest (the change), not the row's column.
    FixRequest bound = fix;
    if (fix.change.contains(QStringLiteral("amount_minor"))) {
        bound.amountMinor =
            fix.change.value(QStringLiteral("amount_minor")).toString().toLongLong();
        bound.currency = fix.change.value(QStringLiteral("currency")).toString();
    }
    again.amountMinor = bound.amountMinor;
    again.currency = bound.currency;
    const QJsonObject before = fix.change.value(QStringLiteral("before")).toObject();
    const auto moved = [&before](const QJsonObject &seen) {
        return stale(QStringLiteral("the target moved since the proposal: it was %1, it is now %2")
                         .arg(AuditOutbox::toJson(before), AuditOutbox::toJson(seen)));
    };
    QJsonObject seen;
    auto now = plan(again, &seen);
    if (!now) {
        if (now.error().code == ErrorCode::Unavailable || now.error().code == ErrorCode::Internal)
            return now.error();
        // The target as the proposal saw it comes first: one that moved (a worker claimed the
        // message again) fails as moved whatever the rule says of it now.
        if (!seen.isEmpty() && seen != before)
            return moved(seen);
        // Neither a setting nobody meant nor a lease this clock cannot yet call expired is a
        // move of an unmoved target: refused as they are (FixService then records nothing but
        // the refusal, and the proposal stays open), not failed as stale.
        if (now.error().reason == u"bad_setting" || now.error().reason == u"lease_within_skew")
            return now.error();
        // An amount the rules refuse now (a proposal made before they held): said as it is,
        // and the fix fails with it.
        if (amountRefusal(now.error()))
            return now.error();
        return stale(
            QStringLiteral("the target moved since the proposal: %1").arg(now.error().message));
    }
    if (now->before != before)
        return moved(now->before);
    if (auto open = ensurePeriodOpen(now->effectiveAt); !open)
        return open.error();
    if (fix.targetKind == u"message")
        return applyMessage(fix);
    if (fix.targetKind == u"order")
        return applyOrder(fix, approver);
    if (fix.targetKind == u"discrepancy")
        return applyDiscrepancy(bound);
    return applyPeriod(fix, approver);
}

} // namespace OncePay
