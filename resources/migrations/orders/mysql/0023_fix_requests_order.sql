-- An order's fixes are found by an index, and only its own (sqlite/0023 says why): the order a
-- fix's change names is a virtual column MariaDB derives from the change, with an index. Both
-- statements may run again (MariaDB's DDL is not undone when a later statement of the
-- migration fails).
ALTER TABLE fix_requests ADD COLUMN IF NOT EXISTS order_id VARCHAR(191)
    AS (JSON_VALUE(change_json, '$.order_id')) VIRTUAL
-- @@
CREATE INDEX IF NOT EXISTS fix_requests_order ON fix_requests (order_id)
