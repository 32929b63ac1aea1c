#include "audittrailquery.h"

#include "auditoutbox.h"
#include "auditverifier.h"
#include "auth/permissions.h"
#include "auth/staffrights.h"
#include "db/sql.h"
#include "db/sqlitenative.h"
#include "db/transaction.h"

#include <spdlog/spdlog.h>

namespace OncePay {

AuditTrailQuery::AuditTrailQuery(const Connection &audit, const Connection &orders,
                                 const Clock &clock)
    : m_audit(audit)
    , m_orders(orders)
    , m_clock(clock)
{}

Result<void> authorizeAuditRead(const Connection &orders, const Clock &clock, const Actor &actor,
                                const QString &what)
{
    // The account as it is now, not the role it signed in with: a disabled or demoted auditor's
    // open page (or a long export) is refused at its next read (review finding 3).
    // Read without a lock: the auditor's database role reads staff rows but may not lock them.
    auto allowed = requireCurrent(orders, actor, Action::ReadAudit, StaffRowRead::Plain);
    if (allowed)
        return {};
    if (allowed.error().code != ErrorCode::Forbidden)
        return allowed.error(); // the staff row could not be read: nothing to audit as refused
    spdlog::warn("audit {} refused for {} ({}): {}", what.toStdString(), actor.id.toStdString(),
                 actor.role.toStdString(), allowed.error().reason.toStdString());
    AuditEvent e;
    e.actor = actor.id.isEmpty() ? QStringLiteral("anonymous") : actor.id;
    e.actorRole = actor.role.isEmpty() ? QStringLiteral("anonymous") : actor.role;
    e.action = QStringLiteral("audit.access_refused");
    e.entityKind = QStringLiteral("audit_trail");
    e.entityId = what;
    e.after = {{QStringLiteral("attempted"), what}};
    if (!allowed.error().reason.isEmpty())
        e.after.insert(QStringLiteral("refused_because"), allowed.error().reason);
    e.reason = QStringLiteral("forbidden");
    auto recorded = inTransaction(orders.db(), Transaction::Mode::Deferred,
                                  [&] { return AuditOutbox::record(orders.db(), e, clock); });
    if (!recorded)
        return recorded.error(); // the refusal could not be recorded: say so, still refuse
    return allowed.error();
}

Result<void> AuditTrailQuery::authorize(const Actor &actor, const QString &what) const
{
    return authorizeAuditRead(m_orders, m_clock, actor, what);
}

QString AuditTrailQuery::pageStatement(const AuditFilter &filter, qint64 afterSeq, int limit,
                                       QVariantList *binds)
{
    *binds << afterSeq;
    QString sql = QStringLiteral("SELECT ") + AuditChain::columns() +
                  QStringLiteral(" FROM audit_log WHERE seq > ?") + filter.sqlConditions(binds) +
                  QStringLiteral(" ORDER BY seq LIMIT ?");
    *binds << limit;
    return sql;
}

Result<qint64> AuditTrailQuery::stream(const AuditFilter &filter, qint64 afterSeq, int limit,
                                       const RowSink &sink) const
{
    QVariantList binds;
    const QString sql = pageStatement(filter, afterSeq, limit, &binds);
    auto q = Sql::exec(m_audit.db(), sql, binds);
    if (!q)
        return q.error();
    qint64 n = 0;
    while (q->next()) {
        ++n;
        if (!sink(AuditChain::readRow(*q)))
            break;
    }
    return n;
}

Result<AuditPage> AuditTrailQuery::page(const AuditFilter &filter, qint64 afterSeq, int limit,
                                        const Actor &actor) const
{
    if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
        return ok.error();
    if (auto v = filter.validate(); !v)
        return v.error();
    AuditPage page;
    page.lastSeq = afterSeq;
    limit = qMax(1, limit);
    auto n = stream(filter, afterSeq, limit, [&page](const AuditLogRow &row) {
        page.lastSeq = row.seq;
        page.rows.append(row);
        return true;
    });
    if (!n)
        return n.error();
    page.atEnd = *n < limit;
    return page;
}

Result<qint64> AuditTrailQuery::count(const AuditFilter &filter, const Actor &actor) const
{
    if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
        return ok.error();
    if (auto v = filter.validate(); !v)
        return v.error();
    QVariantList binds{0};
    auto n = Sql::scalar(m_audit.db(),
                         QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE seq > ?") +
                             filter.sqlConditions(&binds),
                         binds);
    if (!n)
        return n.error();
    return n->toLongLong();
}

Result<qint64> AuditTrailQuery::forEach(const AuditFilter &filter, int pageSize,
                                        const RowSink &sink, const Actor &actor) const
{
    if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
        return ok.error();
    if (auto v = filter.validate(); !v)
        return v.error();
    pageSize = qMax(1, pageSize);
    qint64 total = 0;
    qint64 last = 0;
    bool stopped = false;
    for (;;) {
        auto n = stream(filter, last, pageSize, [&](const AuditLogRow &row) {
            last = row.seq;
            ++total;
            stopped = !sink(row);
            return !stopped;
        });
        if (!n)
            return n.error();
        if (stopped || *n < pageSize)
            return total;
    }
}

namespace {

std::optional<QByteArrayView> optionalView(const std::optional<QByteArray> &b)
{
    return b ? std::optional<QByteArrayView>(*b) : std::nullopt;
}

std::optional<QByteArray> optionalUtf8(const std::optional<QString> &s)
{
    return s ? std::optional<QByteArray>(s->toUtf8()) : std::nullopt;
}

std::optional<QString> optionalString(const std::optional<QByteArrayView> &b)
{
    return b ? std::optional<QString>(QString::fromUtf8(*b)) : std::nullopt;
}

} // namespace

AuditLogRowUtf8::AuditLogRowUtf8(const AuditLogRow &r)
    : m_eventId(r.eventId.toUtf8())
    , m_actor(r.actor.toUtf8())
    , m_actorRole(r.actorRole.toUtf8())
    , m_action(r.action.toUtf8())
    , m_entityKind(r.entityKind.toUtf8())
    , m_entityId(r.entityId.toUtf8())
    , m_prevHash(r.prevHash.toUtf8())
    , m_hash(r.hash.toUtf8())
    , m_orderId(optionalUtf8(r.orderId))
    , m_callbackId(optionalUtf8(r.callbackId))
    , m_beforeJson(optionalUtf8(r.beforeJson))
    , m_afterJson(optionalUtf8(r.afterJson))
    , m_reason(optionalUtf8(r.reason))
{
    m_bytes.seq = r.seq;
    m_bytes.eventId = m_eventId;
    m_bytes.occurredAt = r.occurredAt;
    m_bytes.recordedAt = r.recordedAt;
    m_bytes.actor = m_actor;
    m_bytes.actorRole = m_actorRole;
    m_bytes.action = m_action;
    m_bytes.entityKind = m_entityKind;
    m_bytes.entityId = m_entityId;
    m_bytes.orderId = optionalView(m_orderId);
    m_bytes.callbackId = optionalView(m_callbackId);
    m_bytes.beforeJson = optionalView(m_beforeJson);
    m_bytes.afterJson = optionalView(m_afterJson);
    m_bytes.reason = optionalView(m_reason);
    m_bytes.prevHash = m_prevHash;
    m_bytes.hash = m_hash;
}

AuditLogRow AuditLogRowBytes::toRow() const
{
    AuditLogRow r;
    r.seq = seq;
    r.eventId = QString::fromUtf8(eventId);
    r.occurredAt = occurredAt;
    r.recordedAt = recordedAt;
    r.actor = QString::fromUtf8(actor);
    r.actorRole = QString::fromUtf8(actorRole);
    r.action = QString::fromUtf8(action);
    r.entityKind = QString::fromUtf8(entityKind);
    r.entityId = QString::fromUtf8(entityId);
    r.orderId = optionalString(orderId);
    r.callbackId = optionalString(callbackId);
    r.beforeJson = optionalString(beforeJson);
    r.afterJson = optionalString(afterJson);
    r.reason = optionalString(reason);
    r.prevHash = QString::fromUtf8(prevHash);
    r.hash = QString::fromUtf8(hash);
    return r;
}

Result<qint64> AuditTrailQuery::forEachBytes(const AuditFilter &filter, int pageSize,
                                             const BytesSink &sink, const Actor &actor) const
{
    if (SqliteNative::handle(m_audit.db())) {
        if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
            return ok.error();
        if (auto v = filter.validate(); !v)
            return v.error();
        return forEachNative(filter, qMax(1, pageSize), sink);
    }
    return forEach(
        filter, pageSize,
        [&sink](const AuditLogRow &r) {
            const AuditLogRowUtf8 utf8(r);
            return sink(utf8.bytes());
        },
        actor);
}

// The keyset pages of stream(), one prepared statement rebound per page, columns read as
// SQLite's own UTF-8 bytes (column order: AuditChain::columns()).
Result<qint64> AuditTrailQuery::forEachNative(const AuditFilter &filter, int pageSize,
                                              const BytesSink &sink) const
{
    QVariantList binds;
    const QString sql = pageStatement(filter, 0, pageSize, &binds);
    SqliteNative::Statement st;
    if (auto p = st.prepare(SqliteNative::handle(m_audit.db()), sql.toUtf8()); !p) {
        spdlog::error("audit trail read: {}", p.error().message.toStdString());
        return p.error();
    }
    const auto text = [&st](int column) {
        int size = 0;
        const char *p = st.text(column, &size);
        return QByteArrayView(p, size);
    };
    const auto optional = [&st, &text](int column) {
        return st.isNull(column) ? std::nullopt : std::optional<QByteArrayView>(text(column));
    };
    qint64 total = 0;
    AuditLogRowBytes b;
    for (;;) {
        binds[0] = b.seq; // after the last row handed over (0 at the start)
        st.reset();
        st.bindAll(binds);
        int inPage = 0;
        for (;;) {
            auto row = st.step();
            if (!row) {
                spdlog::error("audit trail read: {}", row.error().message.toStdString());
                return row.error();
            }
            if (!*row)
                break;
            ++inPage;
            ++total;
            b.seq = st.int64(0);
            b.eventId = text(1);
            b.occurredAt = st.int64(2);
            b.recordedAt = st.int64(3);
            b.actor = text(4);
            b.actorRole = text(5);
            b.action = text(6);
            b.entityKind = text(7);
            b.entityId = text(8);
            b.orderId = optional(9);
            b.callbackId = optional(10);
            b.beforeJson = optional(11);
            b.afterJson = optional(12);
            b.reason = optional(13);
            b.prevHash = text(14);
            b.hash = text(15);
            if (!sink(b))
                return total;
        }
        if (inPage < pageSize)
            return total;
    }
}

Result<AuditHead> AuditTrailQuery::head(const Actor &actor) const
{
    if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
        return ok.error();
    return readHead(m_audit);
}

Result<AuditBacklog> AuditTrailQuery::unshipped(const Actor &actor) const
{
    if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
        return ok.error();
    auto b = AuditOutbox::backlog(m_orders);
    if (!b)
        spdlog::error("audit outbox backlog read: {}", b.error().message.toStdString());
    return b;
}

Result<AuditVerifyReport> AuditTrailQuery::verify(const SealPublicKey *publicKey,
                                                  const AuditVerifier::Progress &progress,
                                                  const Actor &actor, int batchSize) const
{
    if (auto ok = authorize(actor, QStringLiteral("verify")); !ok)
        return ok.error();
    AuditVerifier verifier(m_audit);
    verifier.setOrders(m_orders); // rows cut off the end show against its outbox and seal record
    if (publicKey)
        verifier.setPublicKey(*publicKey);
    verifier.setBatchSize(batchSize);
    auto report = verifier.verify(progress);
    if (report && !report->cancelled) {
        // What still waits in the outbox is said beside the chain's result, never instead of
        // it: a broken chain found must reach the auditor even when the count cannot be read.
        if (auto backlog = AuditOutbox::backlog(m_orders))
            report->unshipped = *backlog;
        else
            spdlog::warn("audit verify: the events waiting in the outbox could not be counted: {}",
                         backlog.error().message.toStdString());
    }
    // A break is an alarm, not news: it is logged as an error, so alerting on errors sees it.
    if (report && report->problem)
        spdlog::error("audit chain verified by {}: {}", actor.id.toStdString(),
                      report->summary().toStdString());
    else if (report && report->cancelled)
        spdlog::info("audit chain verification by {} cancelled after {} of {} rows: nothing"
                     " was concluded",
                     actor.id.toStdString(), report->rowsChecked, report->totalRows);
    else if (report)
        spdlog::info("audit chain verified by {}: {}", actor.id.toStdString(),
                     report->summary().toStdString());
    return report;
}

Result<AuditHead> AuditTrailQuery::readHead(const Connection &audit)
{
    AuditHead head;
    auto q = Sql::exec(audit.db(), QStringLiteral("SELECT seq, hash FROM audit_log WHERE seq ="
                                                  " (SELECT MAX(seq) FROM audit_log)"));
    if (!q)
        return q.error();
    if (q->next()) {
        head.seq = q->value(0).toLongLong();
        head.hash = q->value(1).toString();
    }
    auto cps = AuditVerifier::checkpoints(audit.db());
    if (!cps)
        return cps.error();
    for (const AuditCheckpoint &cp : std::as_const(*cps)) // ordered by seq, id
        if (cp.seq <= head.seq)
            head.seal = cp;
    return head;
}

} // namespace OncePay
