-- Maker-checker for manual fixes (DESIGN.md §6), enforced by the database as well as by
-- services/fixes: no one decides their own proposal, only finance decides, only open
-- proposals are decided, a rejection carries a reason, and a fix is applied only with as
-- many approvals as it needs. Plus the indexes the console's investigation queries use.
ALTER TABLE fix_requests ADD COLUMN proposer_role TEXT NOT NULL DEFAULT ''
-- @@
ALTER TABLE fix_requests ADD COLUMN proposed_from TEXT NOT NULL DEFAULT ''
-- @@
ALTER TABLE fix_requests ADD COLUMN effective_at INTEGER
-- @@
ALTER TABLE fix_decisions ADD COLUMN reason_code TEXT
-- @@
ALTER TABLE fix_decisions ADD COLUMN decided_from TEXT NOT NULL DEFAULT ''
-- @@
CREATE INDEX fix_requests_target ON fix_requests (target_kind, target_id)
-- @@
CREATE TRIGGER fix_decisions_not_own BEFORE INSERT ON fix_decisions
WHEN NEW.decided_by = (SELECT proposed_by FROM fix_requests WHERE id = NEW.fix_id)
BEGIN
    SELECT RAISE(ABORT, 'fix_decisions: no one decides their own proposal');
END
-- @@
CREATE TRIGGER fix_decisions_finance_only BEFORE INSERT ON fix_decisions
WHEN COALESCE((SELECT role FROM staff WHERE username = NEW.decided_by AND disabled = 0), '') <> 'finance'
BEGIN
    SELECT RAISE(ABORT, 'fix_decisions: only an enabled finance account decides fixes');
END
-- @@
CREATE TRIGGER fix_decisions_open_only BEFORE INSERT ON fix_decisions
WHEN COALESCE((SELECT status FROM fix_requests WHERE id = NEW.fix_id), '') <> 'open'
BEGIN
    SELECT RAISE(ABORT, 'fix_decisions: the proposal is not open');
END
-- @@
CREATE TRIGGER fix_decisions_reject_reason BEFORE INSERT ON fix_decisions
WHEN NEW.decision = 'reject' AND (TRIM(NEW.comment) = '' OR COALESCE(TRIM(NEW.reason_code), '') = '')
BEGIN
    SELECT RAISE(ABORT, 'fix_decisions: a rejection needs a reason code and a comment');
END
-- @@
CREATE TRIGGER fix_decisions_append_only_update BEFORE UPDATE ON fix_decisions
BEGIN
    SELECT RAISE(ABORT, 'fix_decisions is append-only');
END
-- @@
CREATE TRIGGER fix_decisions_append_only_delete BEFORE DELETE ON fix_decisions
BEGIN
    SELECT RAISE(ABORT, 'fix_decisions is append-only');
END
-- @@
CREATE TRIGGER fix_requests_applied_needs_approvals BEFORE UPDATE OF status ON fix_requests
WHEN NEW.status IN ('approved', 'applied') AND NEW.status <> OLD.status AND
     (SELECT COUNT(*) FROM fix_decisions WHERE fix_id = NEW.id AND decision = 'approve') < NEW.approvals_needed
BEGIN
    SELECT RAISE(ABORT, 'fix_requests: not enough approvals to approve or apply this fix');
END
-- @@
CREATE TRIGGER fix_requests_change_frozen BEFORE UPDATE ON fix_requests
WHEN NEW.change_json <> OLD.change_json OR NEW.change_sha256 <> OLD.change_sha256
     OR NEW.proposed_by <> OLD.proposed_by OR NEW.approvals_needed < OLD.approvals_needed
     OR COALESCE(NEW.expected_version, -1) <> COALESCE(OLD.expected_version, -1)
BEGIN
    SELECT RAISE(ABORT, 'fix_requests: a proposal''s change, proposer and approvals are frozen');
END
-- @@
CREATE INDEX audit_outbox_order ON audit_outbox (order_id)
-- @@
CREATE INDEX audit_outbox_callback ON audit_outbox (callback_id)
-- @@
CREATE INDEX refund_obligations_order ON refund_obligations (order_id)
-- @@
CREATE INDEX payments_txn ON payments (channel_txn_id)
-- @@
CREATE INDEX orders_state_updated ON orders (state, updated_at)
-- @@
INSERT INTO ops_settings (setting_key, setting_value, updated_by, updated_at) VALUES
    ('fixes.second_approver_above_minor.JPY', '150000', 'migration', 0),
    ('fixes.second_approver_above_minor.KRW', '1300000', 'migration', 0),
    ('fixes.second_approver_above_minor.XOF', '600000', 'migration', 0),
    ('reconcile.cadence_hours', '24', 'migration', 0)
