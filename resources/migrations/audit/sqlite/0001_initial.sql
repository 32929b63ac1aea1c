-- OncePay audit database (SQLite): append-only, hash-chained (DESIGN.md §5).
-- seq is assigned by the shipper, gap-free; hash = SHA-256(canonical row || prev_hash).

CREATE TABLE audit_log (
    seq             INTEGER PRIMARY KEY,
    event_id        TEXT NOT NULL UNIQUE,
    occurred_at     INTEGER NOT NULL,
    recorded_at     INTEGER NOT NULL,
    actor           TEXT NOT NULL,
    actor_role      TEXT NOT NULL,
    action          TEXT NOT NULL,
    entity_kind     TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    order_id        TEXT,
    callback_id     TEXT,
    before_json     TEXT,
    after_json      TEXT,
    reason          TEXT,
    prev_hash       TEXT NOT NULL,
    hash            TEXT NOT NULL
)
-- @@
CREATE INDEX audit_log_order ON audit_log (order_id)
-- @@
CREATE INDEX audit_log_callback ON audit_log (callback_id)
-- @@
CREATE INDEX audit_log_time ON audit_log (occurred_at)
-- @@
CREATE INDEX audit_log_action ON audit_log (action, occurred_at)
-- @@
CREATE TABLE audit_checkpoints (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    seq             INTEGER NOT NULL,
    head_hash       TEXT NOT NULL,
    key_id          TEXT NOT NULL,
    signature       TEXT NOT NULL,
    sealed_by       TEXT NOT NULL,
    sealed_at       INTEGER NOT NULL
)
-- @@
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused');
END
-- @@
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: DELETE refused');
END
-- @@
CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
BEGIN
    SELECT RAISE(ABORT, 'audit_checkpoints is append-only: UPDATE refused');
END
-- @@
CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
BEGIN
    SELECT RAISE(ABORT, 'audit_checkpoints is append-only: DELETE refused');
END
