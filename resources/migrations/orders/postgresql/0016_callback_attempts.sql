-- Every attempt of the worker at a callback message that did not complete: failed (a retry is
-- scheduled), dead_lettered (the attempts are used up, or the message waits for a person) or
-- lease_expired (its worker died holding the lease; recorded by the worker that takes the
-- message over). The message row keeps only its latest state, so without these rows a message
-- that needed six attempts showed only its final outcome. Written by the worker in the same
-- transaction as the failure, the dead letter or the takeover, so a message's rows are exactly
-- its attempts that did not complete; never changed or deleted.
CREATE TABLE IF NOT EXISTS callback_attempts (
    id              BIGSERIAL PRIMARY KEY,
    message_id      BIGINT NOT NULL REFERENCES callback_messages (id),
    attempt         BIGINT NOT NULL,
    worker_id       TEXT NOT NULL,
    outcome         TEXT NOT NULL CHECK (outcome IN ('failed','dead_lettered','lease_expired')),
    error           TEXT NOT NULL,
    started_at      BIGINT NOT NULL,
    ended_at        BIGINT NOT NULL
)
-- @@
CREATE INDEX IF NOT EXISTS callback_attempts_message ON callback_attempts (message_id, id)
-- @@
CREATE OR REPLACE FUNCTION oncepay_callback_attempts_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$
-- @@
DROP TRIGGER IF EXISTS callback_attempts_append_only ON callback_attempts
-- @@
CREATE TRIGGER callback_attempts_append_only BEFORE UPDATE OR DELETE ON callback_attempts
    FOR EACH ROW EXECUTE FUNCTION oncepay_callback_attempts_refuse_change()
-- @@
DROP TRIGGER IF EXISTS callback_attempts_no_truncate ON callback_attempts
-- @@
CREATE TRIGGER callback_attempts_no_truncate BEFORE TRUNCATE ON callback_attempts
    FOR EACH STATEMENT EXECUTE FUNCTION oncepay_callback_attempts_refuse_change()
