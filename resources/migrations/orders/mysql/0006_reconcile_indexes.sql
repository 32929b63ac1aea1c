-- Reconciliation's indexes: one that its period filter needs, one that nothing reads.
-- payments_captured: a run reads the payments captured in its period. 0005 dropped
-- payments_unsettled (settlement_status, captured_at) with its column, so a daily run scanned
-- every payment ever captured. Payments are appended in capture order, so the new
-- entries go to the index's end.
-- settlement_lines_txn: no query reads settlement lines by channel transaction (a run reads them
-- by period; discrepancies and matches name their line by id). Each statement's import paid for
-- it with a B-tree insert per line: without it, importing 1,000,000 lines on SQLite inserted
-- 17-33 % faster (tests/bench/README.md).
-- MariaDB commits each DDL statement on its own: both steps can run again after a failure.
CREATE INDEX IF NOT EXISTS payments_captured ON payments (captured_at)
-- @@
DROP INDEX IF EXISTS settlement_lines_txn ON settlement_lines
