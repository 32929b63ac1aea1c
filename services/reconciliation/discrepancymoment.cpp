#include "discrepancymoment.h"

namespace OncePay {

QString discrepancyMovedAtSql(const QString &payments)
{
    return QStringLiteral(
               "COALESCE(CASE"
               " WHEN d.kind = 'refund_due' THEN (SELECT MIN(ro.created_at) FROM"
               "  refund_obligations ro WHERE ro.channel = d.channel"
               "  AND ro.channel_txn_id = d.channel_txn_id)"
               " WHEN d.kind = 'refund_not_settled' OR d.discrepancy_key LIKE '%:refund'"
               "  THEN COALESCE((SELECT MAX(le.created_at) FROM ledger_entries le"
               "   WHERE le.channel = d.channel AND le.channel_txn_id = d.channel_txn_id"
               "   AND le.kind = 'refund_debit'), %1.refunded_at, l.settled_at)"
               " WHEN d.kind IN ('not_settled', 'amount_mismatch', 'fee_mismatch',"
               "  'currency_mismatch') THEN %1.captured_at"
               " WHEN d.kind IN ('duplicate_settlement', 'unknown_settlement', 'chargeback',"
               "  'settlement_adjustment', 'settled_after_write_off') THEN l.settled_at"
               " END, %1.captured_at, l.settled_at, d.opened_at)")
        .arg(payments);
}

} // namespace OncePay
