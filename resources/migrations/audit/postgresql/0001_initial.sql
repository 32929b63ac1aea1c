-- OncePay audit database (PostgreSQL): append-only, hash-chained (DESIGN.md §5).
-- seq is assigned by the shipper, gap-free; hash = SHA-256(canonical row || prev_hash).

CREATE TABLE audit_log (
    seq             BIGINT PRIMARY KEY,
    event_id        TEXT NOT NULL UNIQUE,
    occurred_at     BIGINT NOT NULL,
    recorded_at     BIGINT NOT NULL,
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
    id              BIGSERIAL PRIMARY KEY,
    seq             BIGINT NOT NULL,
    head_hash       TEXT NOT NULL,
    key_id          TEXT NOT NULL,
    signature       TEXT NOT NULL,
    sealed_by       TEXT NOT NULL,
    sealed_at       BIGINT NOT NULL
)
-- @@
CREATE FUNCTION oncepay_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$
-- @@
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION oncepay_refuse_change()
-- @@
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION oncepay_refuse_change()
-- @@
CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON audit_checkpoints
    FOR EACH ROW EXECUTE FUNCTION oncepay_refuse_change()
-- @@
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION oncepay_refuse_change()
