-- An order's fixes are found by an index, and only its own. The order page, its dossier and
-- `oncepay fix list --order` ask for the fixes that name an order: an order fix targets it, a
-- message or discrepancy fix names it in its change ({"order_id": ...}). They were found with
-- change_json LIKE '%"order_id":"<id>"%', which read every fix ever proposed on each order page,
-- and in which '_' and '%' of an order id are wildcards: the fixes of order "ord-1x2" were shown
-- on, and exported in the dossier of, order "ord-1_2". The order a change names is now a column
-- derived from the change by the database itself (never written by anyone, so never out of step
-- with the frozen change), with an index.
ALTER TABLE fix_requests ADD COLUMN order_id TEXT
    GENERATED ALWAYS AS (json_extract(change_json, '$.order_id')) VIRTUAL
-- @@
CREATE INDEX IF NOT EXISTS fix_requests_order ON fix_requests (order_id)
