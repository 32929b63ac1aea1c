#include "auditchain.h"

#include "audittrailquery.h"

#include <QCryptographicHash>
#include <QVariant>
#include <QtEndian>

namespace OncePay::AuditChain {

namespace {

void frame(QByteArray &out, char tag, QByteArrayView bytes)
{
    out.append(tag);
    char len[4];
    qToBigEndian(quint32(bytes.size()), len);
    out.append(len, 4);
    out.append(bytes);
}

void utf8(QByteArray &out, QByteArrayView bytes)
{
    frame(out, 'S', bytes);
}

void nullableUtf8(QByteArray &out, const std::optional<QByteArrayView> &bytes)
{
    if (bytes)
        utf8(out, *bytes);
    else
        frame(out, 'N', {});
}

void text(QByteArray &out, const QString &s)
{
    frame(out, 'S', s.toUtf8());
}

void integer(QByteArray &out, qint64 v)
{
    frame(out, 'I', QByteArray::number(v));
}

void nullable(QByteArray &out, const std::optional<QString> &s)
{
    if (s)
        text(out, *s);
    else
        frame(out, 'N', {});
}

std::optional<QString> optionalText(const QVariant &v)
{
    if (v.isNull())
        return std::nullopt;
    return v.toString();
}

// Qt's drivers bind a null QString as SQL NULL; an empty value that is present must stay
// distinct from NULL, so it is bound as a non-null empty string.
QVariant bindText(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

QVariant bindOptional(const std::optional<QString> &s)
{
    return s ? bindText(*s) : QVariant();
}

} // namespace

QString genesisHash()
{
    return QString(64, u'0');
}

QByteArray canonicalEncoding(const AuditLogRow &r)
{
    QByteArray out;
    out.reserve(256);
    text(out, QStringLiteral("oncepay.audit.v1"));
    integer(out, r.seq);
    text(out, r.eventId);
    integer(out, r.occurredAt);
    integer(out, r.recordedAt);
    text(out, r.actor);
    text(out, r.actorRole);
    text(out, r.action);
    text(out, r.entityKind);
    text(out, r.entityId);
    nullable(out, r.orderId);
    nullable(out, r.callbackId);
    nullable(out, r.beforeJson);
    nullable(out, r.afterJson);
    nullable(out, r.reason);
    text(out, r.prevHash);
    return out;
}

QString computeHash(const AuditLogRow &row)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(canonicalEncoding(row), QCryptographicHash::Sha256).toHex());
}

QByteArray canonicalEncoding(const AuditLogRowBytes &r)
{
    QByteArray out;
    out.reserve(256);
    encodeInto(out, r);
    return out;
}

void encodeInto(QByteArray &out, const AuditLogRowBytes &r)
{
    out.clear();
    utf8(out, "oncepay.audit.v1");
    integer(out, r.seq);
    utf8(out, r.eventId);
    integer(out, r.occurredAt);
    integer(out, r.recordedAt);
    utf8(out, r.actor);
    utf8(out, r.actorRole);
    utf8(out, r.action);
    utf8(out, r.entityKind);
    utf8(out, r.entityId);
    nullableUtf8(out, r.orderId);
    nullableUtf8(out, r.callbackId);
    nullableUtf8(out, r.beforeJson);
    nullableUtf8(out, r.afterJson);
    nullableUtf8(out, r.reason);
    utf8(out, r.prevHash);
}

QByteArray computeHash(const AuditLogRowBytes &row)
{
    return QCryptographicHash::hash(canonicalEncoding(row), QCryptographicHash::Sha256).toHex();
}

QByteArray sealMessage(qint64 seq, const QString &headHash)
{
    QByteArray out;
    text(out, QStringLiteral("oncepay.audit.seal.v1"));
    integer(out, seq);
    text(out, headHash);
    return out;
}

QString columns()
{
    return QStringLiteral("seq, event_id, occurred_at, recorded_at, actor, actor_role, action,"
                          " entity_kind, entity_id, order_id, callback_id, before_json,"
                          " after_json, reason, prev_hash, hash");
}

AuditLogRow readRow(const QSqlQuery &q)
{
    AuditLogRow r;
    r.seq = q.value(0).toLongLong();
    r.eventId = q.value(1).toString();
    r.occurredAt = q.value(2).toLongLong();
    r.recordedAt = q.value(3).toLongLong();
    r.actor = q.value(4).toString();
    r.actorRole = q.value(5).toString();
    r.action = q.value(6).toString();
    r.entityKind = q.value(7).toString();
    r.entityId = q.value(8).toString();
    r.orderId = optionalText(q.value(9));
    r.callbackId = optionalText(q.value(10));
    r.beforeJson = optionalText(q.value(11));
    r.afterJson = optionalText(q.value(12));
    r.reason = optionalText(q.value(13));
    r.prevHash = q.value(14).toString();
    r.hash = q.value(15).toString();
    return r;
}

QString insertSql()
{
    return QStringLiteral("INSERT INTO audit_log (") + columns() +
           QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
}

QVariantList insertBinds(const AuditLogRow &r)
{
    return {r.seq,
            bindText(r.eventId),
            r.occurredAt,
            r.recordedAt,
            bindText(r.actor),
            bindText(r.actorRole),
            bindText(r.action),
            bindText(r.entityKind),
            bindText(r.entityId),
            bindOptional(r.orderId),
            bindOptional(r.callbackId),
            bindOptional(r.beforeJson),
            bindOptional(r.afterJson),
            bindOptional(r.reason),
            r.prevHash,
            r.hash};
}

} // namespace OncePay::AuditChain
