-- OncePay orders database (MySQL/MariaDB): what each account may do. Run in the orders
-- database (`mariadb oncepay < mysql-orders-grants.sql`) after every `oncepay db migrate`;
-- safe to run again. Nothing here grants DELETE: OncePay never deletes business rows.

-- The owner: the schema (migrations need CREATE, ALTER, INDEX, TRIGGER, REFERENCES).
GRANT ALL PRIVILEGES ON * TO 'oncepay_owner'@'%';

GRANT SELECT ON schema_version TO 'oncepay_engine'@'%', 'oncepay_console'@'%', 'oncepay_desk'@'%',
    'oncepay_auditor'@'%';

-- The engine: callbacks in, orders moved, money booked, statements reconciled. It never
-- touches staff accounts, fix approvals or settings.
GRANT SELECT, INSERT, UPDATE ON orders TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON order_transitions TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON idempotency_records TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON payments TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON ledger_entries TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON purchase_orders TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON logistics_orders TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON callback_messages TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON dead_letters TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON ingest_rejections TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON transition_rejections TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON refund_obligations TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON settlement_statements TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON settlement_lines TO 'oncepay_engine'@'%';
-- A settlement match is written once by the run that makes it and never changed.
GRANT SELECT, INSERT ON settlement_matches TO 'oncepay_engine'@'%';
-- A worker's attempt that did not complete is recorded once and never changed (0016).
GRANT SELECT, INSERT ON callback_attempts TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON reconciliation_runs TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON discrepancies TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT, UPDATE ON fee_schedules TO 'oncepay_engine'@'%';
-- Duplicates absorbed at the door, counted by the ingest (migration 0017).
GRANT SELECT, INSERT, UPDATE ON callback_door_counts TO 'oncepay_engine'@'%';
GRANT SELECT ON ops_settings TO 'oncepay_engine'@'%';
GRANT SELECT ON fix_requests TO 'oncepay_engine'@'%';
GRANT SELECT ON fix_decisions TO 'oncepay_engine'@'%';
GRANT SELECT ON closed_periods TO 'oncepay_engine'@'%';
-- Audit events: written once, marked shipped by the shipper, never otherwise changed.
GRANT SELECT, INSERT, UPDATE (shipped_at) ON audit_outbox TO 'oncepay_engine'@'%';

-- The console: reads everything; proposes, approves and applies fixes; manages staff and
-- settings. It records audit events but never changes one.
GRANT SELECT ON * TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON orders TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON order_transitions TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON idempotency_records TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON payments TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON ledger_entries TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON purchase_orders TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON logistics_orders TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON callback_messages TO 'oncepay_console'@'%';
-- A fix that requeues or resolves a message whose worker died records the lost attempt.
GRANT INSERT ON callback_attempts TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON dead_letters TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON transition_rejections TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON refund_obligations TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON discrepancies TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON fix_requests TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON fix_decisions TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON closed_periods TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON staff TO 'oncepay_console'@'%';
GRANT INSERT, UPDATE ON ops_settings TO 'oncepay_console'@'%';
GRANT INSERT ON audit_outbox TO 'oncepay_console'@'%';

-- The desk console (agents' and auditors' workstations): reads everything — staff rows too, as
-- signing in checks a password hash on the workstation —, records sign-in failures and locks,
-- proposes fixes and records audit events. It cannot approve or apply a fix, change an
-- account's role, password or state, change settings, or move an order or money: a password
-- taken from an agent's machine does not reach them.
GRANT SELECT ON * TO 'oncepay_desk'@'%';
GRANT UPDATE (failed_attempts, locked_until, updated_at) ON staff TO 'oncepay_desk'@'%';
GRANT INSERT ON fix_requests TO 'oncepay_desk'@'%';
GRANT INSERT ON audit_outbox TO 'oncepay_desk'@'%';

-- The auditor: reads every table but the password hashes.
GRANT SELECT ON orders TO 'oncepay_auditor'@'%';
GRANT SELECT ON order_transitions TO 'oncepay_auditor'@'%';
GRANT SELECT ON idempotency_records TO 'oncepay_auditor'@'%';
GRANT SELECT ON payments TO 'oncepay_auditor'@'%';
GRANT SELECT ON ledger_entries TO 'oncepay_auditor'@'%';
GRANT SELECT ON purchase_orders TO 'oncepay_auditor'@'%';
GRANT SELECT ON logistics_orders TO 'oncepay_auditor'@'%';
GRANT SELECT ON callback_messages TO 'oncepay_auditor'@'%';
GRANT SELECT ON dead_letters TO 'oncepay_auditor'@'%';
GRANT SELECT ON callback_attempts TO 'oncepay_auditor'@'%';
GRANT SELECT ON ingest_rejections TO 'oncepay_auditor'@'%';
GRANT SELECT ON transition_rejections TO 'oncepay_auditor'@'%';
GRANT SELECT ON refund_obligations TO 'oncepay_auditor'@'%';
GRANT SELECT ON settlement_statements TO 'oncepay_auditor'@'%';
GRANT SELECT ON settlement_lines TO 'oncepay_auditor'@'%';
GRANT SELECT ON settlement_matches TO 'oncepay_auditor'@'%';
GRANT SELECT ON reconciliation_runs TO 'oncepay_auditor'@'%';
GRANT SELECT ON discrepancies TO 'oncepay_auditor'@'%';
GRANT SELECT ON fee_schedules TO 'oncepay_auditor'@'%';
GRANT SELECT ON ops_settings TO 'oncepay_auditor'@'%';
GRANT SELECT ON fix_requests TO 'oncepay_auditor'@'%';
GRANT SELECT ON fix_decisions TO 'oncepay_auditor'@'%';
GRANT SELECT ON closed_periods TO 'oncepay_auditor'@'%';
GRANT SELECT ON audit_outbox TO 'oncepay_auditor'@'%';
GRANT SELECT ON callback_door_counts TO 'oncepay_auditor'@'%';
GRANT SELECT (id, username, display_name, role, disabled, failed_attempts, locked_until,
              created_at, updated_at) ON staff TO 'oncepay_auditor'@'%';
