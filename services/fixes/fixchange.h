#pragma once

// How a reviewer reads a proposal: which fields of the target the fix changes (before → after),
// which it sets to the moment it is applied, and which facts stand beside the change only as
// context (the fix does not set them); and, for an order, the money that was captured for it
// against the order's amount. The rule of what a fix changes lives here, not in a view.
// Thread contract: fixChangeLines is pure (any thread); readCaptured the connection's thread.

#include "core/result.h"
#include "db/connection.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace OncePay {

namespace FixChange {
// The `after` of a field the fix sets to the time it is applied (a message's updated_at).
inline const QString WhenApplied = QStringLiteral("when_applied");
} // namespace FixChange

struct FixChangeLine {
    enum class Kind {
        Change, // the fix sets it: before → after (after == before: it stays)
        Context // a fact beside the change, not set by the fix: before == after
    };
    QString field;  // the stored name: "status", "updated_at", "amount", "captured", …
    QString before; // the stored value (a code, epoch ms, minor units); "" for a new entry's
    QString after;  // the stored value, or FixChange::WhenApplied
    Kind kind = Kind::Change;
};

// The lines of a stored change (FixRequest::change), changes first, then context. Also reads
// changes stored before the context was recorded: a message's updated_at is set when the fix
// is applied, its channel and amount are context; an order's amount is context; a
// discrepancy's amount is what is booked. Money is shown with its currency's decimals
// ("294.88 USD", Currency::format).
QList<FixChangeLine> fixChangeLines(const QJsonObject &change);

// What was captured for an order, against its amount.
struct CapturedMoney {
    QString captured;             // "265.40 USD" (several currencies: "… + …"); "" when none
    QString shortfall;            // "29.48 USD" when less was captured than the order's amount
    QString excess;               // "1.00 USD" when more was
    QStringList evidenceLines;    // each payment, then the total against the order's amount
    QJsonObject context;          // {"captured", "shortfall" | "excess"}: the change's context
    QMap<QString, qint64> totals; // currency → captured (refunded payments not counted)
};
Result<CapturedMoney> readCaptured(const Connection &c, const QString &orderId,
                                   qint64 orderAmountMinor, const QString &orderCurrency);

} // namespace OncePay
