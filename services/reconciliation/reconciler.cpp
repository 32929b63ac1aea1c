#include "reconciler.h"

#include "reconciliationloader.h"
#include "reconciliationmatcher.h"
#include "reconciliationwriter.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/sqlitenative.h"
#include "db/transaction.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSet>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <utility>

namespace OncePay {

namespace {

constexpr qint64 kProgressEvery = 20000;
constexpr qint64 kDayMs = 24LL * 3600 * 1000;

// The period's end as asked: none means up to a day past now.
qint64 periodEnd(const ReconcileOptions &options, qint64 now)
{
    return options.toMs > 0 ? options.toMs : now + kDayMs;
}

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
                         QStringLiteral("ops setting %1 is not a non-negative number").arg(key),
                         QStringLiteral("bad_setting"));
    return n;
}

} // namespace

using Internal::LoadReader;

// The not_settled and refund_not_settled discrepancies a line may settle: the open ones, and
// the written-off ones with what was written off (the applied write-offs of each; the
// discrepancy's own difference when none is recorded).
Result<QList<OpenNotSettled>> Reconciler::openNotSettled() const
{
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT id, discrepancy_key, channel, channel_txn_id, status,"
                                      " order_id, COALESCE(expected_minor, 0),"
                                      " COALESCE(actual_minor, 0), currency FROM discrepancies"
                                      " WHERE kind IN ('not_settled', 'refund_not_settled') AND"
                                      " status IN ('open', 'written_off')"));
    if (!q)
        return q.error();
    QList<OpenNotSettled> out;
    QHash<QString, qsizetype> writtenOff; // discrepancy id -> index in out
    while (q->next()) {
        OpenNotSettled d;
        d.id = q->value(0).toLongLong();
        d.key = q->value(1).toString();
        d.channel = q->value(2).toString();
        d.channelTxnId = q->value(3).toString();
        d.writtenOff = q->value(4).toString() == u"written_off";
        d.orderId = q->value(5).toString();
        d.writeOffMinor = q->value(6).toLongLong() - q->value(7).toLongLong();
        d.writeOffCurrency = q->value(8).toString();
        if (d.writtenOff)
            writtenOff.insert(QString::number(d.id), out.size());
        out << d;
    }
    if (writtenOff.isEmpty())
        return out;
    auto w = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT target_id, amount_minor, currency FROM fix_requests"
                                      " WHERE target_kind = 'discrepancy' AND kind = 'write_off'"
                                      " AND status = 'applied' AND amount_minor IS NOT NULL"
                                      " ORDER BY id"));
    if (!w)
        return w.error();
    QSet<QString> seen;
    while (w->next()) {
        const QString target = w->value(0).toString();
        const auto it = writtenOff.constFind(target);
        if (it == writtenOff.constEnd())
            continue;
        OpenNotSettled &d = out[*it];
        if (!seen.contains(target)) { // the first applied write-off replaces the fallback
            seen.insert(target);
            d.writeOffMinor = 0;
            d.writeOffCurrency = w->value(2).toString();
        }
        if (w->value(2).toString() == d.writeOffCurrency)
            d.writeOffMinor += w->value(1).toLongLong();
    }
    return out;
}

Reconciler::Reconciler(const Connection &connection, const Clock &clock, Actor actor)
    : m_c(connection)
    , m_clock(clock)
    , m_actor(std::move(actor))
{}

Error Reconciler::refuse(const Error &why, const QString &step,
                         const ReconcileOptions &options) const
{
    const qint64 toMs = periodEnd(options, m_clock.nowMs());
    spdlog::warn("reconciliation run refused for {} ({}), period {}..{}, {}: {}",
                 m_actor.id.toStdString(), m_actor.role.toStdString(), options.fromMs, toMs,
                 step.toStdString(), why.message.toStdString());
    if (why.code == ErrorCode::Unavailable)
        return why; // the database is away; there is nowhere to write the audit row
    AuditEvent e;
    e.action = QStringLiteral("reconciliation.refused");
    e.entityKind = QStringLiteral("reconciliation_run");
    e.entityId = QStringLiteral("(not started)");
    e.after = {{QStringLiteral("step"), step},
               {QStringLiteral("period_from"), QString::number(options.fromMs)},
               {QStringLiteral("period_to"), QString::number(toMs)}};
    AuditOutbox::recordRefusal(m_c, m_clock, m_actor, e, why);
    return why;
}

Result<ReconcileReport> Reconciler::run(const ReconcileOptions &options) const
{
    QElapsedTimer timer;
    timer.start();
    const qint64 now = m_clock.nowMs();
    ReconcileReport report;
    report.fromMs = options.fromMs;
    report.toMs = periodEnd(options, now);
    if (report.toMs <= report.fromMs)
        return refuse(makeError(ErrorCode::Invalid,
                                QStringLiteral("the period ends before it starts"),
                                QStringLiteral("bad_period")),
                      QStringLiteral("period"), options);

    ReconcileSettings settings;
    auto tolerance =
        setting(m_c, QStringLiteral("reconcile.fee_tolerance_ppm"), settings.feeTolerancePpm);
    auto hours = setting(m_c, QStringLiteral("reconcile.unsettled_after_hours"), 24);
    auto skew = setting(m_c, QStringLiteral("reconcile.capture_skew_minutes"),
                        settings.captureSkewMs / 60000);
    for (const auto *r : {&tolerance, &hours, &skew})
        if (!*r) // a setting that is no number refuses the run; a failed read is no refusal
            return r->error().code == ErrorCode::Invalid
                       ? refuse(r->error(), QStringLiteral("settings"), options)
                       : r->error();
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
            QStringLiteral("SELECT channel, channel_txn_id, order_id, amount_minor, currency,"
                           " created_at FROM refund_obligations WHERE resolved_at IS NULL AND"
                           " channel_txn_id IS NOT NULL ORDER BY created_at DESC, id DESC"));
        if (!o)
            return o.error();
        while (o->next()) // the earliest obligation of a transaction is inserted last
            obligations.insert(
                ReconciliationMatcher::keyOf(o->value(0).toString(), o->value(1).toString()),
                {o->value(2).toString(), o->value(3).toLongLong(), o->value(4).toString(),
                 o->value(5).toLongLong()});
    }

    const QVariantList paymentBinds{report.fromMs, report.toMs};
    // Lines are read from a little before the period: a capture OncePay booked late (a
    // callback retried for up to three days, the worker's lag) can have its line settled
    // before the period it is booked in; unmatched lines before the period stay its own.
    const qint64 linesFrom = report.fromMs - std::max(kFeeExplainMaxLagMs, settings.captureSkewMs);
    const QVariantList lineBinds{linesFrom, report.toMs + kSettlementLookaheadMs};
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
    // When the period holds most of a table, reading it in rowid order beats a lookup per row
    // through its time index (payments_captured, settlement_lines_time): SQLite has no
    // statistics to know.
    auto source = [&](const QString &table, const QString &alias,
                      qint64 inPeriod) -> Result<QString> {
        const QString named = table + u' ' + alias;
        if (m_c.dialect() != Dialect::Sqlite)
            return named;
        auto all = Sql::scalar(m_c.db(), QStringLiteral("SELECT COUNT(*) FROM ") + table);
        if (!all)
            return all.error();
        return inPeriod * 4 > all->toLongLong() * 3 ? named + QStringLiteral(" NOT INDEXED")
                                                    : named;
    };
    auto paymentTable =
        source(QStringLiteral("payments"), QStringLiteral("p"), paymentCount->toLongLong());
    if (!paymentTable)
        return stop(QStringLiteral("failed"), &paymentTable.error());
    auto lineTable =
        source(QStringLiteral("settlement_lines"), QStringLiteral("l"), lineCount->toLongLong());
    if (!lineTable)
        return stop(QStringLiteral("failed"), &lineTable.error());
    // What OncePay refunded of each payment is what its ledger says (the worker's
    // PaymentEffects::refundedTotal): the refund_debit rows of the payment's transaction, one per
    // refund, partial ones included (payments.status turns 'refunded' only when they reach the
    // captured amount). Summed once for the whole ledger, grouped, not looked up per payment. A
    // payment refunded before its confirmation has no ledger row, only its status.
    const QString paymentSql =
        QStringLiteral("SELECT p.id, p.order_id, p.channel, p.channel_txn_id, p.amount_minor,"
                       " p.currency, COALESCE(r.refunded_minor, CASE WHEN p.status = 'refunded'"
                       " THEN p.amount_minor ELSE 0 END),"
                       " CASE WHEN m.payment_id IS NULL THEN 0 ELSE 1 END,"
                       " p.captured_at, o.amount_minor,"
                       " o.currency, o.state, COALESCE(r.refunded_at, p.refunded_at) FROM ") +
        *paymentTable +
        QStringLiteral(" JOIN orders o ON o.order_id = p.order_id"
                       " LEFT JOIN settlement_matches m ON m.payment_id = p.id"
                       " LEFT JOIN (SELECT channel, channel_txn_id, -SUM(amount_minor) AS"
                       " refunded_minor, MAX(created_at) AS refunded_at FROM ledger_entries"
                       " WHERE kind = 'refund_debit' GROUP BY channel, channel_txn_id) r"
                       " ON r.channel = p.channel AND r.channel_txn_id = p.channel_txn_id"
                       " WHERE p.captured_at >= ? AND p.captured_at < ?");
    const QString lineSql =
        QStringLiteral("SELECT l.id, l.channel, l.channel_txn_id, l.kind, l.gross_minor,"
                       " l.fee_minor, l.currency, l.settled_at, COALESCE(l.transacted_at, 0)"
                       " FROM ") +
        *lineTable + QStringLiteral(" WHERE l.settled_at >= ? AND l.settled_at < ?");
    // On SQLite two reader threads, one for each side, each on its own read-only connection:
    // this thread builds the hash table from the payments as they arrive, then probes it with
    // the lines the other reader has been buffering meanwhile (up to ~half a million).
    std::optional<LoadReader> paymentReader, lineReader;
    if (SqliteNative::handle(m_c.db()) && QFileInfo(m_c.db().databaseName()).isFile()) {
        paymentReader.emplace(
            m_c.db().databaseName(),
            std::vector<LoadReader::Query>{{paymentSql.toUtf8(), report.fromMs, report.toMs,
                                            "itttitiiiitti", paymentCount->toLongLong()}},
            16);
        lineReader.emplace(m_c.db().databaseName(),
                           std::vector<LoadReader::Query>{{lineSql.toUtf8(), linesFrom,
                                                           report.toMs + kSettlementLookaheadMs,
                                                           "itttiitii", lineCount->toLongLong()}},
                           64);
        if (!paymentReader->opened() || !lineReader->opened()) {
            paymentReader.reset(); // read through the connection itself
            lineReader.reset();
        }
    }
    auto addPayment = [&](auto &r) {
        PaymentView p;
        p.id = r.number(0);
        p.orderId = r.bytes(1);
        p.channel = r.bytes(2);
        p.channelTxnId = r.bytes(3);
        p.amountMinor = r.number(4);
        p.currency = r.bytes(5);
        p.refundedMinor = r.number(6);
        p.settled = r.number(7) == 1;
        p.capturedAtMs = r.number(8);
        p.orderAmountMinor = r.number(9);
        p.orderCurrency = r.bytes(10);
        p.orderState = r.bytes(11);
        p.refundedAtMs = r.number(12);
        matcher.addPayment(p);
        ++report.payments;
        return tick();
    };
    auto addLine = [&](auto &r) {
        LineView l;
        l.id = r.number(0);
        l.channel = r.bytes(1);
        l.channelTxnId = r.bytes(2);
        l.kind = r.bytes(3);
        l.grossMinor = r.number(4);
        l.feeMinor = r.number(5);
        l.currency = r.bytes(6);
        l.settledAtMs = r.number(7);
        l.transactedAtMs = r.number(8);
        matcher.addLine(l);
        ++report.lines;
        return tick();
    };
    if (paymentReader) {
        // Each row's hash bucket is asked for kFar rows ahead and, for a line, the payment that
        // bucket names kNear rows ahead, so that adding a row seldom waits for memory; `channel`
        // and `txn` are the query's columns of the channel and its transaction id.
        constexpr size_t kFar = 16, kNear = 8;
        auto drain = [&](LoadReader &reader, auto &add, int channel, int txn,
                         bool slots) -> std::optional<bool> {
            while (auto chunk = reader.next()) {
                const size_t rows = chunk->values.size() / size_t(chunk->width);
                LoadReader::ChunkRow r{&*chunk, 0}, ahead{&*chunk, 0};
                for (; r.row < rows; ++r.row) {
                    if ((ahead.row = r.row + kFar) < rows)
                        matcher.prefetch(ahead.bytes(channel), ahead.bytes(txn), false);
                    if (slots && (ahead.row = r.row + kNear) < rows)
                        matcher.prefetch(ahead.bytes(channel), ahead.bytes(txn), true);
                    if (!add(r))
                        return false;
                }
            }
            return std::nullopt;
        };
        if (drain(*paymentReader, addPayment, /*channel*/ 2, /*txn*/ 3, false))
            return stop(QStringLiteral("cancelled"), nullptr);
        if (const auto e = paymentReader->error())
            return stop(QStringLiteral("failed"), &*e);
        lap("load payments");
        if (drain(*lineReader, addLine, /*channel*/ 1, /*txn*/ 2, true))
            return stop(QStringLiteral("cancelled"), nullptr);
        if (const auto e = lineReader->error())
            return stop(QStringLiteral("failed"), &*e);
    } else {
        auto payments = Internal::scan(m_c, paymentSql, paymentBinds, addPayment);
        if (!payments)
            return stop(QStringLiteral("failed"), &payments.error());
        if (!*payments)
            return stop(QStringLiteral("cancelled"), nullptr);
        lap("load payments");
        auto lines = Internal::scan(m_c, lineSql, lineBinds, addLine);
        if (!lines)
            return stop(QStringLiteral("failed"), &lines.error());
        if (!*lines)
            return stop(QStringLiteral("cancelled"), nullptr);
    }
    lap("load lines");
    auto elsewhere = Internal::settledElsewhere(m_c, matcher.unmatchedLines());
    if (!elsewhere)
        return stop(QStringLiteral("failed"), &elsewhere.error());
    auto open = openNotSettled(); // may be settled by this run's lines
    if (!open)
        return stop(QStringLiteral("failed"), &open.error());
    const MatchOutcome outcome = matcher.finish(*elsewhere, *open);
    lap("classify");
    if (options.progress && !options.progress(total, total))
        return stop(QStringLiteral("cancelled"), nullptr);

    report.eligible = outcome.eligible;
    report.matched = outcome.matched;
    report.notYetDue = outcome.notYetDue;
    report.adjusted = outcome.adjusted;
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
