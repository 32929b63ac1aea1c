-- A refund OncePay booked whose refund line the channel's statement leaves out is a
-- discrepancy kind of its own, refund_not_settled, no longer a not_settled with a ":refund"
-- key: finance must tell a capture the channel has not settled from a refund the channel has
-- not reported, in the desk, its kind filter, the CLI report and the order page, and each is
-- read by kind. MariaDB keeps a column's CHECK with the column: MODIFY replaces it in place
-- (ids, indexes and grants stay).
-- Rows already recorded: a not_settled whose key ends in ":refund" becomes refund_not_settled,
-- its key "refund_" + the old key (the key the matcher now makes), so the next run finds it
-- again instead of opening it twice; open, resolved or written off, each keeps its status.
-- MariaDB commits each DDL statement on its own: both steps can run again after a failure.
ALTER TABLE discrepancies MODIFY kind VARCHAR(191) NOT NULL CHECK (kind IN ('not_settled',
    'refund_not_settled','unknown_settlement','amount_mismatch','fee_mismatch',
    'currency_mismatch','duplicate_settlement','refund_due'))
-- @@
UPDATE discrepancies SET kind = 'refund_not_settled',
    discrepancy_key = CONCAT('refund_', discrepancy_key)
WHERE kind = 'not_settled' AND discrepancy_key LIKE '%:refund'
