-- A refund OncePay booked whose refund line the channel's statement leaves out is a
-- discrepancy kind of its own, refund_not_settled, no longer a not_settled with a ":refund"
-- key: finance must tell a capture the channel has not settled from a refund the channel has
-- not reported, in the desk, its kind filter, the CLI report and the order page, and each is
-- read by kind. The kind's CHECK (named by PostgreSQL discrepancies_kind_check) is replaced
-- in place: ids, indexes and grants stay.
-- Rows already recorded: a not_settled whose key ends in ":refund" becomes refund_not_settled,
-- its key "refund_" + the old key (the key the matcher now makes), so the next run finds it
-- again instead of opening it twice; open, resolved or written off, each keeps its status.
ALTER TABLE discrepancies DROP CONSTRAINT IF EXISTS discrepancies_kind_check
-- @@
ALTER TABLE discrepancies ADD CONSTRAINT discrepancies_kind_check CHECK (kind IN ('not_settled',
    'refund_not_settled','unknown_settlement','amount_mismatch','fee_mismatch',
    'currency_mismatch','duplicate_settlement','refund_due'))
-- @@
UPDATE discrepancies SET kind = 'refund_not_settled', discrepancy_key = 'refund_' || discrepancy_key
WHERE kind = 'not_settled' AND discrepancy_key LIKE '%:refund'
