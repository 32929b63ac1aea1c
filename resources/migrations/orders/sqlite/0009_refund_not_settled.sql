-- A refund OncePay booked whose refund line the channel's statement leaves out is a
-- discrepancy kind of its own, refund_not_settled, no longer a not_settled with a ":refund"
-- key: finance must tell a capture the channel has not settled from a refund the channel has
-- not reported, in the desk, its kind filter, the CLI report and the order page, and each is
-- read by kind. The kind's CHECK changes, which SQLite can only do by building the table
-- again: same columns, same ids (fix_requests.open_target and audit rows name discrepancies by
-- id), the AUTOINCREMENT counter carried over, the three indexes made again. Nothing refers
-- to discrepancies by REFERENCES and no trigger or view reads it.
-- Rows already recorded: a not_settled whose key ends in ":refund" becomes refund_not_settled,
-- its key "refund_" + the old key (the key the matcher now makes), so the next run finds it
-- again instead of opening it twice; open, resolved or written off, each keeps its status.
CREATE TABLE discrepancies_0009 (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    discrepancy_key TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL CHECK (kind IN ('not_settled','refund_not_settled',
                        'unknown_settlement','amount_mismatch','fee_mismatch','currency_mismatch',
                        'duplicate_settlement','refund_due')),
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
    closed_at       INTEGER
)
-- @@
INSERT INTO discrepancies_0009 (id, discrepancy_key, kind, channel, channel_txn_id, order_id,
    settlement_line_id, expected_minor, actual_minor, currency, status, rule_id, rule_version,
    fee_schedule_id, evidence_sha256, detail, first_run_id, last_run_id, opened_at, closed_at)
SELECT id,
       CASE WHEN kind = 'not_settled' AND discrepancy_key LIKE '%:refund'
            THEN 'refund_' || discrepancy_key ELSE discrepancy_key END,
       CASE WHEN kind = 'not_settled' AND discrepancy_key LIKE '%:refund'
            THEN 'refund_not_settled' ELSE kind END,
       channel, channel_txn_id, order_id, settlement_line_id, expected_minor, actual_minor,
       currency, status, rule_id, rule_version, fee_schedule_id, evidence_sha256, detail,
       first_run_id, last_run_id, opened_at, closed_at
FROM discrepancies ORDER BY id
-- @@
INSERT INTO sqlite_sequence (name, seq)
SELECT 'discrepancies_0009', seq FROM sqlite_sequence WHERE name = 'discrepancies'
  AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'discrepancies_0009')
-- @@
UPDATE sqlite_sequence
SET seq = MAX(seq, COALESCE((SELECT s.seq FROM sqlite_sequence s WHERE s.name = 'discrepancies'), 0))
WHERE name = 'discrepancies_0009'
-- @@
DROP TABLE discrepancies
-- @@
ALTER TABLE discrepancies_0009 RENAME TO discrepancies
-- @@
CREATE INDEX discrepancies_status ON discrepancies (status, kind, opened_at)
-- @@
CREATE INDEX discrepancies_order ON discrepancies (order_id)
-- @@
CREATE INDEX discrepancies_txn ON discrepancies (channel_txn_id)
