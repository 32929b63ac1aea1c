#include "auditfilter.h"

#include <QDateTime>
#include <QTimeZone>

namespace OncePay {

namespace {

// The first string after every string that starts with `prefix`, for a range scan that uses
// the (action, occurred_at) index instead of LIKE and its escaping rules.
QString prefixUpperBound(const QString &prefix)
{
    QString upper = prefix;
    upper[upper.size() - 1] = QChar(upper.at(upper.size() - 1).unicode() + 1);
    return upper;
}

void addText(QJsonObject &o, const char *key, const QString &value)
{
    if (!value.isEmpty())
        o.insert(QLatin1String(key), value);
}

} // namespace

Result<void> AuditFilter::validate() const
{
    if (fromMs < 0 || toMs < 0 || maxSeq < 0)
        return makeError(ErrorCode::Invalid, QStringLiteral("filter: negative time or seq"),
                         QStringLiteral("bad_filter"));
    if (fromMs && toMs && toMs <= fromMs)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("filter: --to (%1) is not after --from (%2)")
                             .arg(formatTime(toMs), formatTime(fromMs)),
                         QStringLiteral("bad_range"));
    if (action == u"*" || (action.indexOf(u'*') >= 0 && action.indexOf(u'*') != action.size() - 1))
        return makeError(
            ErrorCode::Invalid,
            QStringLiteral("filter: action '%1' may only end in '*' (e.g. order.*)").arg(action),
            QStringLiteral("bad_action"));
    return {};
}

QString AuditFilter::sqlConditions(QVariantList *binds) const
{
    QString sql;
    if (fromMs) {
        sql += QStringLiteral(" AND occurred_at >= ?");
        *binds << fromMs;
    }
    if (toMs) {
        sql += QStringLiteral(" AND occurred_at < ?");
        *binds << toMs;
    }
    if (maxSeq) {
        sql += QStringLiteral(" AND seq <= ?");
        *binds << maxSeq;
    }
    if (!actor.isEmpty()) {
        sql += QStringLiteral(" AND actor = ?");
        *binds << actor;
    }
    if (action.endsWith(u'*')) {
        const QString prefix = action.chopped(1);
        sql += QStringLiteral(" AND action >= ? AND action < ?");
        *binds << prefix << prefixUpperBound(prefix);
    } else if (!action.isEmpty()) {
        sql += QStringLiteral(" AND action = ?");
        *binds << action;
    }
    if (!orderId.isEmpty()) {
        sql += QStringLiteral(" AND order_id = ?");
        *binds << orderId;
    }
    if (!callbackId.isEmpty()) {
        sql += QStringLiteral(" AND callback_id = ?");
        *binds << callbackId;
    }
    if (!entityKind.isEmpty()) {
        sql += QStringLiteral(" AND entity_kind = ?");
        *binds << entityKind;
    }
    if (!entityId.isEmpty()) {
        sql += QStringLiteral(" AND entity_id = ?");
        *binds << entityId;
    }
    return sql;
}

QJsonObject AuditFilter::toJson() const
{
    QJsonObject o;
    if (fromMs) {
        o.insert(QStringLiteral("from"), formatTime(fromMs));
        o.insert(QStringLiteral("from_ms"), QString::number(fromMs));
    }
    if (toMs) {
        o.insert(QStringLiteral("to"), formatTime(toMs));
        o.insert(QStringLiteral("to_ms"), QString::number(toMs));
    }
    addText(o, "actor", actor);
    addText(o, "action", action);
    addText(o, "order_id", orderId);
    addText(o, "callback_id", callbackId);
    addText(o, "entity_kind", entityKind);
    addText(o, "entity_id", entityId);
    if (maxSeq)
        o.insert(QStringLiteral("max_seq"), QString::number(maxSeq));
    return o;
}

Result<AuditFilter> AuditFilter::fromJson(const QJsonObject &o)
{
    AuditFilter f;
    f.fromMs = o.value(QStringLiteral("from_ms")).toString().toLongLong();
    f.toMs = o.value(QStringLiteral("to_ms")).toString().toLongLong();
    f.actor = o.value(QStringLiteral("actor")).toString();
    f.action = o.value(QStringLiteral("action")).toString();
    f.orderId = o.value(QStringLiteral("order_id")).toString();
    f.callbackId = o.value(QStringLiteral("callback_id")).toString();
    f.entityKind = o.value(QStringLiteral("entity_kind")).toString();
    f.entityId = o.value(QStringLiteral("entity_id")).toString();
    f.maxSeq = o.value(QStringLiteral("max_seq")).toString().toLongLong();
    if (auto v = f.validate(); !v)
        return v.error();
    return f;
}

QString AuditFilter::describe() const
{
    QStringList parts;
    if (fromMs)
        parts << QStringLiteral("from %1").arg(formatTime(fromMs));
    if (toMs)
        parts << QStringLiteral("to %1").arg(formatTime(toMs));
    if (!actor.isEmpty())
        parts << QStringLiteral("actor %1").arg(actor);
    if (!action.isEmpty())
        parts << QStringLiteral("action %1").arg(action);
    if (!orderId.isEmpty())
        parts << QStringLiteral("order %1").arg(orderId);
    if (!callbackId.isEmpty())
        parts << QStringLiteral("callback %1").arg(callbackId);
    if (!entityKind.isEmpty())
        parts << QStringLiteral("entity kind %1").arg(entityKind);
    if (!entityId.isEmpty())
        parts << QStringLiteral("entity %1").arg(entityId);
    if (maxSeq)
        parts << QStringLiteral("up to seq %1").arg(maxSeq);
    return parts.isEmpty() ? QStringLiteral("all rows") : parts.join(QStringLiteral(", "));
}

Result<qint64> AuditFilter::parseTime(const QString &text)
{
    const QString t = text.trimmed();
    bool isNumber = false;
    const qint64 ms = t.toLongLong(&isNumber);
    if (isNumber && ms >= 0)
        return ms;
    QDateTime dt = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!dt.isValid()) {
        const QDate d = QDate::fromString(t, Qt::ISODate);
        if (d.isValid())
            dt = QDateTime(d, QTime(0, 0), QTimeZone::utc());
    }
    if (!dt.isValid())
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("'%1' is not a time (use 2026-11-01, "
                                        "2026-11-01T12:00:00Z or epoch milliseconds)")
                             .arg(t),
                         QStringLiteral("bad_time"));
    if (dt.timeSpec() == Qt::LocalTime)
        dt.setTimeZone(QTimeZone::utc()); // no offset given: UTC, like everything stored
    return dt.toMSecsSinceEpoch();
}

QString AuditFilter::formatTime(qint64 ms)
{
    // Qt::UTC (not a QTimeZone) so the text ends in "Z".
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace OncePay
