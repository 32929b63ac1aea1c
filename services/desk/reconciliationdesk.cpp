#include "reconciliationdesk.h"

#include "auth/permissions.h"
#include "auth/staffrights.h"
#include "db/sql.h"
#include "reconciliation/discrepancymoment.h"
#include "reconciliation/reconciler.h"
#include "settings/opssettings.h"
#include "settlement/formats/statementformat.h"

#include <QSqlQuery>

namespace OncePay {

namespace {

std::optional<qint64> optionalInt(const QSqlQuery &q, int column)
{
    if (q.value(column).isNull())
        return std::nullopt;
    return q.value(column).toLongLong();
}

} // namespace

Result<QList<ReconciliationRunRow>> ReconciliationDesk::runs(const Actor &actor, int limit) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    auto q = Sql::exec(
        m_c.db(), QStringLiteral(
                      "SELECT r.id, r.period_from, r.period_to, r.status, r.eligible, r.matched,"
                      " r.coverage_ppm, r.auto_fixed, r.opened, r.actor, r.started_at,"
                      " COALESCE(r.finished_at, 0),"
                      " (SELECT COUNT(*) FROM closed_periods c WHERE c.period_from <= r.period_from"
                      "  AND r.period_to <= c.period_to)"
                      " FROM reconciliation_runs r ORDER BY r.id DESC LIMIT %1")
                      .arg(qBound(1, limit, 10000)));
    if (!q)
        return q.error();
    QList<ReconciliationRunRow> out;
    while (q->next()) {
        ReconciliationRunRow r;
        r.id = q->value(0).toLongLong();
        r.periodFrom = q->value(1).toLongLong();
        r.periodTo = q->value(2).toLongLong();
        r.status = q->value(3).toString();
        r.eligible = q->value(4).toLongLong();
        r.matched = q->value(5).toLongLong();
        r.coveragePpm = optionalInt(*q, 6);
        r.autoFixed = q->value(7).toLongLong();
        r.opened = q->value(8).toLongLong();
        r.actor = q->value(9).toString();
        r.startedAt = q->value(10).toLongLong();
        r.finishedAt = q->value(11).toLongLong();
        r.closed = q->value(12).toLongLong() > 0;
        out.append(r);
    }
    return out;
}

Result<QList<DiscrepancyRow>> ReconciliationDesk::discrepancies(const DiscrepancyFilter &filter,
                                                                const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    const qint64 now = m_clock.nowMs();
    // The moment each exception ages from (reconciliationdesk.h, DiscrepancyRow::agedFromMs):
    // when the money it is about moved, as a fix of it is dated (discrepancymoment.h). One
    // expression for the column, the age filter and the order.
    const QString agedFrom = discrepancyMovedAtSql(QStringLiteral("p"));
    QString sql = QStringLiteral(
        "SELECT d.id, d.kind, d.channel, d.channel_txn_id, d.order_id, d.expected_minor,"
        " d.actual_minor, d.currency, d.status, d.rule_id, d.rule_version, d.fee_schedule_id,"
        " fs.note, d.evidence_sha256, d.detail, d.opened_at, d.closed_at,"
        " l.id, l.kind, l.gross_minor, l.fee_minor, l.net_minor, l.currency, l.settled_at,"
        " p.order_id, p.amount_minor, p.currency, p.status, p.captured_at, o.state,"
        " (SELECT f.id FROM fix_requests f WHERE f.open_target = %1), %2, p.refunded_at,"
        " l.transacted_at, COALESCE(d.expected_currency, d.currency)"
        " FROM discrepancies d"
        " LEFT JOIN settlement_lines l ON l.id = d.settlement_line_id"
        " LEFT JOIN payments p ON p.channel = d.channel AND p.channel_txn_id = d.channel_txn_id"
        " LEFT JOIN orders o ON o.order_id = COALESCE(p.order_id, d.order_id)"
        " LEFT JOIN fee_schedules fs ON fs.id = d.fee_schedule_id"
        " WHERE d.opened_at <= ?");
    // open_target is "discrepancy:<id>"; concatenation differs by dialect.
    sql = sql.arg(m_c.dialect() == Dialect::MySql
                      ? QStringLiteral("CONCAT('discrepancy:', d.id)")
                      : QStringLiteral("'discrepancy:' || CAST(d.id AS TEXT)"),
                  agedFrom);
    QVariantList binds{now};
    if (filter.minAgeMs > 0) {
        // The age as shown: to when it was closed, or to now while it is not.
        sql += QStringLiteral(" AND COALESCE(d.closed_at, ?) - %1 >= ?").arg(agedFrom);
        binds << now << filter.minAgeMs;
    }
    if (!filter.statuses.isEmpty()) {
        QStringList marks;
        for (const QString &s : filter.statuses) {
            marks << QStringLiteral("?");
            binds << s;
        }
        sql += QStringLiteral(" AND d.status IN (%1)").arg(marks.join(QStringLiteral(", ")));
    }
    if (filter.id > 0) {
        sql += QStringLiteral(" AND d.id = ?");
        binds << filter.id;
    }
    if (!filter.kind.isEmpty()) {
        sql += QStringLiteral(" AND d.kind = ?");
        binds << filter.kind;
    }
    if (!filter.channel.isEmpty()) {
        sql += QStringLiteral(" AND d.channel = ?");
        binds << filter.channel;
    }
    // Oldest money first.
    sql += QStringLiteral(" ORDER BY %1, d.id LIMIT %2")
               .arg(agedFrom, QString::number(qBound(1, filter.limit, 100000)));
    auto q = Sql::exec(m_c.db(), sql, binds);
    if (!q)
        return q.error();
    QList<DiscrepancyRow> out;
    while (q->next()) {
        DiscrepancyRow d;
        d.id = q->value(0).toLongLong();
        d.kind = q->value(1).toString();
        d.channel = q->value(2).toString();
        d.channelTxnId = q->value(3).toString();
        d.orderId = q->value(4).toString();
        d.expectedMinor = optionalInt(*q, 5);
        d.actualMinor = optionalInt(*q, 6);
        d.currency = q->value(7).toString();
        d.expectedIn = q->value(34).toString();
        d.status = q->value(8).toString();
        d.ruleId = q->value(9).toString();
        d.ruleVersion = q->value(10).toInt();
        d.feeScheduleId = q->value(11).toLongLong();
        d.feeScheduleNote = q->value(12).toString();
        d.evidenceSha256 = q->value(13).toString();
        d.detail = q->value(14).toString();
        d.openedAt = q->value(15).toLongLong();
        d.closedAt = q->value(16).toLongLong();
        d.agedFromMs = q->value(31).toLongLong();
        d.ageMs = qMax<qint64>(0, (d.closedAt ? d.closedAt : now) - d.agedFromMs);
        if (!q->value(17).isNull()) {
            d.line.present = true;
            d.line.lineId = q->value(17).toLongLong();
            d.line.kind = q->value(18).toString();
            d.line.grossMinor = q->value(19).toLongLong();
            d.line.feeMinor = q->value(20).toLongLong();
            d.line.netMinor = q->value(21).toLongLong();
            d.line.currency = q->value(22).toString();
            d.line.settledAt = q->value(23).toLongLong();
            d.line.transactedAt = q->value(33).toLongLong(); // NULL: 0
            if (const StatementFormat *format = StatementFormat::forChannel(d.channel))
                d.line.settledAtMeaning = format->settledAtMeaning(d.line.kind);
        }
        if (!q->value(24).isNull()) {
            d.payment.present = true;
            d.payment.orderId = q->value(24).toString();
            d.payment.amountMinor = q->value(25).toLongLong();
            d.payment.currency = q->value(26).toString();
            d.payment.status = q->value(27).toString();
            d.payment.capturedAt = q->value(28).toLongLong();
            d.payment.orderState = q->value(29).toString();
            d.payment.refundedAt = q->value(32).toLongLong();
            if (d.orderId.isEmpty())
                d.orderId = d.payment.orderId;
        }
        d.openFixId = q->value(30).toLongLong();
        out.append(d);
    }
    return out;
}

Result<DeskSummary> ReconciliationDesk::summary(const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT status, kind, channel, COUNT(*) FROM discrepancies"
                                      " GROUP BY status, kind, channel"));
    if (!q)
        return q.error();
    DeskSummary s;
    while (q->next()) {
        const qint64 n = q->value(3).toLongLong();
        if (q->value(0).toString() == u"open") {
            s.open += n;
            s.openByKind[q->value(1).toString()] += n;
            s.openByChannel[q->value(2).toString()] += n;
        } else if (q->value(0).toString() == u"auto_fixed") {
            s.autoFixed += n;
        }
    }
    auto last =
        Sql::scalar(m_c.db(), QStringLiteral("SELECT MAX(finished_at) FROM reconciliation_runs"
                                             " WHERE status = 'finished'"));
    if (!last)
        return last.error();
    auto owed = Sql::scalar(
        m_c.db(),
        QStringLiteral("SELECT COUNT(*) FROM refund_obligations WHERE resolved_at IS NULL"));
    if (!owed)
        return owed.error();
    s.refundsOwed = owed->toLongLong();
    auto settings = OpsSettings::load(m_c);
    if (!settings)
        return settings.error();
    s.lastFinishedAt = last->toLongLong();
    s.cadenceMs = settings->integer(QStringLiteral("reconcile.cadence_hours"), 24) * 3600 * 1000;
    s.overdue = m_clock.nowMs() - s.lastFinishedAt > s.cadenceMs;
    return s;
}

Result<ReconcileReport> ReconciliationDesk::reconcile(const ReconcileOptions &options,
                                                      const Actor &actor) const
{
    const Reconciler reconciler(m_c, m_clock, actor);
    // Each refusal of rights: a log line and a reconciliation.refused audit row, no run row.
    if (auto allowed = require(actor, Action::DecideFix); !allowed)
        return reconciler.refuse(
            makeError(ErrorCode::Forbidden,
                      QStringLiteral("%1 (%2) may not start a reconciliation run")
                          .arg(actor.id, actor.role),
                      QStringLiteral("forbidden")),
            QStringLiteral("rights"), options);
    // The reviewer's rights as they are now, not as at sign-in (issue #8). A run writes in
    // many transactions of its own, so this is checked once, before it starts.
    if (auto current = requireCurrent(m_c, actor, Action::DecideFix); !current)
        return current.error().code == ErrorCode::Forbidden
                   ? reconciler.refuse(current.error(), QStringLiteral("rights"), options)
                   : current.error(); // the staff row could not be read: no refusal
    return reconciler.run(options);
}

} // namespace OncePay
