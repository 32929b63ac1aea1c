#pragma once

// Words for the codes the services hand out (states, statuses, kinds), translated, and the
// shared formatting of times, ages and money. Codes stay codes in the database and the
// audit trail; only what people read is translated.
// Thread contract: GUI thread (uses the installed translators).

#include "audit/auditfilter.h"
#include "auth/permissions.h"
#include "investigation/ordersearch.h"
#include "investigation/stuckquery.h"

#include <QString>

namespace OncePay::Labels {

QString orderState(const QString &code);
QString messageStatus(const QString &code);
QString stuckKind(StuckKind kind);
QString stuckKindFromCode(const QString &code);
QString matchKind(MatchKind kind);
QString role(StaffRole role);
QString causeKind(const QString &code);
QString idempotencyStatus(int status);
QString ledgerKind(const QString &code);
QString paymentStatus(const QString &code);    // captured, refunded
QString settlementStatus(const QString &code); // settled, pending
QString settlementKind(const QString &code);   // a settlement line's charge, refund
QString auditAction(const QString &code);      // order.transition, callback.dead_lettered, ...
QString actorRole(const QString &code);        // platform, system, channel, finance, ...
QString entityKind(const QString &code);       // order, callback, staff, fix, ...
QString callbackEvent(const QString &eventKind, const QString &channelEventType);
QString requestOperation(const QString &code);  // an idempotency record's operation: pay
QString requestOutcome(const QString &outcome); // {"state":…,"version":…} or a refusal
QString fulfilmentStatus(const QString &code);  // a purchase or logistics order's: created
QString auditFilter(const AuditFilter &filter); // AuditFilter::describe(), translated

QString time(qint64 epochMs); // local time, "yyyy-MM-dd HH:mm:ss"; "—" for 0
QString age(qint64 ms);       // "3 d 4 h", "12 min", "40 s"
QString money(qint64 minor, const QString &currency);
// The sort key of an amount in a list that mixes currencies: by currency, then by amount
// within it (signed). Minor units of different currencies are not comparable — 1,300 JPY
// is not more than 9.34 EUR — so a column never sorts them as one number.
QString moneySortKey(qint64 minor, const QString &currency);

// Colours shared by tables and charts.
QString refusedColour();  // background of refused/failed rows
QString rollbackColour(); // background of rollbacks

} // namespace OncePay::Labels
