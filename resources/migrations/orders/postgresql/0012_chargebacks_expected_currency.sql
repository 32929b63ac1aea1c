-- Three discrepancy kinds and the currency of a discrepancy's expected amount.
-- chargeback: a chargeback line (a dispute: the channel took money back, or returned it when the
-- dispute was won) on a payment, one per line. settlement_adjustment: a line of a kind
-- reconciliation does not match (holds, releases, fee lines, a kind it does not know), one per
-- line: no line is dropped unseen any more. settled_after_write_off: a not_settled or
-- refund_not_settled discrepancy written off whose line has arrived since; it carries what was
-- written off so that finance reverses it.
-- expected_currency: the currency of expected_minor; currency stays that of actual_minor. They
-- differ only for a currency_mismatch (expected in the order's currency, actual in the line's)
-- and a chargeback in another currency than its payment's: no difference is computed between
-- them. Rows recorded before: a currency_mismatch takes its order's currency (its expected
-- amount was the order's, stored under the line's currency), every other row with amounts its
-- own currency.
-- The kind's CHECK (discrepancies_kind_check) is replaced in place: ids, indexes and grants stay.
ALTER TABLE discrepancies DROP CONSTRAINT IF EXISTS discrepancies_kind_check
-- @@
ALTER TABLE discrepancies ADD CONSTRAINT discrepancies_kind_check CHECK (kind IN ('not_settled',
    'refund_not_settled','unknown_settlement','amount_mismatch','fee_mismatch',
    'currency_mismatch','duplicate_settlement','refund_due','chargeback',
    'settlement_adjustment','settled_after_write_off'))
-- @@
ALTER TABLE discrepancies ADD COLUMN IF NOT EXISTS expected_currency TEXT
-- @@
UPDATE discrepancies d SET expected_currency = COALESCE((SELECT o.currency FROM orders o
    WHERE o.order_id = d.order_id), d.currency)
WHERE d.kind = 'currency_mismatch' AND d.expected_minor IS NOT NULL
    AND d.expected_currency IS NULL
-- @@
UPDATE discrepancies SET expected_currency = currency
WHERE expected_minor IS NOT NULL AND expected_currency IS NULL
