-- What a finished callback's outcome was, as a code kept beside the worker's words
-- (result_reason): "applied" for every completed message; for a skipped one "already_applied"
-- and "failure_after_success" (duplicates: the effect is there), "stale" (an attempt the order
-- moved past), "not_actionable", "informational", "superseded_refund", "nothing_to_book", or
-- "resolved_by_fix" (a person's fix). Written by the worker (services/worker/messagestore.cpp)
-- and the resolve fix; the dashboard and the simulator's summary count by it instead of by the
-- start of the words.
-- MariaDB commits DDL on its own: IF NOT EXISTS lets the step run again after a failure.
ALTER TABLE callback_messages ADD COLUMN IF NOT EXISTS result_code VARCHAR(32) NULL
-- @@
-- Messages finished before this migration: the code their words begin with (the statement only
-- fills what is empty, so running it again changes nothing).
UPDATE callback_messages SET result_code = CASE
    WHEN status = 'completed' THEN 'applied'
    WHEN result_reason LIKE 'already applied:%' THEN 'already_applied'
    WHEN result_reason LIKE 'failure after success ignored:%' THEN 'failure_after_success'
    WHEN result_reason LIKE 'stale:%' THEN 'stale'
    WHEN result_reason LIKE 'not an event OncePay acts on%' THEN 'not_actionable'
    WHEN result_reason LIKE 'informational:%' THEN 'informational'
    WHEN result_reason LIKE 'refund of %, not the order''s current payment;%' THEN 'superseded_refund'
    WHEN result_reason LIKE 'refund of % of payment %: nothing to book%' THEN 'nothing_to_book'
    WHEN result_reason LIKE 'resolved by%' THEN 'resolved_by_fix'
    ELSE 'other' END
WHERE status IN ('completed', 'skipped') AND result_code IS NULL
