#include "messagestore.h"

#include "audit/auditoutbox.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QSqlQuery>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace OncePay {

namespace {

const QString kColumns = QStringLiteral(
    "id, callback_id, channel, event_kind, channel_event_type, order_ref, attempt_ref, "
    "channel_txn_id,"
    " amount_minor, currency, status, attempts, lease_owner, lease_until, refund_id, updated_at");

QString placeholders(qsizetype n)
{
    QStringList marks;
    for (qsizetype i = 0; i < n; ++i)
        marks << QStringLiteral("?");
    return marks.join(u',');
}

} // namespace

Result<CallbackMessage> MessageStore::fromQuery(const QSqlQuery &q)
{
    CallbackMessage m;
    m.id = q.value(0).toLongLong();
    m.callbackId = q.value(1).toString();
    m.channel = q.value(2).toString();
    if (!parseCallbackKind(q.value(3).toString(), &m.kind))
        return makeError(ErrorCode::Corrupt, QStringLiteral("message %1 has unknown kind '%2'")
                                                 .arg(m.id)
                                                 .arg(q.value(3).toString()));
    m.channelEventType = q.value(4).toString();
    m.orderRef = q.value(5).toString();
    m.attemptRef = q.value(6).toString();
    m.channelTxnId = q.value(7).toString();
    m.hasAmount = !q.value(8).isNull();
    m.amountMinor = q.value(8).toLongLong();
    m.currency = q.value(9).toString();
    m.status = q.value(10).toString();
    m.attempts = q.value(11).toInt();
    m.leaseOwner = q.value(12).toString();
    m.leaseUntil = q.value(13).toLongLong();
    m.refundId = q.value(14).toString();
    m.claimedAt = q.value(15).toLongLong();
    return m;
}

Result<QList<CallbackMessage>> MessageStore::claim(const QString &owner, int batch,
                                                   qint64 leaseMs) const
{
    const bool serverSide = m_c.dialect() != Dialect::Sqlite;
    const QString lock = serverSide ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString();
    return inTransaction(
        m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<QList<CallbackMessage>> {
            const qint64 now = m_clock.nowMs();
            QVariantList ids;
            auto due = Sql::exec(
                m_c.db(),
                QStringLiteral(
                    "SELECT id FROM callback_messages WHERE status IN ('pending', 'failed')"
                    " AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?") +
                    lock,
                {now, batch});
            if (!due)
                return due.error();
            while (due->next())
                ids << due->value(0);
            if (ids.size() < batch) {
                auto expired = Sql::exec(
                    m_c.db(),
                    QStringLiteral("SELECT id, lease_owner, attempts, updated_at, lease_until"
                                   " FROM callback_messages WHERE status = 'processing'"
                                   " AND lease_until < ? ORDER BY lease_until, id LIMIT ?") +
                        lock,
                    {now, batch - int(ids.size())});
                if (!expired)
                    return expired.error();
                QList<CallbackAttempt> lost;
                while (expired->next())
                    lost << CallbackAttempt{expired->value(0).toLongLong(),
                                            expired->value(2).toInt(),
                                            expired->value(1).toString(),
                                            QStringLiteral("lease_expired"),
                                            QStringLiteral("lease expired before the worker"
                                                           " finished; taken over by %1")
                                                .arg(owner),
                                            expired->value(3).toLongLong(),
                                            expired->value(4).toLongLong()};
                // The attempt its worker never finished, recorded with the takeover (the
                // claim's update below, same transaction): neither lost nor recorded twice.
                for (const CallbackAttempt &a : std::as_const(lost)) {
                    spdlog::info("reclaiming message {} whose lease (held by {}) expired",
                                 a.messageId, a.workerId.toStdString());
                    if (auto r = recordAttempt(a); !r)
                        return r.error();
                    ids << a.messageId;
                }
            }
            QList<CallbackMessage> out;
            if (ids.isEmpty())
                return out;
            QVariantList binds{owner, now + leaseMs, now};
            binds += ids;
            auto upd =
                Sql::exec(m_c.db(),
                          QStringLiteral(
                              "UPDATE callback_messages SET status = 'processing', lease_owner = ?,"
                              " lease_until = ?, attempts = attempts + 1, updated_at = ?"
                              " WHERE id IN (%1)")
                              .arg(placeholders(ids.size())),
                          binds);
            if (!upd)
                return upd.error();
            auto rows = Sql::exec(
                m_c.db(),
                QStringLiteral("SELECT %1 FROM callback_messages WHERE id IN (%2) ORDER BY id")
                    .arg(kColumns, placeholders(ids.size())),
                ids);
            if (!rows)
                return rows.error();
            while (rows->next()) {
                auto m = fromQuery(*rows);
                if (!m)
                    return m.error();
                out << *m;
            }
            return out;
        });
}

Result<bool> MessageStore::stillOwned(qint64 id, const QString &owner) const
{
    QString sql = QStringLiteral("SELECT status, lease_owner FROM callback_messages WHERE id = ?");
    if (m_c.dialect() != Dialect::Sqlite)
        sql += QStringLiteral(" FOR UPDATE");
    auto q = Sql::exec(m_c.db(), sql, {id});
    if (!q)
        return q.error();
    if (!q->next())
        return false;
    return q->value(0).toString() == u"processing" && q->value(1).toString() == owner;
}

Result<void> MessageStore::recordAttempt(const CallbackAttempt &a) const
{
    auto r = m_c.execKept(
        QStringLiteral("INSERT INTO callback_attempts (message_id, attempt, worker_id, outcome,"
                       " error, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
        {a.messageId, a.attempt, a.workerId.isEmpty() ? QStringLiteral("unknown") : a.workerId,
         a.outcome, a.error.left(1000), a.startedAt, a.endedAt});
    if (!r)
        return r.error();
    return {};
}

// last_error is cleared: it is the error a message is waiting on (the stuck view, the messages
// tab and search show it as such), and a finished message waits on none. Each failure stays in
// callback_attempts with its number, worker and time.
Result<void> MessageStore::finish(qint64 id, const QString &status, const QString &reason,
                                  const QString &code) const
{
    const qint64 now = m_clock.nowMs();
    auto r = m_c.execKept(
        QStringLiteral(
            "UPDATE callback_messages SET status = ?, result_reason = ?, result_code = ?,"
            " lease_owner = NULL, lease_until = NULL, finished_at = ?, updated_at = ?,"
            " last_error = NULL WHERE id = ?"),
        {status, reason.left(1000), Sql::nullIfEmpty(code), now, now, id});
    if (!r)
        return r.error();
    return {};
}

qint64 MessageStore::backoffMs(qint64 messageId, int attempt, const RetryPolicy &policy)
{
    const int shift = std::clamp(attempt - 1, 0, 30);
    const qint64 raw = std::min(policy.backoffMaxMs, policy.backoffBaseMs << shift);
    const qint64 jitter = raw / 5;
    // splitmix64 of (message, attempt): spread evenly over [-jitter, +jitter].
    quint64 z = quint64(messageId) * 0x9E3779B97F4A7C15ULL + quint64(attempt);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return std::max<qint64>(1, raw - jitter + qint64(z % quint64(2 * jitter + 1)));
}

Result<QString> MessageStore::fail(const CallbackMessage &m, const QString &owner,
                                   const QString &error, const RetryPolicy &policy,
                                   bool countsAsAttempt, bool deadNow) const
{
    const bool dead = deadNow || (countsAsAttempt && m.attempts >= policy.maxAttempts);
    const int refund = countsAsAttempt ? 0 : 1;
    return inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<QString> {
        const qint64 now = m_clock.nowMs();
        auto upd = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE callback_messages SET status = ?, last_error = ?,"
                           " next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,"
                           " attempts = attempts - ?, updated_at = ?, finished_at = ?"
                           " WHERE id = ? AND lease_owner = ? AND status = 'processing'"),
            {dead ? QStringLiteral("dead") : QStringLiteral("failed"), error.left(1000),
             now + (dead ? 0 : backoffMs(m.id, std::max(1, m.attempts - refund), policy)), refund,
             now, dead ? QVariant(now) : QVariant(), m.id, owner});
        if (!upd)
            return upd.error();
        if (*upd == 0)
            return QStringLiteral("lost_lease"); // another worker took it over; it decides now
        // The attempt, in the transaction that records its failure. A run the database refused
        // for a moment (busy, a deadlock, a lock wait, a lost connection: countsAsAttempt
        // false) gives its number back to the next claim and is no attempt of the message:
        // recording it as "attempt N failed" would show N twice on the timeline, and a finished
        // message would hold more rows than its attempts - 1. Its error is in the log and in
        // last_error until the next run.
        if (countsAsAttempt || dead) {
            if (auto a = recordAttempt(
                    {m.id, m.attempts, owner,
                     dead ? QStringLiteral("dead_lettered") : QStringLiteral("failed"), error,
                     m.claimedAt, now});
                !a)
                return a.error();
        }
        if (!dead)
            return QStringLiteral("failed");
        // A message requeued by an approved fix can die again: its dead letter is renewed
        // (one row per message), not duplicated.
        auto again = Sql::update(
            m_c.db(),
            QStringLiteral("UPDATE dead_letters SET reason = ?, attempts = ?, created_at = ?,"
                           " requeued_at = NULL WHERE message_id = ?"),
            {error.left(1000), m.attempts, now, m.id});
        if (!again)
            return again.error();
        if (*again == 0) {
            auto dl =
                Sql::exec(m_c.db(),
                          QStringLiteral(
                              "INSERT INTO dead_letters (message_id, callback_id, reason, attempts,"
                              " created_at) VALUES (?, ?, ?, ?, ?)"),
                          {m.id, m.callbackId, error.left(1000), m.attempts, now});
            if (!dl)
                return dl.error();
        }
        AuditEvent e;
        e.actor = owner;
        e.actorRole = QStringLiteral("system");
        e.action = QStringLiteral("callback.dead_lettered");
        e.entityKind = QStringLiteral("callback");
        e.entityId = m.callbackId;
        e.orderId = m.orderRef;
        e.callbackId = m.callbackId;
        e.after = {{QStringLiteral("status"), QStringLiteral("dead")},
                   {QStringLiteral("attempts"), m.attempts}};
        e.reason = error.left(500);
        if (auto a = AuditOutbox::record(m_c, e, m_clock); !a)
            return a.error();
        spdlog::warn("message {} ({}) is dead after {} attempts: {}", m.id,
                     m.callbackId.toStdString(), m.attempts, error.toStdString());
        return QStringLiteral("dead");
    });
}

} // namespace OncePay
