#include "auditsealrecord.h"

#include "auditoutbox.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QHashFunctions>
#include <QJsonDocument>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace OncePay {

namespace {

// Any fixed seed: the fingerprints are compared within one run only.
constexpr size_t kSeed = 0x6f6e636570617931ULL;

quint64 fingerprint(QStringView eventId)
{
    return quint64(qHash(eventId, kSeed));
}

} // namespace

Result<void> AuditSealRecord::write(const Connection &orders, const AuditCheckpoint &cp,
                                    const Clock &clock)
{
    auto newest = latest(orders);
    if (newest && *newest && (*newest)->seq == cp.seq && (*newest)->headHash == cp.headHash &&
        (*newest)->keyId == cp.keyId)
        return {};
    AuditEvent e;
    e.actor = cp.sealedBy.isEmpty() ? QStringLiteral("system") : cp.sealedBy;
    e.actorRole = QStringLiteral("system");
    e.action = action();
    e.entityKind = QStringLiteral("audit_chain");
    e.entityId = QString::number(cp.seq);
    // Numbers as text, like every amount in the outbox: exact whatever reads them.
    e.after = {{QStringLiteral("checkpoint_id"), QString::number(cp.id)},
               {QStringLiteral("seq"), QString::number(cp.seq)},
               {QStringLiteral("head_hash"), cp.headHash},
               {QStringLiteral("key_id"), cp.keyId},
               {QStringLiteral("signature"), cp.signature},
               {QStringLiteral("sealed_by"), cp.sealedBy},
               {QStringLiteral("sealed_at"), QString::number(cp.sealedAt)}};
    auto r = inTransaction(orders.db(), Transaction::Mode::Immediate,
                           [&] { return AuditOutbox::record(orders.db(), e, clock); });
    if (!r)
        return r.error();
    return {};
}

Result<std::optional<AuditCheckpoint>> AuditSealRecord::latest(const Connection &orders)
{
    // Newest first by primary key: seals are frequent enough that the walk back stops soon.
    auto q = Sql::exec(orders.db(),
                       QStringLiteral("SELECT id, after_json FROM audit_outbox WHERE action = ?"
                                      " ORDER BY id DESC LIMIT 1"),
                       {action()});
    if (!q)
        return q.error();
    if (!q->next())
        return std::optional<AuditCheckpoint>();
    const qint64 outboxId = q->value(0).toLongLong();
    const QJsonObject o = QJsonDocument::fromJson(q->value(1).toString().toUtf8()).object();
    AuditCheckpoint cp;
    bool okId = false, okSeq = false, okAt = false;
    cp.id = o.value(QStringLiteral("checkpoint_id")).toString().toLongLong(&okId);
    cp.seq = o.value(QStringLiteral("seq")).toString().toLongLong(&okSeq);
    cp.sealedAt = o.value(QStringLiteral("sealed_at")).toString().toLongLong(&okAt);
    cp.headHash = o.value(QStringLiteral("head_hash")).toString();
    cp.keyId = o.value(QStringLiteral("key_id")).toString();
    cp.signature = o.value(QStringLiteral("signature")).toString();
    cp.sealedBy = o.value(QStringLiteral("sealed_by")).toString();
    if (!okId || !okSeq || !okAt || cp.seq <= 0 || cp.headHash.isEmpty() || cp.keyId.isEmpty() ||
        cp.signature.isEmpty()) {
        spdlog::error("audit seal record (outbox id {}) cannot be read", outboxId);
        return makeError(ErrorCode::Corrupt,
                         QStringLiteral("the seal recorded in the orders database (outbox id %1)"
                                        " cannot be read")
                             .arg(outboxId),
                         QStringLiteral("seal_record_unreadable"));
    }
    return std::optional<AuditCheckpoint>(cp);
}

Result<AuditShippedEvents> AuditShippedEvents::read(const Connection &orders)
{
    // Keyset pages along the primary key: flat memory in the driver whatever the outbox holds.
    constexpr int kBatch = 20000;
    AuditShippedEvents events;
    const QString sql = QStringLiteral("SELECT id, event_id FROM audit_outbox WHERE id > ? AND"
                                       " shipped_at IS NOT NULL ORDER BY id LIMIT ?");
    qint64 last = 0;
    for (;;) {
        auto q = Sql::exec(orders.db(), sql, {last, kBatch});
        if (!q)
            return q.error();
        int n = 0;
        while (q->next()) {
            ++n;
            last = q->value(0).toLongLong();
            events.m_shipped.push_back({fingerprint(q->value(1).toString()), last});
        }
        if (n < kBatch)
            break;
    }
    std::sort(events.m_shipped.begin(), events.m_shipped.end(),
              [](const Shipped &a, const Shipped &b) { return a.fingerprint < b.fingerprint; });
    return events;
}

void AuditShippedEvents::seenInChain(const QString &eventId)
{
    if (!m_shipped.empty())
        m_chain.push_back(fingerprint(eventId));
}

Result<AuditShippedEvents::Missing> AuditShippedEvents::missing(const Connection &orders)
{
    Missing result;
    std::sort(m_chain.begin(), m_chain.end());
    auto c = m_chain.cbegin();
    for (const Shipped &s : m_shipped) {
        while (c != m_chain.cend() && *c < s.fingerprint)
            ++c;
        if (c != m_chain.cend() && *c == s.fingerprint)
            continue;
        if (result.count++ == 0 || s.outboxId < result.firstOutboxId)
            result.firstOutboxId = s.outboxId;
    }
    if (result.count == 0)
        return result;
    auto q = Sql::exec(orders.db(),
                       QStringLiteral("SELECT event_id, action FROM audit_outbox WHERE id = ?"),
                       {result.firstOutboxId});
    if (!q)
        return q.error();
    if (q->next()) {
        result.firstEventId = q->value(0).toString();
        result.firstAction = q->value(1).toString();
    }
    return result;
}

} // namespace OncePay
