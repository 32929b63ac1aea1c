#include "auditcrosscheck.h"

#include "auditoutbox.h"
#include "auditsealrecord.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QJsonArray>
#include <QSet>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

// Reads (key, extra) pairs in byte order of key, `batch` rows per query:
//     SELECT [DISTINCT] <key>, <extra> FROM <from> WHERE <where> [AND <key> > ?]
//     ORDER BY <key> LIMIT ?
// PostgreSQL sorts by the database collation unless told otherwise, so there the key is
// compared under "C" (and selected as such, which DISTINCT requires); SQLite (BINARY) and
// MySQL (utf8mb4_bin, code point order) already agree with UTF-8 byte order.
class KeysetCursor {
public:
    KeysetCursor(QSqlDatabase db, bool distinct, const QString &key, const QString &extra,
                 const QString &from, const QString &where, int batch)
        : m_db(std::move(db))
        , m_key(key)
        , m_where(where)
        , m_batch(batch)
    {
        if (Sql::dialectOf(m_db) == Dialect::Postgres)
            m_key += QStringLiteral(" COLLATE \"C\"");
        m_select = (distinct ? QStringLiteral("SELECT DISTINCT ") : QStringLiteral("SELECT ")) +
                   m_key + QStringLiteral(", ") + extra + QStringLiteral(" FROM ") + from;
    }

    // False at the end; the error is set when a query failed.
    bool next(QByteArray *key, QString *extra)
    {
        if (m_pos >= m_rows.size()) {
            if (m_done || !fetch())
                return false;
        }
        *key = m_rows[m_pos].first;
        if (extra)
            *extra = m_rows[m_pos].second;
        ++m_pos;
        return true;
    }
    const std::optional<Error> &error() const { return m_error; }

private:
    bool fetch()
    {
        QString sql = m_select + QStringLiteral(" WHERE ") + m_where;
        QVariantList binds;
        if (m_last) {
            sql += QStringLiteral(" AND ") + m_key + QStringLiteral(" > ?");
            binds << QString::fromUtf8(*m_last);
        }
        sql += QStringLiteral(" ORDER BY ") + m_key + QStringLiteral(" LIMIT ?");
        binds << m_batch;
        m_rows.clear();
        m_pos = 0;
        auto q = Sql::exec(m_db, sql, binds);
        if (!q) {
            m_error = q.error();
            m_done = true;
            return false;
        }
        while (q->next())
            m_rows.append({q->value(0).toString().toUtf8(), q->value(1).toString()});
        if (m_rows.size() < m_batch)
            m_done = true;
        if (!m_rows.isEmpty())
            m_last = m_rows.last().first;
        return !m_rows.isEmpty();
    }

    QSqlDatabase m_db;
    QString m_select;
    QString m_key;
    QString m_where;
    int m_batch;
    QList<QPair<QByteArray, QString>> m_rows;
    qsizetype m_pos = 0;
    std::optional<QByteArray> m_last;
    bool m_done = false;
    std::optional<Error> m_error;
};

} // namespace

QString CrossCheckReport::summary() const
{
    return QStringLiteral("cross-check %1: %2 completed messages, %3 audited callbacks, %4 awaiting"
                          " shipment, %5 alert(s)")
        .arg(passed() ? QStringLiteral("passed") : QStringLiteral("FAILED"))
        .arg(completedMessages)
        .arg(auditedCallbacks)
        .arg(awaitingShipment)
        .arg(alertCount);
}

AuditCrossCheck::AuditCrossCheck(const Connection &orders, const Connection &messages,
                                 const Connection &audit, const Clock &clock)
    : m_orders(orders)
    , m_messages(messages)
    , m_audit(audit)
    , m_clock(clock)
{}

Result<CrossCheckReport> AuditCrossCheck::run(const QString &actor, const QString &actorRole)
{
    auto report = compare();
    if (!report) {
        if (auto r = record(actor, actorRole, nullptr, &report.error()); !r)
            spdlog::error("cross-check could not record its failed run: {}",
                          r.error().message.toStdString());
        return report.error();
    }
    auto id = record(actor, actorRole, &report.value(), nullptr);
    if (!id)
        return id.error();
    report->eventId = *id;
    return report;
}

Result<void> AuditCrossCheck::compareChainEnd(CrossCheckReport &report)
{
    auto chainCutShort = [&](const QString &text) {
        ++report.alertCount;
        if (report.alerts.size() < m_maxListed)
            report.alerts.append({CrossCheckAlert::Kind::ChainCutShort, QString(), text});
    };
    // Shipped events first: whatever is marked shipped by now is in the chain read after.
    auto shipped = AuditShippedEvents::read(m_orders);
    if (!shipped)
        return shipped.error();
    auto seal = AuditSealRecord::latest(m_orders);
    if (!seal)
        return seal.error();
    if (shipped->shippedCount() > 0) {
        const QString select = QStringLiteral(
            "SELECT seq, event_id FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?");
        qint64 last = 0;
        for (;;) {
            auto q = Sql::exec(m_audit.db(), select, {last, m_batchSize});
            if (!q)
                return q.error();
            int n = 0;
            while (q->next()) {
                ++n;
                last = q->value(0).toLongLong();
                shipped->seenInChain(q->value(1).toString());
            }
            if (n < m_batchSize)
                break;
        }
        auto missing = shipped->missing(m_orders);
        if (!missing)
            return missing.error();
        if (missing->count > 0)
            chainCutShort(QStringLiteral("%1 audited event(s) shipped to the audit database are not"
                                         " in the audit log (the first: event %2, %3): rows were"
                                         " cut off the chain")
                              .arg(missing->count)
                              .arg(missing->firstEventId, missing->firstAction));
    }
    if (*seal) {
        const AuditCheckpoint &cp = **seal;
        auto hash = Sql::scalar(
            m_audit.db(), QStringLiteral("SELECT hash FROM audit_log WHERE seq = ?"), {cp.seq});
        if (!hash)
            return hash.error();
        if (hash->isNull())
            chainCutShort(QStringLiteral("the seal recorded in the orders database seals seq %1"
                                         " but the audit log has no such row")
                              .arg(cp.seq));
        else if (hash->toString() != cp.headHash)
            chainCutShort(QStringLiteral("row seq %1 differs from the head sealed by the seal"
                                         " recorded in the orders database")
                              .arg(cp.seq));
    }
    return {};
}

Result<CrossCheckReport> AuditCrossCheck::compare()
{
    CrossCheckReport report;
    if (auto r = compareChainEnd(report); !r)
        return r.error();

    // Normally few rows: what the shipper has not copied yet.
    QSet<QByteArray> inOutbox;
    {
        auto q = Sql::exec(m_orders.db(),
                           QStringLiteral("SELECT DISTINCT callback_id FROM audit_outbox"
                                          " WHERE shipped_at IS NULL AND callback_id IS NOT NULL"));
        if (!q)
            return q.error();
        while (q->next())
            inOutbox.insert(q->value(0).toString().toUtf8());
    }

    KeysetCursor messages(m_messages.db(), false, QStringLiteral("callback_id"),
                          QStringLiteral("status"), QStringLiteral("callback_messages"),
                          QStringLiteral("1 = 1"), m_batchSize);
    KeysetCursor audited(m_audit.db(), true, QStringLiteral("callback_id"), QStringLiteral("''"),
                         QStringLiteral("audit_log"), QStringLiteral("callback_id IS NOT NULL"),
                         m_batchSize);

    auto alert = [&](CrossCheckAlert::Kind kind, const QByteArray &id, const QString &text) {
        ++report.alertCount;
        if (report.alerts.size() < m_maxListed)
            report.alerts.append({kind, QString::fromUtf8(id), text.arg(QString::fromUtf8(id))});
    };

    QByteArray mKey, aKey;
    QString status;
    bool mHas = messages.next(&mKey, &status);
    bool aHas = audited.next(&aKey, nullptr);
    while (mHas || aHas) {
        if (mHas && (!aHas || mKey < aKey)) {
            if (status == u"completed") {
                ++report.completedMessages;
                if (inOutbox.contains(mKey))
                    ++report.awaitingShipment;
                else
                    alert(CrossCheckAlert::Kind::CompletedWithoutAudit, mKey,
                          QStringLiteral("completed message %1 has no audit rows"));
            }
            mHas = messages.next(&mKey, &status);
        } else if (aHas && (!mHas || aKey < mKey)) {
            ++report.auditedCallbacks;
            alert(CrossCheckAlert::Kind::AuditWithoutMessage, aKey,
                  QStringLiteral("audit rows name callback %1 but there is no such message"));
            aHas = audited.next(&aKey, nullptr);
        } else {
            if (status == u"completed")
                ++report.completedMessages;
            ++report.auditedCallbacks;
            mHas = messages.next(&mKey, &status);
            aHas = audited.next(&aKey, nullptr);
        }
    }
    if (messages.error())
        return *messages.error();
    if (audited.error())
        return *audited.error();
    return report;
}

Result<QString> AuditCrossCheck::record(const QString &actor, const QString &actorRole,
                                        const CrossCheckReport *report, const Error *error)
{
    AuditEvent e;
    e.actor = actor;
    e.actorRole = actorRole;
    e.action = QStringLiteral("audit.crosscheck");
    e.entityKind = QStringLiteral("audit");
    e.entityId = QStringLiteral("crosscheck");
    if (report) {
        QJsonArray first;
        for (const CrossCheckAlert &a : report->alerts.mid(0, 20))
            first.append(a.callbackId);
        e.after = QJsonObject{{QStringLiteral("passed"), report->passed()},
                              {QStringLiteral("completed_messages"), report->completedMessages},
                              {QStringLiteral("audited_callbacks"), report->auditedCallbacks},
                              {QStringLiteral("awaiting_shipment"), report->awaitingShipment},
                              {QStringLiteral("alerts"), report->alertCount},
                              {QStringLiteral("first_alert_callbacks"), first}};
        e.reason = report->passed() ? QStringLiteral("passed")
                                    : QStringLiteral("%1 alert(s)").arg(report->alertCount);
    } else {
        e.after = QJsonObject{{QStringLiteral("passed"), false},
                              {QStringLiteral("error"), error->message}};
        e.reason = QStringLiteral("could not run: ") + errorCodeName(error->code);
    }
    Transaction tx(m_orders.db());
    if (auto r = tx.begin(); !r)
        return r.error();
    auto id = AuditOutbox::record(m_orders.db(), e, m_clock);
    if (!id)
        return id.error();
    if (auto r = tx.commit(); !r)
        return r.error();
    return id;
}

} // namespace OncePay
