-- OncePay orders database (SQLite). Also holds the message table: claiming a message,
-- moving the order and booking money commit in one local transaction (DESIGN.md §1).
-- Times are UTC epoch milliseconds; money is integer minor units plus ISO-4217 code.
-- Statements are separated by "-- @@" lines (triggers contain semicolons).

CREATE TABLE orders (
    order_id            TEXT PRIMARY KEY,
    customer_ref        TEXT NOT NULL,
    amount_minor        INTEGER NOT NULL CHECK (amount_minor > 0),
    currency            TEXT NOT NULL CHECK (length(currency) = 3),
    state               TEXT NOT NULL CHECK (state IN ('pending_payment','paying','paid_unconfirmed',
                            'paid','payment_failed','cancelled','refunded')),
    version             INTEGER NOT NULL CHECK (version >= 1),
    current_request_id  TEXT,
    channel             TEXT,
    channel_txn_id      TEXT,
    state_reason        TEXT,
    paid_at             INTEGER,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
)
-- @@
CREATE INDEX orders_customer ON orders (customer_ref)
-- @@
CREATE INDEX orders_state_paid ON orders (state, paid_at)
-- @@
CREATE INDEX orders_channel_txn ON orders (channel_txn_id)
-- @@
CREATE TABLE order_transitions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id        TEXT NOT NULL REFERENCES orders (order_id),
    from_state      TEXT NOT NULL,
    to_state        TEXT NOT NULL,
    new_version     INTEGER NOT NULL,
    cause_kind      TEXT NOT NULL CHECK (cause_kind IN ('request','callback','fix','timer','system')),
    cause_id        TEXT,
    actor           TEXT NOT NULL,
    reason          TEXT,
    created_at      INTEGER NOT NULL,
    UNIQUE (order_id, new_version)
)
-- @@
CREATE TABLE transition_rejections (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id            TEXT NOT NULL,
    expected_version    INTEGER,
    actual_version      INTEGER,
    actual_state        TEXT,
    requested_to        TEXT NOT NULL,
    cause_kind          TEXT NOT NULL,
    cause_id            TEXT,
    actor               TEXT NOT NULL,
    reason              TEXT NOT NULL,
    created_at          INTEGER NOT NULL
)
-- @@
CREATE INDEX transition_rejections_order ON transition_rejections (order_id, created_at)
-- @@
CREATE TABLE idempotency_records (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id          TEXT NOT NULL UNIQUE,
    order_id            TEXT NOT NULL,
    expected_version    INTEGER NOT NULL,
    operation           TEXT NOT NULL,
    payload_digest      TEXT NOT NULL,
    status              INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
    outcome             TEXT,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL
)
-- @@
CREATE INDEX idempotency_pending ON idempotency_records (status, created_at)
-- @@
CREATE INDEX idempotency_order ON idempotency_records (order_id)
-- @@
CREATE TABLE payments (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id            TEXT NOT NULL REFERENCES orders (order_id),
    channel             TEXT NOT NULL,
    channel_txn_id      TEXT NOT NULL,
    request_id          TEXT,
    callback_id         TEXT NOT NULL,
    amount_minor        INTEGER NOT NULL CHECK (amount_minor > 0),
    currency            TEXT NOT NULL,
    status              TEXT NOT NULL CHECK (status IN ('captured','refunded')),
    settlement_status   TEXT NOT NULL DEFAULT 'pending' CHECK (settlement_status IN ('pending','settled')),
    captured_at         INTEGER NOT NULL,
    refunded_at         INTEGER,
    UNIQUE (channel, channel_txn_id)
)
-- @@
CREATE INDEX payments_order ON payments (order_id)
-- @@
CREATE INDEX payments_unsettled ON payments (settlement_status, captured_at)
-- @@
CREATE TABLE ledger_entries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_key       TEXT NOT NULL UNIQUE,
    order_id        TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('payment_credit','refund_debit','fee_adjustment',
                        'write_off')),
    amount_minor    INTEGER NOT NULL,
    currency        TEXT NOT NULL CHECK (length(currency) = 3),
    channel         TEXT,
    channel_txn_id  TEXT,
    callback_id     TEXT,
    memo            TEXT,
    created_at      INTEGER NOT NULL
)
-- @@
CREATE INDEX ledger_order ON ledger_entries (order_id)
-- @@
CREATE TABLE purchase_orders (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id        TEXT NOT NULL UNIQUE REFERENCES orders (order_id),
    status          TEXT NOT NULL DEFAULT 'created',
    callback_id     TEXT,
    created_at      INTEGER NOT NULL
)
-- @@
CREATE TABLE logistics_orders (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id        TEXT NOT NULL UNIQUE REFERENCES orders (order_id),
    status          TEXT NOT NULL DEFAULT 'created',
    callback_id     TEXT,
    created_at      INTEGER NOT NULL
)
-- @@
CREATE TABLE callback_messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    callback_id     TEXT NOT NULL UNIQUE,
    channel         TEXT NOT NULL,
    event_kind      TEXT NOT NULL,
    channel_event_type TEXT,
    order_ref       TEXT,
    attempt_ref     TEXT,
    channel_txn_id  TEXT,
    refund_id       TEXT,
    amount_minor    INTEGER,
    currency        TEXT,
    raw_body        TEXT NOT NULL,
    headers         TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending','processing','completed','skipped',
                        'failed','dead')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner     TEXT,
    lease_until     INTEGER,
    last_error      TEXT,
    result_reason   TEXT,
    received_at     INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    finished_at     INTEGER
)
-- @@
CREATE INDEX callback_messages_claim ON callback_messages (status, next_attempt_at)
-- @@
CREATE INDEX callback_messages_lease ON callback_messages (status, lease_until)
-- @@
CREATE INDEX callback_messages_order ON callback_messages (order_ref)
-- @@
CREATE INDEX callback_messages_txn ON callback_messages (channel_txn_id)
-- @@
CREATE INDEX callback_messages_received ON callback_messages (received_at)
-- @@
CREATE TABLE dead_letters (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      INTEGER NOT NULL UNIQUE REFERENCES callback_messages (id),
    callback_id     TEXT NOT NULL,
    reason          TEXT NOT NULL,
    attempts        INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    requeued_at     INTEGER
)
-- @@
CREATE TABLE ingest_rejections (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    channel         TEXT NOT NULL,
    reason_code     TEXT NOT NULL,
    detail          TEXT NOT NULL,
    body_sha256     TEXT,
    body_size       INTEGER NOT NULL,
    remote          TEXT,
    created_at      INTEGER NOT NULL
)
-- @@
CREATE INDEX ingest_rejections_time ON ingest_rejections (created_at)
-- @@
CREATE TABLE refund_obligations (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    callback_id     TEXT NOT NULL UNIQUE,
    order_id        TEXT NOT NULL,
    channel         TEXT NOT NULL,
    channel_txn_id  TEXT,
    amount_minor    INTEGER NOT NULL,
    currency        TEXT NOT NULL,
    reason          TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    resolved_at     INTEGER
)
-- @@
CREATE TABLE settlement_statements (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    channel         TEXT NOT NULL,
    file_sha256     TEXT NOT NULL,
    file_name       TEXT NOT NULL,
    line_count      INTEGER NOT NULL,
    period_from     INTEGER,
    period_to       INTEGER,
    imported_by     TEXT NOT NULL,
    imported_at     INTEGER NOT NULL,
    UNIQUE (channel, file_sha256)
)
-- @@
CREATE TABLE settlement_lines (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    statement_id    INTEGER NOT NULL REFERENCES settlement_statements (id),
    line_no         INTEGER NOT NULL,
    channel         TEXT NOT NULL,
    channel_txn_id  TEXT NOT NULL,
    kind            TEXT NOT NULL,
    gross_minor     INTEGER NOT NULL,
    fee_minor       INTEGER NOT NULL,
    net_minor       INTEGER NOT NULL,
    currency        TEXT NOT NULL,
    settled_at      INTEGER NOT NULL,
    raw             TEXT NOT NULL,
    UNIQUE (statement_id, line_no)
)
-- @@
CREATE INDEX settlement_lines_txn ON settlement_lines (channel, channel_txn_id)
-- @@
CREATE INDEX settlement_lines_time ON settlement_lines (settled_at)
-- @@
CREATE TABLE fee_schedules (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    channel         TEXT NOT NULL,
    currency        TEXT NOT NULL,
    effective_from  INTEGER NOT NULL,
    rate_ppm        INTEGER NOT NULL CHECK (rate_ppm >= 0),
    fixed_minor     INTEGER NOT NULL DEFAULT 0,
    note            TEXT,
    created_at      INTEGER NOT NULL,
    UNIQUE (channel, currency, effective_from)
)
-- @@
CREATE TABLE reconciliation_runs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    period_from     INTEGER NOT NULL,
    period_to       INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('running','finished','failed','cancelled')),
    eligible        INTEGER NOT NULL DEFAULT 0,
    matched         INTEGER NOT NULL DEFAULT 0,
    coverage_ppm    INTEGER,
    auto_fixed      INTEGER NOT NULL DEFAULT 0,
    opened          INTEGER NOT NULL DEFAULT 0,
    counts_json     TEXT,
    actor           TEXT NOT NULL,
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER
)
-- @@
CREATE TABLE discrepancies (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    discrepancy_key TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL CHECK (kind IN ('not_settled','unknown_settlement','amount_mismatch',
                        'fee_mismatch','currency_mismatch','duplicate_settlement','refund_due')),
    channel         TEXT NOT NULL,
    channel_txn_id  TEXT,
    order_id        TEXT,
    settlement_line_id INTEGER,
    expected_minor  INTEGER,
    actual_minor    INTEGER,
    currency        TEXT,
    status          TEXT NOT NULL CHECK (status IN ('open','auto_fixed','resolved','written_off')),
    rule_id         TEXT,
    rule_version    INTEGER,
    fee_schedule_id INTEGER,
    evidence_sha256 TEXT,
    detail          TEXT,
    first_run_id    INTEGER NOT NULL,
    last_run_id     INTEGER NOT NULL,
    opened_at       INTEGER NOT NULL,
    closed_at       INTEGER
)
-- @@
CREATE INDEX discrepancies_status ON discrepancies (status, kind, opened_at)
-- @@
CREATE TABLE closed_periods (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    period_from     INTEGER NOT NULL,
    period_to       INTEGER NOT NULL,
    closed_by       TEXT NOT NULL,
    closed_at       INTEGER NOT NULL,
    UNIQUE (period_from, period_to)
)
-- @@
CREATE TABLE staff (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    username        TEXT NOT NULL UNIQUE,
    display_name    TEXT NOT NULL,
    role            TEXT NOT NULL CHECK (role IN ('agent','finance','auditor','admin')),
    password_hash   TEXT NOT NULL,
    disabled        INTEGER NOT NULL DEFAULT 0,
    failed_attempts INTEGER NOT NULL DEFAULT 0,
    locked_until    INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
)
-- @@
CREATE TABLE fix_requests (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT NOT NULL,
    target_kind     TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    open_target     TEXT UNIQUE,
    change_json     TEXT NOT NULL,
    change_sha256   TEXT NOT NULL,
    expected_version INTEGER,
    amount_minor    INTEGER,
    currency        TEXT,
    reason_code     TEXT NOT NULL,
    comment         TEXT NOT NULL,
    proposed_by     TEXT NOT NULL,
    proposed_at     INTEGER NOT NULL,
    approvals_needed INTEGER NOT NULL DEFAULT 1,
    status          TEXT NOT NULL CHECK (status IN ('open','approved','rejected','applied','failed')),
    failure_reason  TEXT,
    applied_at      INTEGER
)
-- @@
CREATE INDEX fix_requests_status ON fix_requests (status, proposed_at)
-- @@
CREATE TABLE fix_decisions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    fix_id          INTEGER NOT NULL REFERENCES fix_requests (id),
    decided_by      TEXT NOT NULL,
    decision        TEXT NOT NULL CHECK (decision IN ('approve','reject')),
    comment         TEXT NOT NULL,
    decided_at      INTEGER NOT NULL,
    UNIQUE (fix_id, decided_by)
)
-- @@
CREATE TABLE ops_settings (
    setting_key     TEXT PRIMARY KEY,
    setting_value   TEXT NOT NULL,
    updated_by      TEXT NOT NULL,
    updated_at      INTEGER NOT NULL
)
-- @@
CREATE TABLE audit_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id        TEXT NOT NULL UNIQUE,
    occurred_at     INTEGER NOT NULL,
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
    shipped_at      INTEGER
)
-- @@
CREATE INDEX audit_outbox_unshipped ON audit_outbox (shipped_at, id)
-- @@
INSERT INTO ops_settings (setting_key, setting_value, updated_by, updated_at) VALUES
    ('worker.max_attempts', '12', 'migration', 0),
    ('worker.lease_seconds', '60', 'migration', 0),
    ('worker.backoff_base_ms', '5000', 'migration', 0),
    ('worker.backoff_max_ms', '3600000', 'migration', 0),
    ('stuck.pending_seconds', '300', 'migration', 0),
    ('stuck.idempotency_pending_seconds', '600', 'migration', 0),
    ('reconcile.fee_tolerance_ppm', '1000', 'migration', 0),
    ('reconcile.unsettled_after_hours', '24', 'migration', 0),
    ('fixes.second_approver_above_minor', '100000', 'migration', 0),
    ('auth.max_failed_logins', '5', 'migration', 0),
    ('auth.lockout_seconds', '900', 'migration', 0),
    ('ingest.max_body_bytes', '262144', 'migration', 0),
    ('channels.timestamp_tolerance_seconds', '300', 'migration', 0)
