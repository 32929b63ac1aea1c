#include "reconciliationwriter.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/sqlitenative.h"
#include "db/transaction.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QSqlError>

#include <algorithm>

namespace OncePay {

namespace {

constexpr qsizetype kChunk = 5000;

QString sha256(const QString &text)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

// UPDATE … WHERE id IN (…) in chunks of sorted ids written into the statement as integer
// literals: they are our own row ids (qint64, never text from outside), and a million of them
// then cost a couple of hundred statements with no per-value binding.
Result<void> updateIds(const QSqlDatabase &db, const QString &prefix, const QVariantList &leading,
                       QList<qint64> ids)
{
    std::sort(ids.begin(), ids.end());
    QString sql;
    for (qsizetype i = 0; i < ids.size(); i += kChunk) {
        const qsizetype n = std::min<qsizetype>(kChunk, ids.size() - i);
        sql = prefix + QStringLiteral(" WHERE id IN (");
        for (qsizetype k = 0; k < n; ++k) {
            if (k)
                sql += u',';
            sql += QString::number(ids[i + k]);
        }
        sql += u')';
        auto r = Sql::exec(db, sql, leading);
        if (!r)
            return r.error();
    }
    return {};
}

// One settlement_matches row per newly settled payment: (payment, its charge line, this run).
// Appending small rows in payment order is what keeps a run that settles a million payments
// cheap (rewriting a status on each payment row pushed every payment page through the log).
// On SQLite one native prepared INSERT; elsewhere multi-row INSERTs whose values are written
// as integer literals: our own row ids, never text from outside.
Result<void> recordMatches(const QSqlDatabase &db, QList<std::pair<qint64, qint64>> matches,
                           qint64 runId)
{
    std::sort(matches.begin(), matches.end());
    if (sqlite3 *h = SqliteNative::handle(db)) {
        SqliteNative::Statement st;
        if (auto p = st.prepare(h, QByteArrayLiteral("INSERT INTO settlement_matches (payment_id,"
                                                     " settlement_line_id, run_id)"
                                                     " VALUES (?, ?, ?)"));
            !p)
            return p.error();
        for (const auto &[payment, line] : std::as_const(matches)) {
            st.bind(1, payment);
            st.bind(2, line);
            st.bind(3, runId); // reset() clears every binding
            if (auto r = st.exec(); !r)
                return r.error();
            st.reset();
        }
        return {};
    }
    QString sql;
    const QString run = QString::number(runId);
    for (qsizetype i = 0; i < matches.size(); i += kChunk) {
        const qsizetype n = std::min<qsizetype>(kChunk, matches.size() - i);
        sql = QStringLiteral("INSERT INTO settlement_matches (payment_id, settlement_line_id,"
                             " run_id) VALUES ");
        for (qsizetype k = 0; k < n; ++k) {
            const auto &[payment, line] = matches[i + k];
            if (k)
                sql += u',';
            sql +=
                u'(' + QString::number(payment) + u',' + QString::number(line) + u',' + run + u')';
        }
        if (auto r = Sql::exec(db, sql); !r)
            return r.error();
    }
    return {};
}

QJsonObject countsJson(const QMap<QString, qint64> &counts)
{
    QJsonObject o;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

} // namespace

Result<qint64> ReconciliationWriter::startRun(qint64 fromMs, qint64 toMs) const
{
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<qint64> {
        return Sql::insert(
            m_c.db(), m_c.dialect(),
            QStringLiteral("INSERT INTO reconciliation_runs (period_from, period_to, status, actor,"
                           " started_at) VALUES (?, ?, 'running', ?, ?)"),
            {fromMs, toMs, m_actor.id, m_clock.nowMs()});
    });
}

Result<void> ReconciliationWriter::applyFix(const Finding &f, qint64 discrepancyId) const
{
    const QString entryKey = QStringLiteral("fee_adjustment:%1:%2").arg(f.channel, f.channelTxnId);
    const QString digest = sha256(f.evidenceJson);
    auto seen = Sql::scalar(
        m_c.db(), QStringLiteral("SELECT COUNT(*) FROM ledger_entries WHERE entry_key = ?"),
        {entryKey});
    if (!seen)
        return seen.error();
    if (seen->toLongLong() == 0) {
        auto l = Sql::exec(
            m_c.db(),
            QStringLiteral("INSERT INTO ledger_entries (entry_key, order_id, kind, amount_minor,"
                           " currency, channel, channel_txn_id, memo, created_at)"
                           " VALUES (?, ?, 'fee_adjustment', ?, ?, ?, ?, ?, ?)"),
            {entryKey, f.orderId, f.adjustmentMinor, f.currency, f.channel, f.channelTxnId,
             QStringLiteral("%1 v%2, fee schedule %3")
                 .arg(kFeeRuleId)
                 .arg(kFeeRuleVersion)
                 .arg(f.feeScheduleId),
             m_clock.nowMs()});
        if (!l)
            return l.error();
    }
    AuditEvent e;
    e.actor = m_actor.id;
    e.actorRole = m_actor.role;
    e.action = QStringLiteral("reconciliation.fee_auto_fixed");
    e.entityKind = QStringLiteral("discrepancy");
    e.entityId = QString::number(discrepancyId);
    e.orderId = f.orderId;
    e.after = {{QStringLiteral("discrepancy_key"), f.key},
               {QStringLiteral("rule_id"), kFeeRuleId},
               {QStringLiteral("rule_version"), kFeeRuleVersion},
               {QStringLiteral("fee_schedule_id"), QString::number(f.feeScheduleId)},
               {QStringLiteral("ledger_entry_key"), entryKey},
               {QStringLiteral("adjustment_minor"), QString::number(f.adjustmentMinor)},
               {QStringLiteral("currency"), f.currency},
               {QStringLiteral("evidence_sha256"), digest},
               {QStringLiteral("evidence"), f.evidenceJson}};
    e.reason = QStringLiteral(
        "minimal intervention: fee difference within tolerance explained by a fee change");
    auto a = AuditOutbox::record(m_c.db(), e, m_clock);
    if (!a)
        return a.error();
    return {};
}

Result<void> ReconciliationWriter::commit(const MatchOutcome &outcome,
                                          ReconcileReport &report) const
{
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<void> {
        const qint64 now = m_clock.nowMs();
        // What earlier runs already recorded: discrepancies are few next to payments.
        QHash<QString, std::pair<qint64, QString>> existing; // key -> (id, status)
        QHash<QString, qint64> openNotSettled;               // key -> id
        {
            auto q = Sql::exec(m_c.db(), QStringLiteral("SELECT id, discrepancy_key, status, kind"
                                                        " FROM discrepancies"));
            if (!q)
                return q.error();
            while (q->next()) {
                existing.insert(q->value(1).toString(),
                                {q->value(0).toLongLong(), q->value(2).toString()});
                if (DiscrepancyKind::awaitsSettlement(q->value(3).toString()) &&
                    q->value(2).toString() == u"open")
                    openNotSettled.insert(q->value(1).toString(), q->value(0).toLongLong());
            }
        }
        QSqlQuery insert(m_c.db());
        if (!insert.prepare(QStringLiteral(
                "INSERT INTO discrepancies (discrepancy_key, kind, channel, channel_txn_id, "
                "order_id,"
                " settlement_line_id, expected_minor, actual_minor, currency, status, rule_id, "
                "rule_version,"
                " fee_schedule_id, evidence_sha256, detail, first_run_id, last_run_id, opened_at,"
                " expected_currency)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")))
            return Sql::classify(insert.lastError(), QStringLiteral("prepare discrepancy insert"));
        QList<qint64> seenAgain;
        for (const Finding &f : outcome.findings) {
            const auto it = existing.constFind(f.key);
            if (it != existing.constEnd()) {
                seenAgain << it->first;
                if (it->second == u"open" &&
                    f.autoFix) { // a schedule imported since explains it now
                    auto u =
                        Sql::exec(m_c.db(),
                                  QStringLiteral(
                                      "UPDATE discrepancies SET status = 'auto_fixed', rule_id = ?,"
                                      " rule_version = ?, fee_schedule_id = ?, evidence_sha256 = ?,"
                                      " detail = ?, closed_at = ? WHERE id = ?"),
                                  {kFeeRuleId, kFeeRuleVersion, f.feeScheduleId,
                                   sha256(f.evidenceJson), f.detail, now, it->first});
                    if (!u)
                        return u.error();
                    if (auto r = applyFix(f, it->first); !r)
                        return r;
                    ++report.autoFixed;
                } else if (it->second == u"open") {
                    ++report.stillOpen;
                }
                continue;
            }
            // The currency of expected_minor (migration 0012): the line's unless said otherwise.
            const QVariant expectedCurrency =
                f.hasAmounts ? Sql::nullIfEmpty(f.expectedCurrency.isEmpty() ? f.currency
                                                                             : f.expectedCurrency)
                             : QVariant();
            const QVariantList binds{f.key,
                                     f.kind,
                                     f.channel,
                                     Sql::nullIfEmpty(f.channelTxnId),
                                     Sql::nullIfEmpty(f.orderId),
                                     f.settlementLineId ? QVariant(f.settlementLineId) : QVariant(),
                                     f.hasAmounts ? QVariant(f.expectedMinor) : QVariant(),
                                     f.hasAmounts ? QVariant(f.actualMinor) : QVariant(),
                                     Sql::nullIfEmpty(f.currency),
                                     f.autoFix ? QStringLiteral("auto_fixed")
                                               : QStringLiteral("open"),
                                     f.autoFix ? QVariant(kFeeRuleId) : QVariant(),
                                     f.autoFix ? QVariant(kFeeRuleVersion) : QVariant(),
                                     f.autoFix ? QVariant(f.feeScheduleId) : QVariant(),
                                     f.autoFix ? QVariant(sha256(f.evidenceJson)) : QVariant(),
                                     f.detail,
                                     report.runId,
                                     report.runId,
                                     now,
                                     expectedCurrency};
            for (const QVariant &b : binds)
                insert.addBindValue(b);
            if (!insert.exec())
                return Sql::classify(insert.lastError(),
                                     QStringLiteral("insert discrepancy %1").arg(f.key));
            if (f.autoFix) {
                auto id = Sql::scalar(
                    m_c.db(),
                    QStringLiteral("SELECT id FROM discrepancies WHERE discrepancy_key = ?"),
                    {f.key});
                if (!id)
                    return id.error();
                if (auto r = applyFix(f, id->toLongLong()); !r)
                    return r;
                ++report.autoFixed;
            } else {
                ++report.opened;
            }
        }
        if (auto r = updateIds(m_c.db(), QStringLiteral("UPDATE discrepancies SET last_run_id = ?"),
                               {report.runId}, seenAgain);
            !r)
            return r;
        QList<qint64> nowSettled;
        for (auto it = openNotSettled.cbegin(); it != openNotSettled.cend(); ++it)
            if (outcome.settledKeys.contains(it.key()))
                nowSettled << it.value();
        report.resolved = nowSettled.size();
        if (auto r = updateIds(
                m_c.db(),
                QStringLiteral("UPDATE discrepancies SET status = 'resolved', closed_at = ?,"
                               " last_run_id = ?"),
                {now, report.runId}, nowSettled);
            !r)
            return r;
        if (auto r = recordMatches(m_c.db(), outcome.newlySettled, report.runId); !r)
            return r;
        report.markedSettled = outcome.newlySettled.size();
        return finishRun(report, QStringLiteral("finished"));
    });
}

Result<void> ReconciliationWriter::finishRun(const ReconcileReport &report,
                                             const QString &status) const
{
    const QJsonObject counts = countsJson(report.counts);
    auto u = Sql::exec(
        m_c.db(),
        QStringLiteral(
            "UPDATE reconciliation_runs SET status = ?, eligible = ?, matched = ?,"
            " coverage_ppm = ?, auto_fixed = ?, opened = ?, counts_json = ?, finished_at = ?"
            " WHERE id = ?"),
        {status, report.eligible, report.matched, report.coveragePpm, report.autoFixed,
         report.opened, AuditOutbox::toJson(counts), m_clock.nowMs(), report.runId});
    if (!u)
        return u.error();
    AuditEvent e;
    e.actor = m_actor.id;
    e.actorRole = m_actor.role;
    e.action = status == u"finished" ? QStringLiteral("reconciliation.run")
                                     : QStringLiteral("reconciliation.") + status;
    e.entityKind = QStringLiteral("reconciliation_run");
    e.entityId = QString::number(report.runId);
    e.after = {{QStringLiteral("period_from"), QString::number(report.fromMs)},
               {QStringLiteral("period_to"), QString::number(report.toMs)},
               {QStringLiteral("status"), status},
               {QStringLiteral("eligible"), report.eligible},
               {QStringLiteral("matched"), report.matched},
               {QStringLiteral("coverage_ppm"), report.coveragePpm},
               {QStringLiteral("auto_fixed"), report.autoFixed},
               {QStringLiteral("opened"), report.opened},
               {QStringLiteral("resolved"), report.resolved},
               {QStringLiteral("counts"), counts}};
    auto a = AuditOutbox::record(m_c.db(), e, m_clock);
    if (!a)
        return a.error();
    return {};
}

Result<void> ReconciliationWriter::markStopped(const ReconcileReport &report,
                                               const QString &status) const
{
    return inTransaction(m_c.db(), Transaction::Mode::Immediate,
                         [&]() -> Result<void> { return finishRun(report, status); });
}

} // namespace OncePay
