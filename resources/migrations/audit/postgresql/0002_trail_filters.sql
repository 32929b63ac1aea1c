-- The audit trail's filters read through indexes, in the trail's order (sqlite/0002 says why):
-- by actor, by entity and by exact action, each index ending with seq.
CREATE INDEX IF NOT EXISTS audit_log_actor ON audit_log (actor, seq)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_entity ON audit_log (entity_kind, entity_id, seq)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_action_seq ON audit_log (action, seq)
