#include "auditshipper.h"

#include "auditchain.h"
#include "db/migrator.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QSet>
#include <QStringList>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

// 'OPAUDIT1': the PostgreSQL advisory lock key of the chain head (per database).
constexpr qint64 kPgChainLock = 0x4f50415544495431;

struct OutboxRow {
    qint64 id = 0;
    AuditLogRow row;
};

QString placeholders(qsizetype n)
{
    QStringList marks(n, QStringLiteral("?"));
    return marks.join(u',');
}

Error auditError(const Error &e)
{
    return makeError(e.code, QStringLiteral("audit: ") + e.message, e.reason);
}

Result<QList<OutboxRow>> readOutbox(const QSqlDatabase &db, int limit)
{
    auto q = Sql::exec(db,
                       QStringLiteral("SELECT id, event_id, occurred_at, actor, actor_role, action,"
                                      " entity_kind, entity_id, order_id, callback_id, before_json,"
                                      " after_json, reason FROM audit_outbox"
                                      " WHERE shipped_at IS NULL ORDER BY id LIMIT ?"),
                       {limit});
    if (!q)
        return q.error();
    auto optional = [](const QVariant &v) -> std::optional<QString> {
        return v.isNull() ? std::nullopt : std::optional<QString>(v.toString());
    };
    QList<OutboxRow> rows;
    while (q->next()) {
        OutboxRow o;
        o.id = q->value(0).toLongLong();
        AuditLogRow &r = o.row;
        r.eventId = q->value(1).toString();
        r.occurredAt = q->value(2).toLongLong();
        r.actor = q->value(3).toString();
        r.actorRole = q->value(4).toString();
        r.action = q->value(5).toString();
        r.entityKind = q->value(6).toString();
        r.entityId = q->value(7).toString();
        r.orderId = optional(q->value(8));
        r.callbackId = optional(q->value(9));
        r.beforeJson = optional(q->value(10));
        r.afterJson = optional(q->value(11));
        r.reason = optional(q->value(12));
        rows << o;
    }
    return rows;
}

// MySQL's GET_LOCK is held by the session, not the transaction: release it on every path.
class MySqlChainLock {
public:
    explicit MySqlChainLock(QSqlDatabase db)
        : m_db(std::move(db))
    {}
    ~MySqlChainLock()
    {
        if (m_held)
            (void)Sql::exec(m_db, QStringLiteral("SELECT RELEASE_LOCK(") + name() + u')');
    }
    Result<void> acquire()
    {
        auto r = Sql::scalar(m_db, QStringLiteral("SELECT GET_LOCK(") + name() + u",30)");
        if (!r)
            return r.error();
        if (r->isNull() || r->toInt() != 1)
            return makeError(ErrorCode::Unavailable,
                             QStringLiteral("timed out waiting for the audit chain lock"));
        m_held = true;
        return {};
    }

private:
    static QString name()
    {
        return QStringLiteral("CONCAT('oncepay_audit_', LEFT(SHA1(DATABASE()), 32))");
    }
    QSqlDatabase m_db;
    bool m_held = false;
};

Result<QPair<qint64, QString>> readHead(const QSqlDatabase &db)
{
    auto q =
        Sql::exec(db, QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1"));
    if (!q)
        return q.error();
    if (!q->next())
        return qMakePair(qint64(0), AuditChain::genesisHash());
    return qMakePair(q->value(0).toLongLong(), q->value(1).toString());
}

} // namespace

AuditShipper::AuditShipper(const Connection &orders, const Connection &audit, const Clock &clock)
    : AuditShipper(orders, audit, clock, Options{})
{}

AuditShipper::AuditShipper(const Connection &orders, const Connection &audit, const Clock &clock,
                           Options options)
    : m_orders(orders)
    , m_audit(audit)
    , m_clock(clock)
    , m_options(options)
{
    if (m_options.batchSize < 1)
        m_options.batchSize = 1;
}

Result<qint64> AuditShipper::pendingCount() const
{
    auto n =
        Sql::scalar(m_orders.db(),
                    QStringLiteral("SELECT COUNT(*) FROM audit_outbox WHERE shipped_at IS NULL"));
    if (!n)
        return n.error();
    return n->toLongLong();
}

Result<AuditShipReport> AuditShipper::shipBatch()
{
    AuditShipReport report;
    auto outbox = readOutbox(m_orders.db(), m_options.batchSize);
    if (!outbox)
        return outbox.error();
    if (outbox->isEmpty())
        return report;

    const QSqlDatabase audit = m_audit.db();
    const Dialect dialect = m_audit.dialect();
    {
        MySqlChainLock mysqlLock(audit);
        if (dialect == Dialect::MySql) {
            if (auto r = mysqlLock.acquire(); !r)
                return auditError(r.error());
        }
        Transaction tx(audit, Transaction::Mode::Immediate);
        if (auto r = tx.begin(); !r)
            return auditError(r.error());
        if (dialect == Dialect::Postgres) {
            if (auto r = Sql::exec(audit, QStringLiteral("SELECT pg_advisory_xact_lock(?)"),
                                   {kPgChainLock});
                !r)
                return auditError(r.error());
        }
        auto head = readHead(audit);
        if (!head)
            return auditError(head.error());

        QVariantList ids;
        for (const OutboxRow &o : std::as_const(*outbox))
            ids << o.row.eventId;
        auto present =
            Sql::exec(audit,
                      QStringLiteral("SELECT event_id FROM audit_log WHERE event_id IN (") +
                          placeholders(ids.size()) + u')',
                      ids);
        if (!present)
            return auditError(present.error());
        QSet<QString> already;
        while (present->next())
            already.insert(present->value(0).toString());

        qint64 seq = head->first;
        QString prev = head->second;
        const qint64 recordedAt = m_clock.nowMs();
        const QString insert = AuditChain::insertSql();
        for (OutboxRow &o : *outbox) {
            if (already.contains(o.row.eventId)) {
                ++report.alreadyPresent;
                continue;
            }
            o.row.seq = ++seq;
            o.row.recordedAt = recordedAt;
            o.row.prevHash = prev;
            o.row.hash = AuditChain::computeHash(o.row);
            if (auto r = Sql::exec(audit, insert, AuditChain::insertBinds(o.row)); !r)
                return auditError(r.error());
            prev = o.row.hash;
            ++report.shipped;
        }
        if (auto r = tx.commit(); !r)
            return auditError(r.error());
        report.headSeq = seq;
    }

    // The audit rows are durable; marking the outbox may still fail (the next run then finds
    // them present and only marks them).
    QVariantList binds{m_clock.nowMs()};
    for (const OutboxRow &o : std::as_const(*outbox))
        binds << o.id;
    auto marked = Sql::update(m_orders.db(),
                              QStringLiteral("UPDATE audit_outbox SET shipped_at = ? WHERE"
                                             " shipped_at IS NULL AND id IN (") +
                                  placeholders(outbox->size()) + u')',
                              binds);
    if (!marked) {
        spdlog::warn("audit shipper: {} rows are in the audit log but not marked shipped: {}",
                     outbox->size(), marked.error().message.toStdString());
        return marked.error();
    }
    report.batches = 1;
    if (report.alreadyPresent > 0)
        spdlog::info("audit shipper: {} outbox rows were already in the audit log",
                     report.alreadyPresent);
    return report;
}

Result<AuditShipReport> AuditShipper::shipAll()
{
    AuditShipReport total;
    for (int i = 0; m_options.maxBatches <= 0 || i < m_options.maxBatches; ++i) {
        auto batch = shipBatch();
        if (!batch)
            return batch.error();
        if (batch->batches == 0)
            break;
        total.shipped += batch->shipped;
        total.alreadyPresent += batch->alreadyPresent;
        total.headSeq = batch->headSeq;
        total.batches += 1;
    }
    if (total.batches == 0) {
        auto head = readHead(m_audit.db());
        if (!head)
            return auditError(head.error());
        total.headSeq = head->first;
    }
    return total;
}

Result<AuditShipReport> AuditShipper::ship(const ConnectionProfile &orders,
                                           const ConnectionProfile &audit, const Clock &clock,
                                           Options options)
{
    auto o = openMigrated(orders, QStringLiteral("audit-ship"));
    if (!o)
        return o.error();
    auto a = openMigrated(audit, QStringLiteral("audit-ship"));
    if (!a)
        return a.error(); // Connection::open already reports an unreachable server as Unavailable
    AuditShipper shipper(*o, *a, clock, options);
    return shipper.shipAll();
}

} // namespace OncePay
