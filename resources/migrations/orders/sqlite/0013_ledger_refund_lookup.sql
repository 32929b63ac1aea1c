-- A payment's refunds are read from the ledger by its channel transaction: the worker sums them
-- before booking a refund (PaymentEffects::refundedTotal, once per refund callback),
-- reconciliation sums them per payment, and the desk and the fix rules date a refund's
-- exception by the latest. Without this index each of those read the whole ledger.
CREATE INDEX IF NOT EXISTS ledger_txn ON ledger_entries (channel, channel_txn_id, kind)
