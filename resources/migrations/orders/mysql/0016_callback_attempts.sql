-- Every attempt of the worker at a callback message that did not complete: failed (a retry is
-- scheduled), dead_lettered (the attempts are used up, or the message waits for a person) or
-- lease_expired (its worker died holding the lease; recorded by the worker that takes the
-- message over). The message row keeps only its latest state, so without these rows a message
-- that needed six attempts showed only its final outcome. Written by the worker in the same
-- transaction as the failure, the dead letter or the takeover, so a message's rows are exactly
-- its attempts that did not complete; never changed or deleted.
-- MySQL commits DDL implicitly, so every statement is re-runnable.
CREATE TABLE IF NOT EXISTS callback_attempts (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    message_id      BIGINT NOT NULL REFERENCES callback_messages (id),
    attempt         BIGINT NOT NULL,
    worker_id       VARCHAR(191) NOT NULL,
    outcome         VARCHAR(191) NOT NULL CHECK (outcome IN ('failed','dead_lettered','lease_expired')),
    error           TEXT NOT NULL,
    started_at      BIGINT NOT NULL,
    ended_at        BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS callback_attempts_message ON callback_attempts (message_id, id)
-- @@
CREATE TRIGGER IF NOT EXISTS callback_attempts_no_update BEFORE UPDATE ON callback_attempts
    FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'callback_attempts is append-only: UPDATE refused'
-- @@
CREATE TRIGGER IF NOT EXISTS callback_attempts_no_delete BEFORE DELETE ON callback_attempts
    FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'callback_attempts is append-only: DELETE refused'
