-- Every attempt of the worker at a callback message that did not complete: failed (a retry is
-- scheduled), dead_lettered (the attempts are used up, or the message waits for a person) or
-- lease_expired (its worker died holding the lease; recorded by the worker that takes the
-- message over). The message row keeps only its latest state, so without these rows a message
-- that needed six attempts showed only its final outcome. Written by the worker in the same
-- transaction as the failure, the dead letter or the takeover, so a message's rows are exactly
-- its attempts that did not complete; never changed or deleted.
CREATE TABLE callback_attempts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER NOT NULL REFERENCES callback_messages (id),
    attempt         INTEGER NOT NULL,
    worker_id       TEXT NOT NULL,
    outcome         TEXT NOT NULL CHECK (outcome IN ('failed','dead_lettered','lease_expired')),
    error           TEXT NOT NULL,
    started_at      INTEGER NOT NULL,
    ended_at        INTEGER NOT NULL
)
-- @@
CREATE INDEX callback_attempts_message ON callback_attempts (message_id, id)
-- @@
CREATE TRIGGER callback_attempts_no_update BEFORE UPDATE ON callback_attempts
BEGIN
    SELECT RAISE(ABORT, 'callback_attempts is append-only: UPDATE refused');
END
-- @@
CREATE TRIGGER callback_attempts_no_delete BEFORE DELETE ON callback_attempts
BEGIN
    SELECT RAISE(ABORT, 'callback_attempts is append-only: DELETE refused');
END
