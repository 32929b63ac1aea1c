-- OncePay orders database (MySQL/MariaDB). Also holds the message table: claiming a message,
-- moving the order and booking money commit in one local transaction (DESIGN.md §1).
-- Times are UTC epoch milliseconds; money is integer minor units plus ISO-4217 code.
-- Statements are separated by "-- @@" lines (triggers contain semicolons).

CREATE TABLE IF NOT EXISTS orders (
    order_id            VARCHAR(191) PRIMARY KEY,
    customer_ref        VARCHAR(191) NOT NULL,
    amount_minor        BIGINT NOT NULL CHECK (amount_minor > 0),
    currency            CHAR(3)      NOT NULL CHECK (char_length(currency) = 3),
    state               VARCHAR(191) NOT NULL CHECK (state IN ('pending_payment','paying','paid_unconfirmed',
                            'paid','payment_failed','cancelled','refunded')),
    version             BIGINT NOT NULL CHECK (version >= 1),
    current_request_id  VARCHAR(191),
    channel             VARCHAR(191),
    channel_txn_id      VARCHAR(191),
    state_reason        TEXT,
    paid_at             BIGINT,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS orders_customer ON orders (customer_ref)
-- @@
CREATE INDEX IF NOT EXISTS orders_state_paid ON orders (state, paid_at)
-- @@
CREATE INDEX IF NOT EXISTS orders_channel_txn ON orders (channel_txn_id)
-- @@
CREATE TABLE IF NOT EXISTS order_transitions (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id        VARCHAR(191) NOT NULL REFERENCES orders (order_id),
    from_state      VARCHAR(191) NOT NULL,
    to_state        VARCHAR(191) NOT NULL,
    new_version     BIGINT NOT NULL,
    cause_kind      VARCHAR(191) NOT NULL CHECK (cause_kind IN ('request','callback','fix','timer','system')),
    cause_id        VARCHAR(191),
    actor           VARCHAR(191) NOT NULL,
    reason          TEXT,
    created_at      BIGINT NOT NULL,
    UNIQUE (order_id, new_version)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS transition_rejections (
    id                  BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id            VARCHAR(191) NOT NULL,
    expected_version    BIGINT,
    actual_version      BIGINT,
    actual_state        VARCHAR(191),
    requested_to        VARCHAR(191) NOT NULL,
    cause_kind          VARCHAR(191) NOT NULL,
    cause_id            VARCHAR(191),
    actor               VARCHAR(191) NOT NULL,
    reason              TEXT NOT NULL,
    created_at          BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS transition_rejections_order ON transition_rejections (order_id, created_at)
-- @@
CREATE TABLE IF NOT EXISTS idempotency_records (
    id                  BIGINT AUTO_INCREMENT PRIMARY KEY,
    request_id          VARCHAR(191) NOT NULL UNIQUE,
    order_id            VARCHAR(191) NOT NULL,
    expected_version    BIGINT NOT NULL,
    operation           VARCHAR(191) NOT NULL,
    payload_digest      VARCHAR(191) NOT NULL,
    status              BIGINT NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
    outcome             TEXT,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS idempotency_pending ON idempotency_records (status, created_at)
-- @@
CREATE INDEX IF NOT EXISTS idempotency_order ON idempotency_records (order_id)
-- @@
CREATE TABLE IF NOT EXISTS payments (
    id                  BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id            VARCHAR(191) NOT NULL REFERENCES orders (order_id),
    channel             VARCHAR(191) NOT NULL,
    channel_txn_id      VARCHAR(191) NOT NULL,
    request_id          VARCHAR(191),
    callback_id         VARCHAR(191) NOT NULL,
    amount_minor        BIGINT NOT NULL CHECK (amount_minor > 0),
    currency            CHAR(3)      NOT NULL,
    status              VARCHAR(191) NOT NULL CHECK (status IN ('captured','refunded')),
    settlement_status   VARCHAR(191) NOT NULL DEFAULT 'pending' CHECK (settlement_status IN ('pending','settled')),
    captured_at         BIGINT NOT NULL,
    refunded_at         BIGINT,
    UNIQUE (channel, channel_txn_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS payments_order ON payments (order_id)
-- @@
CREATE INDEX IF NOT EXISTS payments_unsettled ON payments (settlement_status, captured_at)
-- @@
CREATE TABLE IF NOT EXISTS ledger_entries (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    entry_key       VARCHAR(191) NOT NULL UNIQUE,
    order_id        VARCHAR(191) NOT NULL,
    kind            VARCHAR(191) NOT NULL CHECK (kind IN ('payment_credit','refund_debit','fee_adjustment',
                        'write_off')),
    amount_minor    BIGINT NOT NULL,
    currency        CHAR(3)      NOT NULL CHECK (char_length(currency) = 3),
    channel         VARCHAR(191),
    channel_txn_id  VARCHAR(191),
    callback_id     VARCHAR(191),
    memo            TEXT,
    created_at      BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS ledger_order ON ledger_entries (order_id)
-- @@
CREATE TABLE IF NOT EXISTS purchase_orders (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id        VARCHAR(191) NOT NULL UNIQUE REFERENCES orders (order_id),
    status          VARCHAR(191) NOT NULL DEFAULT 'created',
    callback_id     VARCHAR(191),
    created_at      BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS logistics_orders (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    order_id        VARCHAR(191) NOT NULL UNIQUE REFERENCES orders (order_id),
    status          VARCHAR(191) NOT NULL DEFAULT 'created',
    callback_id     VARCHAR(191),
    created_at      BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS callback_messages (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    callback_id     VARCHAR(191) NOT NULL UNIQUE,
    channel         VARCHAR(191) NOT NULL,
    event_kind      VARCHAR(191) NOT NULL,
    channel_event_type VARCHAR(191),
    order_ref       VARCHAR(191),
    attempt_ref     VARCHAR(191),
    channel_txn_id  VARCHAR(191),
    refund_id       VARCHAR(191),
    amount_minor    BIGINT,
    currency        CHAR(3)     ,
    raw_body        LONGTEXT NOT NULL,
    headers         LONGTEXT NOT NULL,
    status          VARCHAR(191) NOT NULL CHECK (status IN ('pending','processing','completed','skipped',
                        'failed','dead')),
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_owner     VARCHAR(191),
    lease_until     BIGINT,
    last_error      TEXT,
    result_reason   TEXT,
    received_at     BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    finished_at     BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_claim ON callback_messages (status, next_attempt_at)
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_lease ON callback_messages (status, lease_until)
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_order ON callback_messages (order_ref)
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_txn ON callback_messages (channel_txn_id)
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_received ON callback_messages (received_at)
-- @@
CREATE TABLE IF NOT EXISTS dead_letters (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    message_id      BIGINT NOT NULL UNIQUE REFERENCES callback_messages (id),
    callback_id     VARCHAR(191) NOT NULL,
    reason          TEXT NOT NULL,
    attempts        BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    requeued_at     BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS ingest_rejections (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    channel         VARCHAR(191) NOT NULL,
    reason_code     VARCHAR(191) NOT NULL,
    detail          TEXT NOT NULL,
    body_sha256     VARCHAR(191),
    body_size       BIGINT NOT NULL,
    remote          VARCHAR(191),
    created_at      BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS ingest_rejections_time ON ingest_rejections (created_at)
-- @@
CREATE TABLE IF NOT EXISTS refund_obligations (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    callback_id     VARCHAR(191) NOT NULL UNIQUE,
    order_id        VARCHAR(191) NOT NULL,
    channel         VARCHAR(191) NOT NULL,
    channel_txn_id  VARCHAR(191),
    amount_minor    BIGINT NOT NULL,
    currency        CHAR(3)      NOT NULL,
    reason          TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    resolved_at     BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS settlement_statements (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    channel         VARCHAR(191) NOT NULL,
    file_sha256     VARCHAR(191) NOT NULL,
    file_name       VARCHAR(191) NOT NULL,
    line_count      BIGINT NOT NULL,
    period_from     BIGINT,
    period_to       BIGINT,
    imported_by     VARCHAR(191) NOT NULL,
    imported_at     BIGINT NOT NULL,
    UNIQUE (channel, file_sha256)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS settlement_lines (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    statement_id    BIGINT NOT NULL REFERENCES settlement_statements (id),
    line_no         BIGINT NOT NULL,
    channel         VARCHAR(191) NOT NULL,
    channel_txn_id  VARCHAR(191) NOT NULL,
    kind            VARCHAR(191) NOT NULL,
    gross_minor     BIGINT NOT NULL,
    fee_minor       BIGINT NOT NULL,
    net_minor       BIGINT NOT NULL,
    currency        CHAR(3)      NOT NULL,
    settled_at      BIGINT NOT NULL,
    raw             LONGTEXT NOT NULL,
    UNIQUE (statement_id, line_no)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS settlement_lines_txn ON settlement_lines (channel, channel_txn_id)
-- @@
CREATE INDEX IF NOT EXISTS settlement_lines_time ON settlement_lines (settled_at)
-- @@
CREATE TABLE IF NOT EXISTS fee_schedules (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    channel         VARCHAR(191) NOT NULL,
    currency        CHAR(3)      NOT NULL,
    effective_from  BIGINT NOT NULL,
    rate_ppm        BIGINT NOT NULL CHECK (rate_ppm >= 0),
    fixed_minor     BIGINT NOT NULL DEFAULT 0,
    note            TEXT,
    created_at      BIGINT NOT NULL,
    UNIQUE (channel, currency, effective_from)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS reconciliation_runs (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    period_from     BIGINT NOT NULL,
    period_to       BIGINT NOT NULL,
    status          VARCHAR(191) NOT NULL CHECK (status IN ('running','finished','failed','cancelled')),
    eligible        BIGINT NOT NULL DEFAULT 0,
    matched         BIGINT NOT NULL DEFAULT 0,
    coverage_ppm    BIGINT,
    auto_fixed      BIGINT NOT NULL DEFAULT 0,
    opened          BIGINT NOT NULL DEFAULT 0,
    counts_json     TEXT,
    actor           VARCHAR(191) NOT NULL,
    started_at      BIGINT NOT NULL,
    finished_at     BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS discrepancies (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    discrepancy_key VARCHAR(191) NOT NULL UNIQUE,
    kind            VARCHAR(191) NOT NULL CHECK (kind IN ('not_settled','unknown_settlement','amount_mismatch',
                        'fee_mismatch','currency_mismatch','duplicate_settlement','refund_due')),
    channel         VARCHAR(191) NOT NULL,
    channel_txn_id  VARCHAR(191),
    order_id        VARCHAR(191),
    settlement_line_id BIGINT,
    expected_minor  BIGINT,
    actual_minor    BIGINT,
    currency        CHAR(3)     ,
    status          VARCHAR(191) NOT NULL CHECK (status IN ('open','auto_fixed','resolved','written_off')),
    rule_id         VARCHAR(191),
    rule_version    BIGINT,
    fee_schedule_id BIGINT,
    evidence_sha256 VARCHAR(191),
    detail          TEXT,
    first_run_id    BIGINT NOT NULL,
    last_run_id     BIGINT NOT NULL,
    opened_at       BIGINT NOT NULL,
    closed_at       BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS discrepancies_status ON discrepancies (status, kind, opened_at)
-- @@
CREATE TABLE IF NOT EXISTS closed_periods (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    period_from     BIGINT NOT NULL,
    period_to       BIGINT NOT NULL,
    closed_by       VARCHAR(191) NOT NULL,
    closed_at       BIGINT NOT NULL,
    UNIQUE (period_from, period_to)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS staff (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    username        VARCHAR(191) NOT NULL UNIQUE,
    display_name    VARCHAR(191) NOT NULL,
    role            VARCHAR(191) NOT NULL CHECK (role IN ('agent','finance','auditor','admin')),
    password_hash   VARCHAR(191) NOT NULL,
    disabled        BIGINT NOT NULL DEFAULT 0,
    failed_attempts BIGINT NOT NULL DEFAULT 0,
    locked_until    BIGINT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS fix_requests (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    kind            VARCHAR(191) NOT NULL,
    target_kind     VARCHAR(191) NOT NULL,
    target_id       VARCHAR(191) NOT NULL,
    open_target     VARCHAR(191) UNIQUE,
    change_json     TEXT NOT NULL,
    change_sha256   VARCHAR(191) NOT NULL,
    expected_version BIGINT,
    amount_minor    BIGINT,
    currency        CHAR(3)     ,
    reason_code     VARCHAR(191) NOT NULL,
    comment         TEXT NOT NULL,
    proposed_by     VARCHAR(191) NOT NULL,
    proposed_at     BIGINT NOT NULL,
    approvals_needed BIGINT NOT NULL DEFAULT 1,
    status          VARCHAR(191) NOT NULL CHECK (status IN ('open','approved','rejected','applied','failed')),
    failure_reason  VARCHAR(191),
    applied_at      BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS fix_requests_status ON fix_requests (status, proposed_at)
-- @@
CREATE TABLE IF NOT EXISTS fix_decisions (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    fix_id          BIGINT NOT NULL REFERENCES fix_requests (id),
    decided_by      VARCHAR(191) NOT NULL,
    decision        VARCHAR(191) NOT NULL CHECK (decision IN ('approve','reject')),
    comment         TEXT NOT NULL,
    decided_at      BIGINT NOT NULL,
    UNIQUE (fix_id, decided_by)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS ops_settings (
    setting_key     VARCHAR(191) PRIMARY KEY,
    setting_value   TEXT NOT NULL,
    updated_by      VARCHAR(191) NOT NULL,
    updated_at      BIGINT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE TABLE IF NOT EXISTS audit_outbox (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    event_id        VARCHAR(191) NOT NULL UNIQUE,
    occurred_at     BIGINT NOT NULL,
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
    shipped_at      BIGINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
-- @@
CREATE INDEX IF NOT EXISTS audit_outbox_unshipped ON audit_outbox (shipped_at, id)
-- @@
INSERT IGNORE INTO ops_settings (setting_key, setting_value, updated_by, updated_at) VALUES
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
