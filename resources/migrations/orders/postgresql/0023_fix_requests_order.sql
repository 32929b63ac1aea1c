-- An order's fixes are found by an index, and only its own (sqlite/0023 says why): the order a
-- fix's change names is a column the database derives from the change, with an index. Stored,
-- as PostgreSQL's generated columns are; the table is rewritten once (fix requests are few).
ALTER TABLE fix_requests ADD COLUMN IF NOT EXISTS order_id TEXT
    GENERATED ALWAYS AS (change_json::json ->> 'order_id') STORED
-- @@
CREATE INDEX IF NOT EXISTS fix_requests_order ON fix_requests (order_id)
