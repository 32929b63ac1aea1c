-- OncePay orders database (PostgreSQL): what each role may do. Run in the orders database
-- as oncepay_owner or a superuser after every `oncepay db migrate`; safe to run again.
-- Nothing here grants DELETE or TRUNCATE: OncePay never deletes business rows.

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM oncepay_engine, oncepay_console, oncepay_desk,
    oncepay_auditor;

-- Everyone may see the schema version (the program checks it on start).
GRANT SELECT ON schema_version TO oncepay_engine, oncepay_console, oncepay_desk, oncepay_auditor;

-- The engine: callbacks in, orders moved, money booked, statements reconciled. It never
-- touches staff accounts, fix approvals or settings.
GRANT SELECT, INSERT, UPDATE ON
    orders, order_transitions, idempotency_records, payments, ledger_entries,
    purchase_orders, logistics_orders, callback_messages, dead_letters, ingest_rejections,
    transition_rejections, refund_obligations, settlement_statements, settlement_lines,
    reconciliation_runs, discrepancies, fee_schedules
    TO oncepay_engine;
-- A settlement match is written once by the run that makes it and never changed.
GRANT SELECT, INSERT ON settlement_matches TO oncepay_engine;
-- Duplicates absorbed at the door, counted by the ingest (migration 0017); the console and
-- the auditor read it with every table.
GRANT SELECT, INSERT, UPDATE ON callback_door_counts TO oncepay_engine;
-- A worker's attempt that did not complete is recorded once and never changed (0016); the
-- console and the auditor read it with every table.
GRANT SELECT, INSERT ON callback_attempts TO oncepay_engine;
GRANT SELECT ON ops_settings, fix_requests, fix_decisions, closed_periods TO oncepay_engine;
-- Audit events: written once, marked shipped by the shipper, never otherwise changed.
GRANT SELECT, INSERT ON audit_outbox TO oncepay_engine;
GRANT UPDATE (shipped_at) ON audit_outbox TO oncepay_engine;

-- The console: reads everything; proposes, approves and applies fixes (which move orders
-- and book money like the engine does); manages staff and settings. It records audit events
-- but never changes one.
GRANT SELECT ON ALL TABLES IN SCHEMA public TO oncepay_console;
GRANT INSERT, UPDATE ON
    orders, order_transitions, idempotency_records, payments, ledger_entries,
    purchase_orders, logistics_orders, callback_messages, dead_letters,
    transition_rejections, refund_obligations, discrepancies, fix_requests, fix_decisions,
    closed_periods, staff, ops_settings
    TO oncepay_console;
GRANT INSERT ON audit_outbox TO oncepay_console;
-- A fix that requeues or resolves a message whose worker died records the lost attempt.
GRANT INSERT ON callback_attempts TO oncepay_console;

-- The desk console (agents' and auditors' workstations): reads everything — staff rows too, as
-- signing in checks a password hash on the workstation —, records sign-in failures and locks,
-- proposes fixes and records audit events. It cannot approve or apply a fix, change an
-- account's role, password or state, change settings, or move an order or money: a password
-- taken from an agent's machine does not reach them.
GRANT SELECT ON ALL TABLES IN SCHEMA public TO oncepay_desk;
GRANT UPDATE (failed_attempts, locked_until, updated_at) ON staff TO oncepay_desk;
GRANT INSERT ON fix_requests, audit_outbox TO oncepay_desk;

-- The auditor: reads everything but the password hashes.
GRANT SELECT ON ALL TABLES IN SCHEMA public TO oncepay_auditor;
REVOKE SELECT ON staff FROM oncepay_auditor;
GRANT SELECT (id, username, display_name, role, disabled, failed_attempts, locked_until,
              created_at, updated_at) ON staff TO oncepay_auditor;

-- Identity columns (BIGSERIAL) of the tables the writers insert into.
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO oncepay_engine, oncepay_console, oncepay_desk;
