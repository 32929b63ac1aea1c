-- OncePay audit database (MySQL/MariaDB): append-only, hash-chained (DESIGN.md §5).
-- seq is assigned by the shipper, gap-free; hash = SHA-256(canonical row || prev_hash).

CREATE TABLE IF NOT EXISTS audit_log (
    seq             BIGINT PRIMARY KEY,
    event_id        VARCHAR(191) NOT NULL UNIQUE,
    occurred_at     BIGINT NOT NULL,
    recorded_at     BIGINT NOT NULL,
    actor           VARCHAR(191) NOT NULL,
    actor_role      VARCHAR(191) NOT NULL,
    action          VARCHAR(191) NOT NULL,
    entity_kind     VARCHAR(191) NOT NULL,
    entity_id       VARCHAR(191) NOT NULL,
    order_id        VARCHAR(191),
    callback_id     VARCHAR(191),
    before_json     TEXT,
    after_json      TEXT,
    reason          TEXT,
    prev_hash       VARCHAR(191) NOT NULL,
    hash            VARCHAR(191) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS audit_log_order ON audit_log (order_id)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_callback ON audit_log (callback_id)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_time ON audit_log (occurred_at)
-- @@
CREATE INDEX IF NOT EXISTS audit_log_action ON audit_log (action, occurred_at)
-- @@
CREATE TABLE IF NOT EXISTS audit_checkpoints (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    seq             BIGINT NOT NULL,
    head_hash       VARCHAR(191) NOT NULL,
    key_id          VARCHAR(191) NOT NULL,
    signature       TEXT NOT NULL,
    sealed_by       VARCHAR(191) NOT NULL,
    sealed_at       BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'audit_log is append-only: UPDATE refused'
-- @@
CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'audit_log is append-only: DELETE refused'
-- @@
CREATE TRIGGER IF NOT EXISTS audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
    FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'audit_checkpoints is append-only: UPDATE refused'
-- @@
CREATE TRIGGER IF NOT EXISTS audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
    FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'audit_checkpoints is append-only: DELETE refused'
