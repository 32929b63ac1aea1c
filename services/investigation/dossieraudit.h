#pragma once

// Exports are audited (DESIGN.md §5): when a person exports an order's dossier for a dispute,
// one audit_outbox row records who, which order, at which version, and the SHA-256 and size
// of the file they took away — so the copy shown to a channel or a court can be matched.
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

    // Requires Action::ReadOrders (every role may read an order and so export its dossier).
    // The order must exist; the row is written in its own transaction. Returns the event id.
    Result<QString> recordExport(const DossierExportFacts &facts, const Actor &actor) const;

private:
    const Connection &m_c;
    const Clock &m_clock;
};

} // namespace OncePay
