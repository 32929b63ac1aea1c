#pragma once

// Exports are audited (DESIGN.md §5): when a person exports an order's dossier for a dispute,
// one audit_outbox row records who, which order, at which version, and the SHA-256 and size
// of the file they took away — so the copy shown to a channel or a court can be matched.
// A dossier is handed out only to an account as it is now (requireStaffSession): a disabled
// account, or one whose role changed since it signed in, is refused and the refusal audited
// (export.dossier_refused), whatever its open console still shows.
// Thread contract: the connection's thread.

#include "core/actor.h"
#include "core/clock.h"
#include "core/result.h"
#include "db/connection.h"

namespace OncePay {

struct DossierExportFacts {
    QString orderId;
    qint64 orderVersion = 0;
    QString sha256Hex;
    qint64 bytes = 0;
    QString format = QStringLiteral("pdf");
};

class DossierAudit {
public:
    DossierAudit(const Connection &connection, const Clock &clock)
        : m_c(connection)
        , m_clock(clock)
    {}

    // Whether `actor` may export `orderId`'s dossier now: Action::ReadOrders (every role may
    // read an order and so export its dossier) for the account as it is now — Forbidden
    // "unknown_staff", "staff_disabled" or "role_changed" otherwise, audited as
    // export.dossier_refused. Asked before the file is written, so a refusal leaves none.
    Result<void> authorizeExport(const QString &orderId, const Actor &actor) const;
    // Asks again (authorizeExport) inside the row's own transaction, so an account disabled
    // while the file was being written is refused too. The order must exist. Returns the event
    // id.
    Result<QString> recordExport(const DossierExportFacts &facts, const Actor &actor) const;

private:
    // The refusal of an export to `actor` of `orderId`'s dossier, audited and handed back.
    Error refuse(const QString &orderId, const Actor &actor, const Error &why) const;

    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
