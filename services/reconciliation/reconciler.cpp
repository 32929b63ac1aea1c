#include "reconciler.h"

#include "reconciliationmatcher.h"
#include "reconciliationwriter.h"

#include "db/sql.h"
#include "db/sqlitenative.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSqlError>

#include <spdlog/spdlog.h>

#include <sqlite3.h>

#include <array>
#include <atomic>
#include <cstring>
#include <future>
#include <optional>
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

// The settlement lines read on a second SQLite connection (read-only, same file) on a worker
// thread while the payments load on the caller's connection: both are autocommit reads, as
// they were one after the other, and the two cores share the work. Anything that keeps the
// second connection from opening or reading leaves the caller to read the lines itself.
class LinePrefetch {
public:
    struct Row {
        qint64 id = 0;
        qint64 grossMinor = 0;
        qint64 feeMinor = 0;
        qint64 settledAtMs = 0;
        size_t at = 0; // channel, txn, kind, currency bytes follow each other in `bytes`
        quint32 channel = 0, txn = 0, kind = 0, currency = 0;
    };

    LinePrefetch(const QString &path, const QByteArray &sql, qint64 from, qint64 to,
                 qint64 expected)
    {
        m_future = std::async(std::launch::async,
                              [this, path = QFile::encodeName(path), sql, from, to, expected] {
                                  return read(path, sql, from, to, expected);
                              });
    }
    ~LinePrefetch()
    {
        m_stop = true;
        if (m_future.valid())
            m_future.wait();
    }
    bool wait() { return m_future.get(); }

    template <typename F> bool replay(F &&line) const
    {
        for (const Row &r : m_rows) {
            const char *p = m_bytes.data() + r.at;
            LineView l;
            l.id = r.id;
            l.channel = {p, r.channel};
            l.channelTxnId = {p += r.channel, r.txn};
            l.kind = {p += r.txn, r.kind};
            l.currency = {p += r.kind, r.currency};
            l.grossMinor = r.grossMinor;
            l.feeMinor = r.feeMinor;
            l.settledAtMs = r.settledAtMs;
            if (!line(l))
                return false;
        }
        return true;
    }

private:
    bool read(const QByteArray &path, const QByteArray &sql, qint64 from, qint64 to,
              qint64 expected)
    {
        sqlite3 *db = nullptr;
        if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK) {
            sqlite3_close(db);
            return false;
        }
        sqlite3_busy_timeout(db, 5000);
        bool ok = true;
        {
            SqliteNative::Statement st;
            ok = bool(st.prepare(db, sql));
            if (ok) {
                st.bind(1, from);
                st.bind(2, to);
                m_rows.reserve(size_t(std::max<qint64>(expected, 0)));
                m_bytes.reserve(m_rows.capacity() * 40);
            }
            while (ok && !m_stop) {
                auto more = st.step();
                if (!more || !*more) {
                    ok = bool(more);
                    break;
                }
                Row r;
                r.id = st.int64(0);
                r.grossMinor = st.int64(4);
                r.feeMinor = st.int64(5);
                r.settledAtMs = st.int64(7);
                r.at = m_bytes.size();
                auto add = [&](int column, quint32 *size) {
                    int n = 0;
                    const char *p = st.text(column, &n);
                    m_bytes.insert(m_bytes.end(), p, p + n);
                    *size = quint32(n);
                };
                add(1, &r.channel);
                add(2, &r.txn);
                add(3, &r.kind);
                add(6, &r.currency);
                m_rows.push_back(r);
            }
        }
        sqlite3_close(db);
        return ok && !m_stop;
    }

    std::atomic<bool> m_stop{false};
    std::vector<Row> m_rows;
    std::vector<char> m_bytes;
    std::future<bool> m_future;
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
    {
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA cache_size = -262144"));
        // The load reads the payments and orders pages straight from the file's mapping
        // instead of copying each into the page cache; switched off again before the writes.
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA mmap_size = 2147418112"));
    }
    auto unmap = qScopeGuard([&] {
        if (m_c.dialect() == Dialect::Sqlite)
            (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA mmap_size = 0"));
    });
    qint64 phase = timer.elapsed();
    QStringList phases;
    auto lap = [&](const char *name) {
        phases << QStringLiteral("%1 %2 ms").arg(QLatin1String(name)).arg(timer.elapsed() - phase);
        phase = timer.elapsed();
    };
    ReconciliationMatcher matcher(settings, FeeSchedule(*rules), closed, obligations, now,
                                  report.fromMs, report.toMs);
    matcher.reserve(paymentCount->toLongLong());
    // When the period holds most of the lines, reading the table in rowid order beats a
    // lookup per line through settlement_lines_time (SQLite has no statistics to know).
    QString lineTable = QStringLiteral("settlement_lines");
    std::optional<LinePrefetch> prefetch;
    if (m_c.dialect() == Dialect::Sqlite) {
        auto all = Sql::scalar(m_c.db(), QStringLiteral("SELECT COUNT(*) FROM settlement_lines"));
        if (!all)
            return stop(QStringLiteral("failed"), &all.error());
        if (lineCount->toLongLong() * 4 > all->toLongLong() * 3)
            lineTable += QStringLiteral(" NOT INDEXED");
    }
    const QString lineSql =
        QStringLiteral("SELECT id, channel, channel_txn_id, kind, gross_minor, fee_minor, currency,"
                       " settled_at FROM ") +
        lineTable + QStringLiteral(" WHERE settled_at >= ? AND settled_at < ?");
    if (SqliteNative::handle(m_c.db()) && QFileInfo(m_c.db().databaseName()).isFile())
        prefetch.emplace(m_c.db().databaseName(), lineSql.toUtf8(), report.fromMs,
                         report.toMs + kSettlementLookaheadMs, lineCount->toLongLong());
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
    if (prefetch && prefetch->wait()) {
        if (!prefetch->replay([&](const LineView &l) {
                matcher.addLine(l);
                ++report.lines;
                return tick();
            }))
            return stop(QStringLiteral("cancelled"), nullptr);
    } else {
        auto lines = scan(m_c, lineSql, lineBinds, addLine);
        if (!lines)
            return stop(QStringLiteral("failed"), &lines.error());
        if (!*lines)
            return stop(QStringLiteral("cancelled"), nullptr);
    }
    unmap.dismiss();
    if (m_c.dialect() == Dialect::Sqlite)
        (void)Sql::exec(m_c.db(), QStringLiteral("PRAGMA mmap_size = 0"));
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
