#include "stuckquery.h"

#include "auth/permissions.h"
#include "db/sql.h"
#include "settings/opssettings.h"
#include "settings/settingsservice.h"

#include <QSqlQuery>

namespace OncePay {

namespace {

// A part of a kind that MariaDB reads on its own, in the kind's order, from an index that
// holds the part so: its condition (added to the kind's), what the kind's since is under that
// condition (a plain column, so the index can give it), and the index. MariaDB has no partial
// index and indexes an expression only through a generated column, so there a kind spanning
// several statuses is read as a merge of its parts (migration 0022).
struct Part {
    QString where = {};
    QString since = {};
    QString index = {};
};

// One kind of stuck record: the rows it selects and how a row becomes a StuckRecord. Every
// column list is the same shape: reference, order, callback, channel, status, since, attempts,
// error, amount, currency, lease end. `{since}` in the columns and the condition stands for
// the kind's since (or a part's, which equals it under the part's condition).
struct KindSpec {
    StuckKind kind = {};
    QString select = {};
    QString source = {}; // the table(s) after FROM
    QString where = {};  // binds: the cut-off (`cutoffs` times) [, now]
    QString since = {};  // the list's order within the kind: since, then key
    QString key = {};    // the reference column: the tie-break within a since, and the cursor's
    bool numericKey = true;
    bool bindsNow = false;
    bool usesIdempotencyThreshold = false;
    bool usesPendingThreshold = true;
    int cutoffs = 1;
    // SQLite and PostgreSQL: the partial index holding the kind in the list's order (migration
    // 0021). Without statistics SQLite's planner takes the (status, time) index instead and
    // sorts what is left of the kind at every page, so there the page names it; an index that
    // cannot answer the statement makes SQLite refuse it, never read slowly.
    QString orderedIndex = {};
    QList<Part> mysqlParts = {}; // MariaDB: a kind spanning several statuses, part by part
};

QString withSince(QString text, const QString &since)
{
    return text.replace(QStringLiteral("{since}"), since);
}

QList<KindSpec> specs()
{
    const QString msgCols =
        QStringLiteral("m.id, m.order_ref, m.callback_id, m.channel, m.status, {since}, m.attempts,"
                       " m.last_error, m.amount_minor, m.currency, m.lease_until");
    const QString messages = QStringLiteral("callback_messages m");
    const QString messageId = QStringLiteral("m.id");
    return {
        // Waiting since it last became pending (received, or requeued by a fix: only the
        // ingest and a requeue set a message pending, and both stamp updated_at), or failing
        // since its last requeue (requeued_at, migration 0019) or, never requeued, since it was
        // received. Both are >= received_at, so the received_at test first lets the
        // (status, received_at) index serve the count.
        {.kind = StuckKind::PendingMessage,
         .select = msgCols,
         .source = messages,
         .where = QStringLiteral("m.status IN ('pending', 'failed') AND m.received_at < ? AND "
                                 "{since} < ?"),
         .since = QStringLiteral("(CASE WHEN m.status = 'pending' THEN m.updated_at"
                                 " ELSE COALESCE(m.requeued_at, m.received_at) END)"),
         .key = messageId,
         .cutoffs = 2,
         .orderedIndex = QStringLiteral("callback_messages_waiting"),
         .mysqlParts = {{QStringLiteral("m.status = 'pending'"), QStringLiteral("m.updated_at"),
                         QStringLiteral("callback_messages_pending_since")},
                        {QStringLiteral("m.status = 'failed' AND m.requeued_at IS NULL"),
                         QStringLiteral("m.received_at"),
                         QStringLiteral("callback_messages_failed_since")},
                        {QStringLiteral("m.status = 'failed' AND m.requeued_at IS NOT NULL"),
                         QStringLiteral("m.requeued_at"),
                         QStringLiteral("callback_messages_failed_requeued")}}},
        {.kind = StuckKind::ProcessingMessage,
         .select = msgCols,
         .source = messages,
         .where = QStringLiteral("m.status = 'processing' AND {since} < ? AND m.lease_until >= ?"),
         .since = QStringLiteral("m.updated_at"),
         .key = messageId,
         .bindsNow = true},
        {.kind = StuckKind::ExpiredLease,
         .select = msgCols,
         .source = messages,
         .where = QStringLiteral("m.status = 'processing' AND {since} < ? AND {since} < ?"),
         .since = QStringLiteral("m.lease_until"),
         .key = messageId,
         .bindsNow = true,
         .usesPendingThreshold = false},
        // Stuck while its message is still dead: a requeue (requeued_at, status pending) and a
        // resolve (status skipped) both end it; a message that dies again renews its dead
        // letter (requeued_at back to NULL).
        {.kind = StuckKind::DeadLetter,
         .select = QStringLiteral("d.id, m.order_ref, d.callback_id, m.channel, m.status,"
                                  " {since}, d.attempts, d.reason, m.amount_minor, m.currency,"
                                  " m.lease_until"),
         .source = QStringLiteral("dead_letters d JOIN callback_messages m ON m.id = d.message_id"),
         .where = QStringLiteral("m.status = 'dead' AND d.requeued_at IS NULL AND {since} < ?"),
         .since = QStringLiteral("d.created_at"),
         .key = QStringLiteral("d.id"),
         .usesPendingThreshold = false},
        // Stuck while a retry could still do the work: its order still sits at the version
        // the request was made against. Once the order has moved on (by this request or
        // another), a retry can only be refused as stale; nothing waits on the record.
        {.kind = StuckKind::PendingIdempotency,
         .select = QStringLiteral("i.request_id, i.order_id, NULL, NULL, i.operation, {since}, 0,"
                                  " i.outcome, NULL, NULL, NULL"),
         .source = QStringLiteral("idempotency_records i"),
         .where = QStringLiteral("i.status = 0 AND {since} < ? AND EXISTS (SELECT 1 FROM orders o"
                                 " WHERE o.order_id = i.order_id AND"
                                 " o.version = i.expected_version)"),
         .since = QStringLiteral("i.created_at"),
         .key = QStringLiteral("i.request_id"),
         .numericKey = false,
         .usesIdempotencyThreshold = true,
         .usesPendingThreshold = false},
        {.kind = StuckKind::RefundObligation,
         .select = QStringLiteral("r.id, r.order_id, r.callback_id, r.channel, 'refund_due',"
                                  " {since}, 0, r.reason, r.amount_minor, r.currency, NULL"),
         .source = QStringLiteral("refund_obligations r"),
         .where = QStringLiteral("r.resolved_at IS NULL AND {since} < ?"),
         .since = QStringLiteral("r.created_at"),
         .key = QStringLiteral("r.id"),
         .usesPendingThreshold = false},
        {.kind = StuckKind::OrderInFlight,
         .select = QStringLiteral("o.order_id, o.order_id, NULL, o.channel, o.state, {since}, 0,"
                                  " o.state_reason, o.amount_minor, o.currency, NULL"),
         .source = QStringLiteral("orders o"),
         .where = QStringLiteral("o.state IN ('paying', 'paid_unconfirmed') AND {since} < ?"),
         .since = QStringLiteral("o.updated_at"),
         .key = QStringLiteral("o.order_id"),
         .numericKey = false,
         .orderedIndex = QStringLiteral("orders_in_flight"),
         .mysqlParts = {{QStringLiteral("o.state = 'paying'"), QStringLiteral("o.updated_at"),
                         QStringLiteral("orders_state_updated")},
                        {QStringLiteral("o.state = 'paid_unconfirmed'"),
                         QStringLiteral("o.updated_at"), QStringLiteral("orders_state_updated")}}},
    };
}

struct Thresholds {
    qint64 pendingMs = 0;
    qint64 idempotencyMs = 0;
};

// The stuck thresholds as stored, each within the range the settings service allows
// (SettingsService::specs()); what is not is refused ("bad_setting"), as the worker refuses
// its own: a list built on a substitute would be shown as following the operations settings.
Result<Thresholds> thresholds(const Connection &c)
{
    auto s = OpsSettings::load(c);
    if (!s)
        return s.error();
    auto seconds = [&](const QString &key, qint64 fallback) -> Result<qint64> {
        for (const SettingSpec &spec : SettingsService::specs())
            if (spec.key == key)
                return s->bounded(key, spec.min, spec.max, spec.fallback);
        return fallback; // not a known setting: never the case for the two below
    };
    auto pending = seconds(QStringLiteral("stuck.pending_seconds"), 300);
    if (!pending)
        return pending.error();
    auto idempotency = seconds(QStringLiteral("stuck.idempotency_pending_seconds"), 600);
    if (!idempotency)
        return idempotency.error();
    return Thresholds{*pending * 1000, *idempotency * 1000};
}

QVariantList bindsFor(const KindSpec &spec, const Thresholds &t, qint64 now, qint64 minAgeMs)
{
    qint64 threshold = 0;
    if (spec.usesPendingThreshold)
        threshold = t.pendingMs;
    if (spec.usesIdempotencyThreshold)
        threshold = t.idempotencyMs;
    QVariantList binds;
    for (int i = 0; i < spec.cutoffs; ++i)
        binds << now - qMax(threshold, minAgeMs);
    if (spec.bindsNow)
        binds << now;
    return binds;
}

QString countSql(const KindSpec &spec)
{
    return QStringLiteral("SELECT COUNT(*) FROM %1 WHERE %2")
        .arg(spec.source, withSince(spec.where, spec.since));
}

// A page of the kind: its oldest `limit` rows, after the cursor when `continued`. The cursor's
// test is given its first column's range as well (since >= the cursor's), which an engine can
// read from the kind's ordered index; the OR alone it may not. On MariaDB a kind with parts is
// the oldest `limit` of each part's oldest `limit`: each part reads its own rows in order, and
// only those are sorted.
StuckQuery::PageStatement pageSql(const KindSpec &spec, Dialect dialect, bool continued, int limit)
{
    auto select = [&](const QString &since, const QString &hint, const QString &partWhere) {
        QString where = withSince(spec.where, since);
        if (!partWhere.isEmpty())
            where += QStringLiteral(" AND ") + partWhere;
        if (continued)
            where += QStringLiteral(" AND %1 >= ? AND (%1 > ? OR (%1 = ? AND %2 > ?))")
                         .arg(since, spec.key);
        return QStringLiteral("SELECT %1 FROM %2%3 WHERE %4 ORDER BY %5, %6 LIMIT %7")
            .arg(withSince(spec.select, since), spec.source, hint, where, since, spec.key)
            .arg(limit);
    };
    if (dialect == Dialect::MySql && !spec.mysqlParts.isEmpty()) {
        QStringList parts;
        for (const Part &part : spec.mysqlParts)
            parts << u'(' +
                         select(part.since, QStringLiteral(" FORCE INDEX (%1)").arg(part.index),
                                part.where) +
                         u')';
        // The union's columns are the kind's column list: its since the sixth, its reference
        // (the key) the first.
        return {parts.join(QStringLiteral(" UNION ALL ")) +
                    QStringLiteral(" ORDER BY 6, 1 LIMIT %1").arg(limit),
                int(parts.size())};
    }
    const QString hint = dialect == Dialect::Sqlite && !spec.orderedIndex.isEmpty()
                             ? QStringLiteral(" INDEXED BY ") + spec.orderedIndex
                             : QString();
    return {select(spec.since, hint, {}), 1};
}

} // namespace

StuckQuery::PageStatement StuckQuery::pageStatement(StuckKind kind, Dialect dialect, bool continued,
                                                    int limit)
{
    for (const KindSpec &spec : specs())
        if (spec.kind == kind)
            return pageSql(spec, dialect, continued, limit);
    return {};
}

QString stuckKindName(StuckKind kind)
{
    switch (kind) {
    case StuckKind::PendingMessage: return QStringLiteral("pending_message");
    case StuckKind::ProcessingMessage: return QStringLiteral("processing_message");
    case StuckKind::ExpiredLease: return QStringLiteral("expired_lease");
    case StuckKind::DeadLetter: return QStringLiteral("dead_letter");
    case StuckKind::PendingIdempotency: return QStringLiteral("pending_idempotency");
    case StuckKind::RefundObligation: return QStringLiteral("refund_obligation");
    case StuckKind::OrderInFlight: return QStringLiteral("order_in_flight");
    }
    return {};
}

QList<StuckKind> allStuckKinds()
{
    return {StuckKind::PendingMessage, StuckKind::ProcessingMessage,  StuckKind::ExpiredLease,
            StuckKind::DeadLetter,     StuckKind::PendingIdempotency, StuckKind::RefundObligation,
            StuckKind::OrderInFlight};
}

Result<StuckReport> StuckQuery::load(const StuckFilter &filter, const Actor &actor) const
{
    if (auto allowed = require(actor, Action::ReadOrders); !allowed)
        return allowed.error();
    auto t = thresholds(m_c);
    if (!t)
        return t.error();
    StuckReport report;
    report.now = filter.atMs > 0 ? filter.atMs : m_clock.nowMs();
    report.pendingThresholdMs = t->pendingMs;
    report.idempotencyThresholdMs = t->idempotencyMs;
    const int limit = qMax(1, filter.pageSize);
    // Each kind's next `limit` rows after its cursor, oldest first; then the oldest `limit`
    // of them all.
    struct Stream {
        StuckKind kind;
        QList<StuckRecord> rows;
        qsizetype taken = 0;
    };
    QList<Stream> streams;
    for (const KindSpec &spec : specs()) {
        if (!filter.kinds.isEmpty() && !filter.kinds.contains(spec.kind))
            continue;
        const QVariantList binds = bindsFor(spec, *t, report.now, filter.minAgeMs);
        if (filter.withCounts) {
            auto n = Sql::scalar(m_c.db(), countSql(spec), binds);
            if (!n)
                return n.error();
            report.counts.insert(spec.kind, n->toLongLong());
            if (n->toLongLong() == 0) {
                report.ended << spec.kind;
                continue;
            }
        }
        QVariantList rowBinds = binds;
        const auto c = filter.after.constFind(spec.kind);
        const bool continued = c != filter.after.cend();
        if (continued)
            rowBinds << c->sinceMs << c->sinceMs << c->sinceMs
                     << (spec.numericKey ? QVariant(c->reference.toLongLong())
                                         : QVariant(c->reference));
        const PageStatement page = pageSql(spec, m_c.dialect(), continued, limit);
        QVariantList pageBinds;
        for (int i = 0; i < page.bindRounds; ++i)
            pageBinds += rowBinds;
        auto q = Sql::exec(m_c.db(), page.sql, pageBinds);
        if (!q)
            return q.error();
        Stream stream{spec.kind, {}};
        while (q->next()) {
            StuckRecord r;
            r.kind = spec.kind;
            r.reference = q->value(0).toString();
            r.orderId = q->value(1).toString();
            r.callbackId = q->value(2).toString();
            r.channel = q->value(3).toString();
            r.status = q->value(4).toString();
            r.sinceMs = q->value(5).toLongLong();
            r.ageMs = qMax<qint64>(0, report.now - r.sinceMs);
            r.attempts = q->value(6).toInt();
            r.lastError = q->value(7).toString();
            r.hasAmount = !q->value(8).isNull();
            r.amountMinor = q->value(8).toLongLong();
            r.currency = q->value(9).toString();
            if (!q->value(10).isNull())
                r.leaseUntilMs = q->value(10).toLongLong();
            stream.rows << r;
        }
        streams << stream;
    }
    // Merge: the oldest head each time; on a tie the kind listed first.
    while (report.records.size() < limit) {
        Stream *next = nullptr;
        for (Stream &s : streams)
            if (s.taken < s.rows.size() &&
                (!next || s.rows[s.taken].sinceMs < next->rows[next->taken].sinceMs))
                next = &s;
        if (!next)
            break;
        report.records << next->rows[next->taken++];
    }
    // A kind continues after the last of its rows taken; it ends here when it had fewer rows
    // than asked and all of them were taken.
    for (const Stream &s : streams) {
        if (s.taken > 0) {
            const StuckRecord &last = s.rows[s.taken - 1];
            report.cursors.insert(s.kind, StuckCursor{last.sinceMs, last.reference});
        }
        if (s.rows.size() < limit && s.taken == s.rows.size())
            report.ended << s.kind;
    }
    return report;
}

Result<QMap<StuckKind, qint64>> StuckQuery::counts() const
{
    auto t = thresholds(m_c);
    if (!t)
        return t.error();
    const qint64 now = m_clock.nowMs();
    QMap<StuckKind, qint64> counts;
    for (const KindSpec &spec : specs()) {
        auto n = Sql::scalar(m_c.db(), countSql(spec), bindsFor(spec, *t, now, 0));
        if (!n)
            return n.error();
        counts.insert(spec.kind, n->toLongLong());
    }
    return counts;
}

} // namespace OncePay
