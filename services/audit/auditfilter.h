#pragma once

// What the audit trail view and `oncepay audit export` show (DESIGN.md §5, §6): a time range
// on occurred_at, an actor, an action (exact, or a prefix ending in '*': "order.*"), an order,
// a callback and an entity (kind and/or id). Empty fields do not filter. `maxSeq` pins the
// chain head an export covers, so rows appended while it runs stay out.
// Thread contract: plain value.

#include "core/result.h"

#include <QJsonObject>
#include <QString>
#include <QVariantList>

namespace OncePay {

struct AuditFilter {
    qint64 fromMs = 0; // occurred_at >= fromMs; 0: no lower bound
    qint64 toMs = 0;   // occurred_at <  toMs;   0: no upper bound
    QString actor;
    QString action;
    QString orderId;
    QString callbackId;
    QString entityKind;
    QString entityId;
    qint64 maxSeq = 0; // seq <= maxSeq; 0: no bound

    bool operator==(const AuditFilter &) const = default;

    // Checks the range and the action pattern; the error names the field in the words of the
    // command line (--from, --to), its reason says which check failed for the console's own
    // words: "bad_range" (to not after from), "bad_action" (a '*' not at the end, or alone),
    // "bad_filter" (a negative time or seq).
    Result<void> validate() const;
    // " AND ..." conditions (possibly empty) and their binds, for "WHERE seq > ?" + this.
    QString sqlConditions(QVariantList *binds) const;
    // Stable JSON for manifests and the audit row: only the fields that filter, times in
    // ISO 8601 UTC and epoch ms.
    QJsonObject toJson() const;
    static Result<AuditFilter> fromJson(const QJsonObject &json);
    QString describe() const; // one line, "all rows" when empty

    // "2026-11-01", "2026-11-01T12:00:00Z" (UTC unless an offset is given) or epoch ms.
    static Result<qint64> parseTime(const QString &text);
    static QString formatTime(qint64 ms); // ISO 8601 UTC with milliseconds
};

} // namespace OncePay
