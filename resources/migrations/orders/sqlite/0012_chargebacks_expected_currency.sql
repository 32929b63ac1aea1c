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
-- The kind's CHECK changes, which SQLite can only do by building the table again, as 0009 did:
-- same columns and ids, the AUTOINCREMENT counter carried over, the three indexes made again.
CREATE TABLE discrepancies_0012 (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    discrepancy_key TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL CHECK (kind IN ('not_settled','refund_not_settled',
                        'unknown_settlement','amount_mismatch','fee_mismatch','currency_mismatch',
                        'duplicate_settlement','refund_due','chargeback','settlement_adjustment',
                        'settled_after_write_off')),
    channel         TEXT NOT NULL,
    channel_txn_id  TEXT,
    order_id        TEXT,
    settlement_line_id INTEGER,
    expected_minor  INTEGER,
    actual_minor    INTEGER,
    currency        TEXT,
    status          TEXT NOT NULL CHECK (status IN ('open','auto_fixed','resolved','written_off')),
    rule_id         TEXT,
    rule_version    INTEGER,
    fee_schedule_id INTEGER,
    evidence_sha256 TEXT,
    detail          TEXT,
    first_run_id    INTEGER NOT NULL,
    last_run_id     INTEGER NOT NULL,
    opened_at       INTEGER NOT NULL,
    closed_at       INTEGER,
    expected_currency TEXT
)
-- @@
INSERT INTO discrepancies_0012 (id, discrepancy_key, kind, channel, channel_txn_id, order_id,
    settlement_line_id, expected_minor, actual_minor, currency, status, rule_id, rule_version,
    fee_schedule_id, evidence_sha256, detail, first_run_id, last_run_id, opened_at, closed_at,
    expected_currency)
SELECT d.id, d.discrepancy_key, d.kind, d.channel, d.channel_txn_id, d.order_id,
       d.settlement_line_id, d.expected_minor, d.actual_minor, d.currency, d.status, d.rule_id,
       d.rule_version, d.fee_schedule_id, d.evidence_sha256, d.detail, d.first_run_id,
       d.last_run_id, d.opened_at, d.closed_at,
       CASE WHEN d.expected_minor IS NULL THEN NULL
            WHEN d.kind = 'currency_mismatch'
            THEN COALESCE((SELECT o.currency FROM orders o WHERE o.order_id = d.order_id),
                          d.currency)
            ELSE d.currency END
FROM discrepancies d ORDER BY d.id
-- @@
INSERT INTO sqlite_sequence (name, seq)
SELECT 'discrepancies_0012', seq FROM sqlite_sequence WHERE name = 'discrepancies'
  AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'discrepancies_0012')
-- @@
UPDATE sqlite_sequence
SET seq = MAX(seq, COALESCE((SELECT s.seq FROM sqlite_sequence s WHERE s.name = 'discrepancies'), 0))
WHERE name = 'discrepancies_0012'
-- @@
DROP TABLE discrepancies
-- @@
ALTER TABLE discrepancies_0012 RENAME TO discrepancies
-- @@
CREATE INDEX discrepancies_status ON discrepancies (status, kind, opened_at)
-- @@
CREATE INDEX discrepancies_order ON discrepancies (order_id)
-- @@
CREATE INDEX discrepancies_txn ON discrepancies (channel_txn_id)
