-- The console's search finds an order by a rollback's or a cancel's request id, which lives
-- only on the transition it caused (order_transitions.cause_id, cause_kind 'request'; the
-- order page shows it as that transition's cause). Without this index each such search read
-- every transition ever written.
CREATE INDEX IF NOT EXISTS order_transitions_cause ON order_transitions (cause_id, cause_kind)
