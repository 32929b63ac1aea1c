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
ALTER TABLE settlement_lines ADD COLUMN IF NOT EXISTS line_key TEXT
-- @@
UPDATE settlement_lines SET line_key = k.line_key
FROM (
    SELECT id, CASE WHEN line_key IS NULL OR seen > 1
                    THEN 'line:' || statement_id || ':' || line_no ELSE line_key END AS line_key
    FROM (
        SELECT id, statement_id, line_no, line_key,
               ROW_NUMBER() OVER (PARTITION BY channel, line_key
                                  ORDER BY statement_id, line_no) AS seen
        FROM (
            SELECT id, channel, statement_id, line_no,
                   base || CASE WHEN ROW_NUMBER() OVER w > 1
                                THEN '#' || ROW_NUMBER() OVER w ELSE '' END AS line_key
            FROM (
                SELECT id, channel, statement_id, line_no,
                    CASE
                        WHEN channel = 'fedapay' THEN channel_txn_id || ':' || kind
                        WHEN channel = 'kakaopay' AND transacted_at IS NOT NULL
                            THEN channel_txn_id || ':' || kind || ':' || transacted_at
                        WHEN channel = 'stripe' AND substr(raw, 1, 4) = 'txn_'
                                AND strpos(raw, ',') > 5
                            THEN substr(raw, 1, strpos(raw, ',') - 1)
                        WHEN channel = 'paypal' AND substr(sb, 1, 6) = '"SB","'
                                AND split_part(sb, '","', 2) <> ''
                                AND split_part(sb, '","', 6) ~ '^T[0-9]{4}$'
                            THEN split_part(sb, '","', 2) || ':' || split_part(sb, '","', 6)
                    END AS base
                FROM (SELECT *, CASE WHEN substr(raw, 1, 4) = 'SB,"'
                                     THEN '"SB","' || substr(raw, 5) ELSE raw END AS sb
                      FROM settlement_lines) AS l) AS b
            WINDOW w AS (PARTITION BY channel, statement_id, base ORDER BY line_no)) AS n) AS d
) AS k
WHERE settlement_lines.id = k.id
-- @@
ALTER TABLE settlement_lines ALTER COLUMN line_key SET NOT NULL
-- @@
CREATE UNIQUE INDEX IF NOT EXISTS settlement_lines_key ON settlement_lines (channel, line_key)
