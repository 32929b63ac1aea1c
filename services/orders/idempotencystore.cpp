#include "idempotencystore.h"

#include "db/sql.h"

#include <QCryptographicHash>

namespace OncePay {

QString IdempotencyStore::digest(const QStringList &parts)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString &p : parts) {
        const QByteArray bytes = p.toUtf8();
        h.addData(QByteArray(QByteArray::number(bytes.size()) + ':'));
        h.addData(bytes);
    }
    return QString::fromLatin1(h.result().toHex());
}

Result<std::optional<IdempotencyRecord>> IdempotencyStore::find(const QString &requestId) const
{
    auto q = Sql::exec(m_c.db(),
                       QStringLiteral("SELECT request_id, order_id, expected_version, operation,"
                                      " payload_digest, status, outcome, created_at"
                                      " FROM idempotency_records WHERE request_id = ?"),
                       {requestId});
    if (!q)
        return q.error();
    if (!q->next())
        return std::optional<IdempotencyRecord>();
    IdempotencyRecord r;
    r.requestId = q->value(0).toString();
    r.orderId = q->value(1).toString();
    r.expectedVersion = q->value(2).toLongLong();
    r.operation = q->value(3).toString();
    r.payloadDigest = q->value(4).toString();
    r.status = IdempotencyStatus(q->value(5).toInt());
    r.outcome = q->value(6).toString();
    r.createdAt = q->value(7).toLongLong();
    return std::optional<IdempotencyRecord>(r);
}

Result<IdempotencyRecord> IdempotencyStore::begin(const IdempotencyRecord &wanted,
                                                  bool *fresh) const
{
    *fresh = false;
    if (wanted.requestId.trimmed().isEmpty() || wanted.requestId.size() > 128)
        return makeError(ErrorCode::Invalid, QStringLiteral("request id must be 1–128 characters"),
                         QStringLiteral("bad_request_id"));
    const qint64 now = m_clock.nowMs();
    // Autocommit: the record is durable before any business work starts.
    auto ins =
        Sql::exec(m_c.db(),
                  QStringLiteral("INSERT INTO idempotency_records (request_id, order_id,"
                                 " expected_version, operation, payload_digest, status, created_at,"
                                 " updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)"),
                  {wanted.requestId, wanted.orderId, wanted.expectedVersion, wanted.operation,
                   wanted.payloadDigest, now, now});
    if (ins) {
        *fresh = true;
        IdempotencyRecord r = wanted;
        r.status = IdempotencyStatus::Pending;
        r.createdAt = now;
        return r;
    }
    if (ins.error().code != ErrorCode::Conflict)
        return ins.error();
    auto existing = find(wanted.requestId);
    if (!existing)
        return existing.error();
    if (!*existing)
        return makeError(ErrorCode::Internal, QStringLiteral("idempotency record vanished"));
    if ((*existing)->payloadDigest != wanted.payloadDigest)
        return makeError(ErrorCode::Conflict,
                         QStringLiteral("request id %1 was already used for a different request"
                                        " (%2 on order %3 at version %4)")
                             .arg(wanted.requestId, (*existing)->operation, (*existing)->orderId)
                             .arg((*existing)->expectedVersion),
                         QStringLiteral("request_id_reused"));
    return **existing;
}

Result<void> IdempotencyStore::finish(const QString &requestId, IdempotencyStatus status,
                                      const QString &outcome) const
{
    auto r = Sql::update(
        m_c.db(),
        QStringLiteral("UPDATE idempotency_records SET status = ?, outcome = ?, updated_at = ?"
                       " WHERE request_id = ?"),
        {int(status), outcome, m_clock.nowMs(), requestId});
    if (!r)
        return r.error();
    return {};
}

} // namespace OncePay
