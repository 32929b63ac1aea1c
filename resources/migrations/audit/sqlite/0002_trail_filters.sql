-- The audit trail's filters read through indexes, in the trail's order. A page is
-- `... WHERE seq > ? AND <filter> ORDER BY seq LIMIT ?` (services/audit/audittrailquery.cpp):
-- by actor ("what did this person do") and by entity there was no index at all, so a page read
-- the whole chain from its start, and an exact action went through (action, occurred_at) and
-- sorted every row of that action by seq for each page. Each index ends with seq, so a page is
-- a range of one index, read in order and stopped at its limit.
CREATE INDEX IF NOT EXISTS audit_log_actor ON audit_log (actor, seq)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_entity ON audit_log (entity_kind, entity_id, seq)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_action_seq ON audit_log (action, seq)
