-- The order page reads an order's reconciliation exceptions by its id and by its channel
-- transactions (OrderPictureQuery::loadExceptions): without these, every order opened scanned
-- the whole discrepancies table. Reconciliation itself reads discrepancies by key and status.
-- refund_obligations_txn: the desk ages a refund_due exception from its oldest obligation on
-- the transaction (ReconciliationDesk::discrepancies), once per row shown.
-- MariaDB commits each DDL statement on its own: both steps can run again after a failure.
CREATE INDEX IF NOT EXISTS discrepancies_order ON discrepancies (order_id)
-- @@
CREATE INDEX IF NOT EXISTS discrepancies_txn ON discrepancies (channel_txn_id)
-- @@
CREATE INDEX IF NOT EXISTS refund_obligations_txn ON refund_obligations (channel, channel_txn_id, created_at)
