#include "audittrailquery.h"

#include "auditoutbox.h"
#include "auditverifier.h"
#include "auth/permissions.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <spdlog/spdlog.h>

namespace OncePay {

AuditTrailQuery::AuditTrailQuery(const Connection &audit, const Connection &orders,
                                 const Clock &clock)
    : m_audit(audit)
    , m_orders(orders)
    , m_clock(clock)
{}

Result<void> AuditTrailQuery::authorize(const Actor &actor, const QString &what) const
{
    auto allowed = require(actor, Action::ReadAudit);
    if (allowed)
        return {};
    spdlog::warn("audit trail {} refused for {} ({})", what.toStdString(), actor.id.toStdString(),
                 actor.role.toStdString());
    AuditEvent e;
    e.actor = actor.id.isEmpty() ? QStringLiteral("anonymous") : actor.id;
    e.actorRole = actor.role.isEmpty() ? QStringLiteral("anonymous") : actor.role;
    e.action = QStringLiteral("audit.access_refused");
    e.entityKind = QStringLiteral("audit_trail");
    e.entityId = what;
    e.after = {{QStringLiteral("attempted"), what}};
    e.reason = QStringLiteral("forbidden");
    auto recorded = inTransaction(m_orders.db(), Transaction::Mode::Deferred,
                                  [&] { return AuditOutbox::record(m_orders.db(), e, m_clock); });
    if (!recorded)
        return recorded.error(); // the refusal could not be recorded: say so, still refuse
    return allowed.error();
}

Result<qint64> AuditTrailQuery::stream(const AuditFilter &filter, qint64 afterSeq, int limit,
                                       const RowSink &sink) const
{
    QVariantList binds{afterSeq};
    const QString sql = QStringLiteral("SELECT ") + AuditChain::columns() +
                        QStringLiteral(" FROM audit_log WHERE seq > ?") +
                        filter.sqlConditions(&binds) + QStringLiteral(" ORDER BY seq LIMIT ?");
    binds << limit;
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

Result<AuditHead> AuditTrailQuery::head(const Actor &actor) const
{
    if (auto ok = authorize(actor, QStringLiteral("read")); !ok)
        return ok.error();
    return readHead(m_audit);
}

Result<AuditVerifyReport> AuditTrailQuery::verify(const SealPublicKey *publicKey,
                                                  const AuditVerifier::Progress &progress,
                                                  const Actor &actor, int batchSize) const
{
    if (auto ok = authorize(actor, QStringLiteral("verify")); !ok)
        return ok.error();
    AuditVerifier verifier(m_audit);
    if (publicKey)
        verifier.setPublicKey(*publicKey);
    verifier.setBatchSize(batchSize);
    auto report = verifier.verify(progress);
    if (report)
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
