#include "auditoutbox.h"

#include "db/sql.h"
#include "db/transaction.h"

#include <QJsonDocument>
#include <QUuid>

#include <spdlog/spdlog.h>

namespace OncePay {

QString AuditOutbox::newEventId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

Result<AuditBacklog> AuditOutbox::backlog(const Connection &orders)
{
    auto q = Sql::exec(orders.db(), QStringLiteral("SELECT COUNT(*), MIN(occurred_at) FROM"
                                                   " audit_outbox WHERE shipped_at IS NULL"));
    if (!q)
        return q.error();
    AuditBacklog b;
    if (q->next()) {
        b.count = q->value(0).toLongLong();
        b.oldestOccurredAt = b.count > 0 ? q->value(1).toLongLong() : 0;
    }
    return b;
}

QString AuditOutbox::toJson(const QJsonObject &object)
{
    if (object.isEmpty())
        return {};
    // QJsonObject keeps keys sorted, so the compact form is canonical.
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

namespace {

const QString &insertSql()
{
    static const QString sql = QStringLiteral(
        "INSERT INTO audit_outbox (event_id, occurred_at, actor, actor_role, action,"
        " entity_kind, entity_id, order_id, callback_id, before_json, after_json, reason)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    return sql;
}

QVariantList completedValues(AuditEvent &e, const Clock &clock)
{
    if (e.eventId.isEmpty())
        e.eventId = AuditOutbox::newEventId();
    if (e.occurredAt == 0)
        e.occurredAt = clock.nowMs();
    return {e.eventId,
            e.occurredAt,
            e.actor,
            e.actorRole,
            e.action,
            e.entityKind,
            e.entityId,
            Sql::nullIfEmpty(e.orderId),
            Sql::nullIfEmpty(e.callbackId),
            Sql::nullIfEmpty(AuditOutbox::toJson(e.before)),
            Sql::nullIfEmpty(AuditOutbox::toJson(e.after)),
            Sql::nullIfEmpty(e.reason)};
}

} // namespace

Result<QString> AuditOutbox::record(const QSqlDatabase &db, AuditEvent e, const Clock &clock)
{
    const QVariantList values = completedValues(e, clock);
    if (auto r = Sql::exec(db, insertSql(), values); !r)
        return r.error();
    return e.eventId;
}

Result<QString> AuditOutbox::record(const Connection &c, AuditEvent e, const Clock &clock)
{
    const QVariantList values = completedValues(e, clock);
    if (auto r = c.execKept(insertSql(), values); !r)
        return r.error();
    return e.eventId;
}

void AuditOutbox::recordRefusal(const Connection &c, const Clock &clock, const Actor &by,
                                AuditEvent e, const Error &why)
{
    e.actor = by.id.isEmpty() ? QStringLiteral("unknown") : by.id;
    e.actorRole = by.role.isEmpty() ? QStringLiteral("unknown") : by.role;
    e.after.insert(QStringLiteral("code"), errorCodeName(why.code));
    e.after.insert(QStringLiteral("reason"), why.reason);
    e.reason = why.message.left(500);
    auto a = inTransaction(c.db(), Transaction::Mode::Immediate,
                           [&]() -> Result<QString> { return record(c.db(), e, clock); });
    if (!a)
        spdlog::error("{} refusal could not be audited: {}",
                      e.action.section(u'.', 0, 0).toStdString(), a.error().message.toStdString());
}

} // namespace OncePay
