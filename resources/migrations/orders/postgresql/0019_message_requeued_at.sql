-- When a fix last requeued a callback message (epoch ms; NULL: never). A requeued message
-- that fails its first retry waits for the next one as a failed message, and the stuck list
-- (services/investigation/stuckquery.cpp) dates a failed message from this moment, or from
-- its reception when it was never requeued: without it a message requeued today that failed
-- again was listed as waiting since it first arrived, days or weeks before. Written by the
-- requeue (services/fixes/fixtargets.cpp) in the fix's transaction.
ALTER TABLE callback_messages ADD COLUMN IF NOT EXISTS requeued_at BIGINT
-- @@
-- Messages requeued before this migration: the latest applied requeue fix of each (the
-- statement only sets what it reads, so running it again changes nothing).
UPDATE callback_messages SET requeued_at = (SELECT MAX(f.applied_at) FROM fix_requests f
    WHERE f.kind = 'requeue_message' AND f.target_kind = 'message' AND f.status = 'applied'
      AND f.target_id = callback_messages.callback_id)
WHERE callback_id IN (SELECT target_id FROM fix_requests WHERE kind = 'requeue_message'
    AND target_kind = 'message' AND status = 'applied')
