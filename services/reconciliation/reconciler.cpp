#include "reconciler.h"

#include "reconciliationmatcher.h"
#include "reconciliationwriter.h"

#include "db/sql.h"

#include <QElapsedTimer>
#include <QSqlError>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

constexpr qint64 kProgressEvery = 20000;

Result<qint64> setting(const Connection &c, const QString &key, qint64 fallback)
{
    auto v = Sql::scalar(
        c.db(), QStringLiteral("SELECT setting_value FROM ops_settings WHERE setting_key = ?"),
        {key});
    if (!v)
        return v.error();
    if (v->isNull())
        return fallback;
    bool ok = false;
    const qint64 n = v->toString().toLongLong(&ok);
    if (!ok || n < 0)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("ops setting %1 is not a non-negative number").arg(key));
    return n;
}

Result<QSqlQuery> forward(const Connection &c, const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(c.db());
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return Sql::classify(q.lastError(), sql.left(60));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return Sql::classify(q.lastError(), sql.left(60));
    return q;
}

// Payments of other periods that unmatched lines belong to (captured before `from`).
Result<QSet<QString>> settledElsewhere(const Connection &c, const QList<LineFact> &lines)
{
    QHash<QString, QStringList> byChannel;
    for (const LineFact &l : lines)
        byChannel[l.channel] << l.channelTxnId;
    QSet<QString> found;
    for (auto it = byChannel.cbegin(); it != byChannel.cend(); ++it) {
        QStringList ids = it.value();
        ids.removeDuplicates();
        for (qsizetype i = 0; i < ids.size(); i += 500) {
            const QStringList chunk = ids.mid(i, 500);
            QVariantList binds{it.key()};
            QString marks;
            for (const QString &id : chunk) {
                marks += marks.isEmpty() ? QStringLiteral("?") : QStringLiteral(",?");
                binds << id;
            }
            auto q =
                Sql::exec(c.db(),
                          QStringLiteral("SELECT channel_txn_id FROM payments WHERE channel = ? AND"
                                         " channel_txn_id IN (") +
                              marks + u')',
                          binds);
            if (!q)
                return q.error();
            while (q->next())
                found.insert(ReconciliationMatcher::keyOf(it.key(), q->value(0).toString()));
        }
    }
    return found;
}

} // namespace

Reconciler::Reconciler(const Connection &connection, const Clock &clock, Actor actor)
    : m_c(connection)
    , m_clock(clock)
    , m_actor(std::move(actor))
{}

Result<ReconcileReport> Reconciler::run(const ReconcileOptions &options) const
{
    QElapsedTimer timer;
    timer.start();
    const qint64 now = m_clock.nowMs();
    ReconcileReport report;
    report.fromMs = options.fromMs;
    report.toMs = options.toMs > 0 ? options.toMs : now + 24LL * 3600 * 1000;
    if (report.toMs <= report.fromMs)
        return makeError(ErrorCode::Invalid, QStringLiteral("the period ends before it starts"));

    ReconcileSettings settings;
    auto tolerance =
        setting(m_c, QStringLiteral("reconcile.fee_tolerance_ppm"), settings.feeTolerancePpm);
    auto hours = setting(m_c, QStringLiteral("reconcile.unsettled_after_hours"), 24);
    auto skew = setting(m_c, QStringLiteral("reconcile.capture_skew_minutes"),
                        settings.captureSkewMs / 60000);
    for (const auto *r : {&tolerance, &hours, &skew})
        if (!*r)
            return r->error();
    settings.feeTolerancePpm = *tolerance;
    settings.unsettledAfterMs = *hours * 3600 * 1000;
    settings.captureSkewMs = *skew * 60000;

    auto rules = [&]() -> Result<QList<FeeRule>> {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT id, channel, currency, effective_from, rate_ppm,"
                                          " fixed_minor FROM fee_schedules"));
        if (!q)
            return q.error();
        QList<FeeRule> out;
        while (q->next())
            out << FeeRule{q->value(0).toLongLong(),
                           q->value(1).toString(),
                           q->value(2).toString(),
                           q->value(3).toLongLong(),
                           q->value(4).toLongLong(),
                           q->value(5).toLongLong(),
                           {}};
        return out;
    }();
    if (!rules)
        return rules.error();
    QList<ClosedPeriodFact> closed;
    QHash<QString, RefundObligationFact> obligations;
    {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT period_from, period_to FROM closed_periods"));
        if (!q)
            return q.error();
        while (q->next())
            closed << ClosedPeriodFact{q->value(0).toLongLong(), q->value(1).toLongLong()};
        auto o = Sql::exec(
            m_c.db(),
            QStringLiteral("SELECT channel, channel_txn_id, order_id, amount_minor, currency"
                           " FROM refund_obligations WHERE resolved_at IS NULL AND"
                           " channel_txn_id IS NOT NULL"));
        if (!o)
            return o.error();
        while (o->next())
            obligations.insert(
                ReconciliationMatcher::keyOf(o->value(0).toString(), o->value(1).toString()),
                {o->value(2).toString(), o->value(3).toLongLong(), o->value(4).toString()});
    }

    const QVariantList paymentBinds{report.fromMs, report.toMs};
    const QVariantList lineBinds{report.fromMs, report.toMs + kSettlementLookaheadMs};
    auto paymentCount =
        Sql::scalar(m_c.db(),
                    QStringLiteral("SELECT COUNT(*) FROM payments WHERE captured_at >= ?"
                                   " AND captured_at < ?"),
                    paymentBinds);
    auto lineCount =
        Sql::scalar(m_c.db(),
                    QStringLiteral("SELECT COUNT(*) FROM settlement_lines WHERE settled_at >= ?"
                                   " AND settled_at < ?"),
                    lineBinds);
    if (!paymentCount)
        return paymentCount.error();
    if (!lineCount)
        return lineCount.error();
    const qint64 total = paymentCount->toLongLong() + lineCount->toLongLong();

    ReconciliationWriter writer(m_c, m_clock, m_actor);
    auto runId = writer.startRun(report.fromMs, report.toMs);
    if (!runId)
        return runId.error();
    report.runId = *runId;

    auto stop = [&](const QString &status, const Error *error) -> Result<ReconcileReport> {
        report.status = status;
        if (auto r = writer.markStopped(report, status); !r)
            spdlog::error("reconcile: cannot mark run {} {}: {}", report.runId,
                          status.toStdString(), r.error().message.toStdString());
        if (error)
            return *error;
        report.elapsedMs = timer.elapsed();
        return report;
    };
    qint64 done = 0;
    auto tick = [&]() {
        ++done;
        return !(options.progress && done % kProgressEvery == 0 && !options.progress(done, total));
    };

    if (m_c.dialect() == Dialect::Sqlite) // the payments' and lines' index pages stay cached
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA cache_size = -262144"));
    qint64 phase = timer.elapsed();
    QStringList phases;
    auto lap = [&](const char *name) {
        phases << QStringLiteral("%1 %2 ms").arg(QLatin1String(name)).arg(timer.elapsed() - phase);
        phase = timer.elapsed();
    };
    ReconciliationMatcher matcher(settings, FeeSchedule(*rules), closed, obligations, now,
                                  report.fromMs, report.toMs);
    matcher.reserve(paymentCount->toLongLong());
    {
        auto q = forward(
            m_c,
            QStringLiteral(
                "SELECT p.id, p.order_id, p.channel, p.channel_txn_id, p.amount_minor,"
                " p.currency, CASE WHEN p.status = 'refunded' THEN 1 ELSE 0 END,"
                " CASE WHEN p.settlement_status = 'settled' THEN 1 ELSE 0 END,"
                " p.captured_at, o.amount_minor,"
                " o.currency, o.state, p.refunded_at FROM payments p"
                " JOIN orders o ON o.order_id = p.order_id"
                " WHERE p.captured_at >= ? AND p.captured_at < ?"),
            paymentBinds);
        if (!q)
            return stop(QStringLiteral("failed"), &q.error());
        while (q->next()) {
            PaymentFact p;
            p.id = q->value(0).toLongLong();
            p.orderId = q->value(1).toString();
            p.channel = q->value(2).toString();
            p.channelTxnId = q->value(3).toString();
            p.amountMinor = q->value(4).toLongLong();
            p.currency = q->value(5).toString();
            p.refunded = q->value(6).toInt() == 1;
            p.settled = q->value(7).toInt() == 1;
            p.capturedAtMs = q->value(8).toLongLong();
            p.orderAmountMinor = q->value(9).toLongLong();
            p.orderCurrency = q->value(10).toString();
            p.orderState = q->value(11).toString();
            p.refundedAtMs = q->value(12).toLongLong();
            matcher.addPayment(std::move(p));
            ++report.payments;
            if (!tick())
                return stop(QStringLiteral("cancelled"), nullptr);
        }
    }
    {
        auto q = forward(
            m_c,
            QStringLiteral(
                "SELECT id, channel, channel_txn_id, kind, gross_minor, fee_minor, currency,"
                " settled_at FROM settlement_lines WHERE settled_at >= ? AND settled_at < ?"),
            lineBinds);
        if (!q)
            return stop(QStringLiteral("failed"), &q.error());
        LineFact l;
        while (q->next()) {
            l.id = q->value(0).toLongLong();
            l.channel = q->value(1).toString();
            l.channelTxnId = q->value(2).toString();
            l.kind = q->value(3).toString();
            l.grossMinor = q->value(4).toLongLong();
            l.feeMinor = q->value(5).toLongLong();
            l.currency = q->value(6).toString();
            l.settledAtMs = q->value(7).toLongLong();
            matcher.addLine(l);
            ++report.lines;
            if (!tick())
                return stop(QStringLiteral("cancelled"), nullptr);
        }
    }
    lap("load");
    auto elsewhere = settledElsewhere(m_c, matcher.unmatchedLines());
    if (!elsewhere)
        return stop(QStringLiteral("failed"), &elsewhere.error());
    const MatchOutcome outcome = matcher.finish(*elsewhere);
    lap("classify");
    if (options.progress && !options.progress(total, total))
        return stop(QStringLiteral("cancelled"), nullptr);

    report.eligible = outcome.eligible;
    report.matched = outcome.matched;
    report.notYetDue = outcome.notYetDue;
    report.coveragePpm = report.eligible ? report.matched * 1000000 / report.eligible : 1000000;
    for (const QString &kind : DiscrepancyKind::all())
        report.counts.insert(kind, 0);
    for (const Finding &f : outcome.findings)
        ++report.counts[f.kind];
    report.findings = outcome.findings;
    report.status = QStringLiteral("finished");
    if (auto r = writer.commit(outcome, report); !r) {
        Error e = r.error();
        return stop(QStringLiteral("failed"), &e);
    }
    lap("write");
    report.elapsedMs = timer.elapsed();
    spdlog::info("reconcile run {}: {} payments, {} lines, {} findings; {}", report.runId,
                 report.payments, report.lines, report.findings.size(),
                 phases.join(QStringLiteral(", ")).toStdString());
    return report;
}

} // namespace OncePay
