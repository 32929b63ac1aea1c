#include "reconciler.h"

#include "reconciliationmatcher.h"
#include "reconciliationwriter.h"

#include "db/sql.h"
#include "db/sqlitenative.h"

#include <QElapsedTimer>
#include <QSqlError>

#include <spdlog/spdlog.h>

#include <array>
#include <cstring>
#include <string_view>
#include <utility>

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

// Rows of the load phase, read either through QtSql or (on SQLite) through SQLite's C API on
// the same connection, which skips a QVariant and a QString per value. Both give the same
// values: NULL integers read as 0, NULL text as an empty string. Text comes as UTF-8 views,
// valid until the next row; the matcher copies what it keeps.
class QtRow {
public:
    explicit QtRow(QSqlQuery q)
        : m_q(std::move(q))
    {}
    QSqlQuery &query() { return m_q; }
    std::string_view bytes(int i)
    {
        QByteArray &b = m_utf8[size_t(i)];
        b = m_q.value(i).toString().toUtf8();
        return {b.constData(), size_t(b.size())};
    }
    qint64 number(int i) const { return m_q.value(i).toLongLong(); }

private:
    QSqlQuery m_q;
    std::array<QByteArray, 16> m_utf8;
};

class NativeRow {
public:
    SqliteNative::Statement &statement() { return m_st; }
    std::string_view bytes(int i) const
    {
        int n = 0;
        const char *p = m_st.text(i, &n);
        return {p, size_t(n)};
    }
    qint64 number(int i) const { return m_st.int64(i); }

private:
    SqliteNative::Statement m_st;
};

// Runs a SELECT and hands each row to `row` until it returns false (cancelled): true when all
// rows were read, false when cancelled.
template <typename F>
Result<bool> scan(const Connection &c, const QString &sql, const QVariantList &binds, F &&row)
{
    if (sqlite3 *h = SqliteNative::handle(c.db())) {
        NativeRow r;
        if (auto p = r.statement().prepare(h, sql.toUtf8()); !p)
            return p.error();
        r.statement().bindAll(binds);
        for (;;) {
            auto more = r.statement().step();
            if (!more)
                return more.error();
            if (!*more)
                return true;
            if (!row(r))
                return false;
        }
    }
    auto q = forward(c, sql, binds);
    if (!q)
        return q.error();
    QtRow r(std::move(*q));
    while (r.query().next())
        if (!row(r))
            return false;
    if (r.query().lastError().isValid())
        return Sql::classify(r.query().lastError(), sql.left(60));
    return true;
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
    auto addPayment = [&](auto &r) {
        PaymentView p;
        p.id = r.number(0);
        p.orderId = r.bytes(1);
        p.channel = r.bytes(2);
        p.channelTxnId = r.bytes(3);
        p.amountMinor = r.number(4);
        p.currency = r.bytes(5);
        p.refunded = r.number(6) == 1;
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
    auto payments =
        scan(m_c,
             QStringLiteral("SELECT p.id, p.order_id, p.channel, p.channel_txn_id, p.amount_minor,"
                            " p.currency, CASE WHEN p.status = 'refunded' THEN 1 ELSE 0 END,"
                            " CASE WHEN p.settlement_status = 'settled' THEN 1 ELSE 0 END,"
                            " p.captured_at, o.amount_minor,"
                            " o.currency, o.state, p.refunded_at FROM payments p"
                            " JOIN orders o ON o.order_id = p.order_id"
                            " WHERE p.captured_at >= ? AND p.captured_at < ?"),
             paymentBinds, addPayment);
    if (!payments)
        return stop(QStringLiteral("failed"), &payments.error());
    if (!*payments)
        return stop(QStringLiteral("cancelled"), nullptr);
    lap("load payments");
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
        matcher.addLine(l);
        ++report.lines;
        return tick();
    };
    // When the period holds most of the lines, reading the table in rowid order beats a
    // lookup per line through settlement_lines_time (SQLite has no statistics to know).
    QString lineTable = QStringLiteral("settlement_lines");
    if (m_c.dialect() == Dialect::Sqlite) {
        auto all = Sql::scalar(m_c.db(), QStringLiteral("SELECT COUNT(*) FROM settlement_lines"));
        if (!all)
            return stop(QStringLiteral("failed"), &all.error());
        if (lineCount->toLongLong() * 4 > all->toLongLong() * 3)
            lineTable += QStringLiteral(" NOT INDEXED");
    }
    auto lines = scan(
        m_c,
        QStringLiteral("SELECT id, channel, channel_txn_id, kind, gross_minor, fee_minor, currency,"
                       " settled_at FROM ") +
            lineTable + QStringLiteral(" WHERE settled_at >= ? AND settled_at < ?"),
        lineBinds, addLine);
    if (!lines)
        return stop(QStringLiteral("failed"), &lines.error());
    if (!*lines)
        return stop(QStringLiteral("cancelled"), nullptr);
    lap("load lines");
    auto elsewhere = settledElsewhere(m_c, matcher.unmatchedLines());
    if (!elsewhere)
        return stop(QStringLiteral("failed"), &elsewhere.error());
    QList<OpenNotSettled> open; // may be resolved by this run's lines
    {
        auto q = Sql::exec(m_c.db(),
                           QStringLiteral("SELECT discrepancy_key, channel, channel_txn_id FROM"
                                          " discrepancies WHERE kind = 'not_settled' AND"
                                          " status = 'open'"));
        if (!q)
            return stop(QStringLiteral("failed"), &q.error());
        while (q->next())
            open << OpenNotSettled{q->value(0).toString(), q->value(1).toString(),
                                   q->value(2).toString()};
    }
    const MatchOutcome outcome = matcher.finish(*elsewhere, open);
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
