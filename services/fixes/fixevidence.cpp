// FixTargets::evidence: what a reviewer reads beside a proposal — the message, discrepancy or
// order as it stands now, its settlement line and payments, what was captured against the order
// and the order's history — every amount in its currency's decimals. Read only.

#include "fixtargets.h"

#include "audit/auditoutbox.h"
#include "auth/permissions.h"
#include "core/money.h"
#include "db/sql.h"
#include "desk/reconciliationdesk.h"
#include "fixchange.h"
#include "orders/orderrepository.h"
#include "orders/orderservice.h"

#include <QDateTime>
#include <QSqlQuery>

namespace OncePay {

Result<QStringList> FixTargets::evidence(const FixRequest &fix, const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    QStringList lines;
    const auto when = [](qint64 ms) {
        return ms ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate)
                  : QStringLiteral("-");
    };
    if (!fix.callbackId.isEmpty()) {
        auto q = Sql::exec(
            m_c.db(),
            QStringLiteral("SELECT channel, event_kind, status, attempts, last_error, received_at,"
                           " updated_at FROM callback_messages WHERE callback_id = ?"),
            {fix.callbackId});
        if (!q)
            return q.error();
        if (q->next())
            lines << QStringLiteral(
                         "message %1 (%2 %3): %4 after %5 attempt(s), received %6, last change %7")
                         .arg(fix.callbackId, q->value(0).toString(), q->value(1).toString(),
                              q->value(2).toString(), q->value(3).toString(),
                              when(q->value(5).toLongLong()), when(q->value(6).toLongLong()))
                  << QStringLiteral("  last error: %1").arg(q->value(4).toString());
    }
    if (fix.targetKind == u"discrepancy") {
        DiscrepancyFilter filter;
        filter.id = fix.targetId.toLongLong();
        auto rows = ReconciliationDesk(m_c, m_clock).discrepancies(filter, actor);
        if (!rows)
            return rows.error();
        for (const DiscrepancyRow &d : *rows) {
            lines << QStringLiteral("discrepancy #%1 %2 on %3 %4, %5: expected %6, actual %7")
                         .arg(d.id)
                         .arg(d.kind, d.channel, d.channelTxnId, d.status,
                              d.expectedMinor
                                  ? Currency::format(*d.expectedMinor, d.expectedCurrency())
                                  : QStringLiteral("-"),
                              d.actualMinor ? Currency::format(*d.actualMinor, d.currency)
                                            : QStringLiteral("-"));
            if (!d.detail.isEmpty())
                lines << QStringLiteral("  %1").arg(d.detail);
            if (d.line.present)
                lines << QStringLiteral(
                             "  settlement line #%1 (%2): gross %3, fee %4, net %5, settled %6")
                             .arg(d.line.lineId)
                             .arg(d.line.kind, Currency::format(d.line.grossMinor, d.line.currency),
                                  Currency::format(d.line.feeMinor, d.line.currency),
                                  Currency::format(d.line.netMinor, d.line.currency),
                                  when(d.line.settledAt));
            if (d.payment.present)
                lines << QStringLiteral("  payment of order %1: %2, %3, captured %4")
                             .arg(d.payment.orderId,
                                  Currency::format(d.payment.amountMinor, d.payment.currency),
                                  d.payment.status, when(d.payment.capturedAt));
        }
    }
    if (!fix.orderId.isEmpty()) {
        auto h = OrderService(m_c, m_clock).history(fix.orderId);
        if (!h && h.error().code != ErrorCode::NotFound)
            return h.error();
        if (!h) {
            lines << QStringLiteral(
                         "order %1 does not exist (yet): a callback for it cannot be applied")
                         .arg(fix.orderId);
        } else {
            lines << QStringLiteral("order %1: %2 at version %3, %4")
                         .arg(h->order.orderId, orderStateName(h->order.state))
                         .arg(h->order.version)
                         .arg(Currency::format(h->order.amountMinor, h->order.currency));
            if (!h->order.stateReason.isEmpty())
                lines << QStringLiteral("  state reason: %1").arg(h->order.stateReason);
            // What was captured, each payment, and the total against the order's amount.
            auto money =
                readCaptured(m_c, h->order.orderId, h->order.amountMinor, h->order.currency);
            if (!money)
                return money.error();
            lines << money->evidenceLines;
            for (const OrderTransition &t : h->transitions)
                lines << QStringLiteral("  v%1 %2 → %3 by %4 (%5 %6) %7")
                             .arg(t.newVersion)
                             .arg(t.fromState, t.toState, t.actor, t.causeKind, t.causeId,
                                  t.reason);
            for (const TransitionRejection &r : h->rejections)
                lines << QStringLiteral("  refused: %1").arg(r.reason);
        }
    }
    if (fix.targetKind == u"period")
        lines << QStringLiteral("period %1, bound to %2")
                     .arg(fix.targetId, AuditOutbox::toJson(
                                            fix.change.value(QStringLiteral("before")).toObject()));
    return lines;
}

} // namespace OncePay
