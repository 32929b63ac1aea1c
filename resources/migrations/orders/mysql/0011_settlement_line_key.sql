-- A settlement line keeps the channel's own id of it (line_key), unique per channel, so the
-- same line in another export of a statement — re-saved with other line endings, downloaded
-- again after a refund — is imported once: Stripe's balance_transaction_id, PayPal's
-- Transaction ID and event code ("id:T0006"), KakaoPay's TID, kind and 거래일시 in epoch ms
-- ("tid:charge:ms"), FedaPay's id and kind ("id:refund"); "#2", "#3", ... for a key its own
-- statement lists again (a settlement paid twice, kept for the matcher).
-- Lines stored before: the key is derived from what the line kept — Stripe's from the raw
-- record's first field (txn_...), PayPal's from the raw SB record's Transaction ID and event
-- code fields (the record type quoted or not), KakaoPay's from transacted_at (migration 0010),
-- FedaPay's from its id and kind.
-- Where it cannot be derived (a layout in another column order, a KakaoPay line imported
-- before 0010), or where a line repeats one imported from another file before (a statement
-- MariaDB commits each DDL statement on its own: every step can run again after a failure
-- (the keys are derived afresh from the same rows).
ALTER TABLE settlement_lines ADD COLUMN IF NOT EXISTS line_key VARCHAR(191) NULL
-- @@
DROP TABLE IF EXISTS settlement_line_keys_0011
-- @@
CREATE TABLE settlement_line_keys_0011 (
    id              BIGINT PRIMARY KEY,
    line_key        VARCHAR(191) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
INSERT INTO settlement_line_keys_0011 (id, line_key)
SELECT id, CASE WHEN line_key IS NULL OR seen > 1
                THEN CONCAT('line:', statement_id, ':', line_no) ELSE line_key END
FROM (
    SELECT id, statement_id, line_no, line_key,
           ROW_NUMBER() OVER (PARTITION BY channel, line_key
                              ORDER BY statement_id, line_no) AS seen
    FROM (
        SELECT id, channel, statement_id, line_no,
               CONCAT(base, CASE WHEN ROW_NUMBER() OVER w > 1
                                 THEN CONCAT('#', ROW_NUMBER() OVER w) ELSE '' END) AS line_key
        FROM (
            SELECT id, channel, statement_id, line_no,
                CASE
                    WHEN channel = 'fedapay' THEN CONCAT(channel_txn_id, ':', kind)
                    WHEN channel = 'kakaopay' AND transacted_at IS NOT NULL
                        THEN CONCAT(channel_txn_id, ':', kind, ':', transacted_at)
                    WHEN channel = 'stripe' AND LEFT(raw, 4) = 'txn_' AND LOCATE(',', raw) > 5
                        THEN SUBSTRING_INDEX(raw, ',', 1)
                    WHEN channel = 'paypal' AND LEFT(sb, 6) = '"SB","'
                            AND SUBSTRING_INDEX(SUBSTRING_INDEX(sb, '","', 2), '","', -1) <> ''
                            AND SUBSTRING_INDEX(SUBSTRING_INDEX(sb, '","', 6), '","', -1)
                                REGEXP '^T[0-9]{4}$'
                        THEN CONCAT(SUBSTRING_INDEX(SUBSTRING_INDEX(sb, '","', 2), '","', -1),
                                    ':',
                                    SUBSTRING_INDEX(SUBSTRING_INDEX(sb, '","', 6), '","', -1))
                END AS base
            FROM (SELECT id, channel, statement_id, line_no, channel_txn_id, kind, raw,
                         transacted_at,
                         CASE WHEN LEFT(raw, 4) = 'SB,"' THEN CONCAT('"SB","', SUBSTRING(raw, 5))
                              ELSE raw END AS sb
                  FROM settlement_lines) AS l) AS b
        WINDOW w AS (PARTITION BY channel, statement_id, base ORDER BY line_no)) AS n) AS d
-- @@
UPDATE settlement_lines l JOIN settlement_line_keys_0011 k ON k.id = l.id
SET l.line_key = k.line_key
-- @@
DROP TABLE settlement_line_keys_0011
-- @@
ALTER TABLE settlement_lines MODIFY line_key VARCHAR(191) NOT NULL
-- @@
CREATE UNIQUE INDEX IF NOT EXISTS settlement_lines_key ON settlement_lines (channel, line_key)
