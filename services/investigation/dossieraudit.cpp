#include "dossieraudit.h"

#include "audit/auditoutbox.h"
#include "auth/staffsession.h"
#include "db/sql.h"
#include "db/transaction.h"

#include <QRegularExpression>

#include <optional>

#include <spdlog/spdlog.h>

namespace OncePay {

Error DossierAudit::refuse(const QString &orderId, const Actor &actor, const Error &why) const
{
    if (why.code != ErrorCode::Forbidden)
        return why; // the staff row could not be read: nowhere to take the row either
    spdlog::warn("dossier export of order {} refused for {} ({}): {}", orderId.toStdString(),
                 actor.id.toStdString(), actor.role.toStdString(), why.reason.toStdString());
    AuditEvent e;
    e.action = QStringLiteral("export.dossier_refused");
    e.entityKind = QStringLiteral("export");
    e.entityId = orderId;
    e.orderId = orderId;
    AuditOutbox::recordRefusal(m_c, m_clock, actor, e, why);
    return why;
}

Result<void> DossierAudit::authorizeExport(const QString &orderId, const Actor &actor) const
{
    if (auto allowed = requireStaffSession(m_c, actor, Action::ReadOrders); !allowed)
        return refuse(orderId, actor, allowed.error());
    return {};
}

Result<QString> DossierAudit::recordExport(const DossierExportFacts &facts,
                                           const Actor &actor) const
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (!hex.match(facts.sha256Hex).hasMatch() || facts.bytes <= 0)
        return makeError(ErrorCode::Invalid,
                         QStringLiteral("a dossier export needs the file's SHA-256 and size"));
    auto exists =
        Sql::scalar(m_c.db(), QStringLiteral("SELECT COUNT(*) FROM orders WHERE order_id = ?"),
                    {facts.orderId});
    if (!exists)
        return exists.error();
    if (exists->toLongLong() == 0)
        return makeError(ErrorCode::NotFound, QStringLiteral("no order %1").arg(facts.orderId),
                         QStringLiteral("unknown_order"));
    std::optional<Error> refused;
    auto id = inTransaction(m_c.db(), Transaction::Mode::Immediate, [&]() -> Result<QString> {
        // In the row's transaction: a disable committed while the file was written is seen.
        if (auto allowed = requireStaffSession(m_c, actor, Action::ReadOrders); !allowed) {
            refused = allowed.error();
            return allowed.error();
        }
        AuditEvent e;
        e.actor = actor.id;
        e.actorRole = actor.role;
        e.action = QStringLiteral("export.dossier");
        e.entityKind = QStringLiteral("export");
        e.entityId = facts.orderId;
        e.orderId = facts.orderId;
        e.after = {{QStringLiteral("format"), facts.format},
                   {QStringLiteral("order_version"), facts.orderVersion},
                   {QStringLiteral("sha256"), facts.sha256Hex},
                   {QStringLiteral("bytes"), facts.bytes}};
        e.reason = QStringLiteral("dispute dossier");
        return AuditOutbox::record(m_c.db(), e, m_clock);
    });
    if (refused) // rolled back; the refusal in a transaction of its own
        return refuse(facts.orderId, actor, *refused);
    if (id)
        spdlog::info("dossier of order {} (version {}) exported by {}, sha256 {}",
                     facts.orderId.toStdString(), facts.orderVersion, actor.id.toStdString(),
                     facts.sha256Hex.toStdString());
    else
        spdlog::error("dossier export of order {} not audited: {}", facts.orderId.toStdString(),
                      id.error().message.toStdString());
    return id;
}

} // namespace OncePay
