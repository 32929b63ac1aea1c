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
-- imported twice), the line gets "line:<statement id>:<line_no>", so the unique key holds.
ALTER TABLE settlement_lines ADD COLUMN line_key TEXT
-- @@
DROP TABLE IF EXISTS settlement_line_keys_0011
-- @@
CREATE TABLE settlement_line_keys_0011 (
    id              INTEGER PRIMARY KEY,
    channel         TEXT NOT NULL,
    statement_id    INTEGER NOT NULL,
    line_no         INTEGER NOT NULL,
    base            TEXT,
    line_key        TEXT
)
-- @@
INSERT INTO settlement_line_keys_0011 (id, channel, statement_id, line_no, base)
SELECT id, channel, statement_id, line_no,
    CASE
        WHEN channel = 'fedapay' THEN channel_txn_id || ':' || kind
        WHEN channel = 'kakaopay' AND transacted_at IS NOT NULL
            THEN channel_txn_id || ':' || kind || ':' || transacted_at
        WHEN channel = 'stripe' AND substr(raw, 1, 4) = 'txn_' AND instr(raw, ',') > 5
            THEN substr(raw, 1, instr(raw, ',') - 1)
    END
FROM settlement_lines
-- @@
WITH f3 AS (
    SELECT id, substr(r, 1, instr(r, '"') - 1) AS txn, substr(r, instr(r, '","') + 3) AS r
    FROM (SELECT id, CASE WHEN substr(raw, 1, 6) = '"SB","' THEN substr(raw, 7)
                          ELSE substr(raw, 5) END AS r
          FROM settlement_lines WHERE channel = 'paypal'
              AND (substr(raw, 1, 6) = '"SB","' OR substr(raw, 1, 4) = 'SB,"')) AS s
    WHERE instr(r, '","') > 1),
f4 AS (SELECT id, txn, substr(r, instr(r, '","') + 3) AS r FROM f3 WHERE instr(r, '","') > 0),
f5 AS (SELECT id, txn, substr(r, instr(r, '","') + 3) AS r FROM f4 WHERE instr(r, '","') > 0),
f6 AS (SELECT id, txn, substr(r, instr(r, '","') + 3) AS r FROM f5 WHERE instr(r, '","') > 0)
UPDATE settlement_line_keys_0011 SET base = (
    SELECT txn || ':' || substr(r, 1, 5) FROM f6 WHERE f6.id = settlement_line_keys_0011.id
        AND substr(r, 1, 1) = 'T' AND substr(r, 6, 1) = '"')
WHERE channel = 'paypal'
-- @@
UPDATE settlement_line_keys_0011 SET line_key = n.line_key
FROM (SELECT id, base || CASE WHEN ROW_NUMBER() OVER w > 1
                              THEN '#' || ROW_NUMBER() OVER w ELSE '' END AS line_key
      FROM settlement_line_keys_0011 WHERE base IS NOT NULL
      WINDOW w AS (PARTITION BY channel, statement_id, base ORDER BY line_no)) AS n
WHERE settlement_line_keys_0011.id = n.id
-- @@
UPDATE settlement_line_keys_0011 SET line_key = NULL
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY channel, line_key
                                    ORDER BY statement_id, line_no) AS seen
      FROM settlement_line_keys_0011 WHERE line_key IS NOT NULL) AS d
WHERE settlement_line_keys_0011.id = d.id AND d.seen > 1
-- @@
UPDATE settlement_line_keys_0011 SET line_key = 'line:' || statement_id || ':' || line_no
WHERE line_key IS NULL
-- @@
UPDATE settlement_lines SET line_key = k.line_key
FROM settlement_line_keys_0011 AS k WHERE settlement_lines.id = k.id
-- @@
DROP TABLE settlement_line_keys_0011
-- @@
CREATE UNIQUE INDEX settlement_lines_key ON settlement_lines (channel, line_key)
