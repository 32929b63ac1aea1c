#pragma once

// When the money a discrepancy is about moved — the one moment the reconciliation desk ages an
// exception from (ReconciliationDesk::discrepancies, DiscrepancyRow::agedFromMs) and a fix of it
// is dated by (FixTargets: the period a fix belongs to, the exceptions that keep a period from
// closing). Written once so that the two never disagree: an exception that keeps a day open is
// the exception the desk shows as that day's, and a fix is refused only for a closed period the
// desk would also place it in.
//   - a payment's own exception (not settled, amount, fee or currency mismatch): the capture —
//     the matcher reconciles a payment in the period of its capture, and a line settles days
//     later, often in the next period;
//   - a refund's (a ":refund" key: not settled, short, in another currency, unknown to
//     OncePay): OncePay's latest refund debit (a partial refund leaves payments.refunded_at
//     empty), else the payment's refunded_at, else — a refund the channel made behind OncePay's
//     back — its refund line;
//   - a refund owed for a stale capture: the obligation's creation;
//   - money that moved on its own, perhaps weeks later (a chargeback, an adjustment, a
//     settlement after a write-off, the channel settling a payment twice, a line with no
//     payment): its line — the capture's period may have closed long
//     before, and the exception must still be decided;
//   - anything else: the capture, the line, or when a run found it.
// Thread contract: a pure function of its arguments.

#include <QString>

namespace OncePay {

// The SQL expression (every dialect) over the aliases `d` (discrepancies), `l` (its
// settlement_lines row, LEFT JOINed on d.settlement_line_id) and `payments` (the payments row,
// LEFT JOINed on channel and channel_txn_id); never NULL.
QString discrepancyMovedAtSql(const QString &payments);

} // namespace OncePay
