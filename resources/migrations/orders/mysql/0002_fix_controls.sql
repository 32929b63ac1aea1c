-- Maker-checker for manual fixes (DESIGN.md §6), enforced by the database as well as by
-- services/fixes: no one decides their own proposal, only finance decides, only open
-- proposals are decided, a rejection carries a reason, and a fix is approved or applied only
-- with as many approvals as it needs. Plus the indexes the console's investigation uses.
-- MySQL commits DDL implicitly, so every statement is re-runnable.
ALTER TABLE fix_requests ADD COLUMN IF NOT EXISTS proposer_role VARCHAR(191) NOT NULL DEFAULT ''
-- @@
ALTER TABLE fix_requests ADD COLUMN IF NOT EXISTS proposed_from VARCHAR(191) NOT NULL DEFAULT ''
-- @@
ALTER TABLE fix_requests ADD COLUMN IF NOT EXISTS effective_at BIGINT
-- @@
ALTER TABLE fix_decisions ADD COLUMN IF NOT EXISTS reason_code VARCHAR(191)
-- @@
ALTER TABLE fix_decisions ADD COLUMN IF NOT EXISTS decided_from VARCHAR(191) NOT NULL DEFAULT ''
-- @@
CREATE INDEX IF NOT EXISTS fix_requests_target ON fix_requests (target_kind, target_id)
-- @@
CREATE TRIGGER IF NOT EXISTS fix_decisions_guard BEFORE INSERT ON fix_decisions FOR EACH ROW
BEGIN
    DECLARE proposer VARCHAR(191);
    DECLARE fix_status VARCHAR(191);
    DECLARE decider_role VARCHAR(191);
    SELECT proposed_by, status INTO proposer, fix_status FROM fix_requests WHERE id = NEW.fix_id;
    IF NEW.decided_by = proposer THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_decisions: no one decides their own proposal';
    END IF;
    SET decider_role = (SELECT role FROM staff WHERE username = NEW.decided_by AND disabled = 0);
    IF decider_role IS NULL OR decider_role <> 'finance' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_decisions: only an enabled finance account decides fixes';
    END IF;
    IF fix_status IS NULL OR fix_status <> 'open' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_decisions: the proposal is not open';
    END IF;
    IF NEW.decision = 'reject' AND (TRIM(NEW.comment) = '' OR COALESCE(TRIM(NEW.reason_code), '') = '') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_decisions: a rejection needs a reason code and a comment';
    END IF;
END
-- @@
CREATE TRIGGER IF NOT EXISTS fix_decisions_no_update BEFORE UPDATE ON fix_decisions FOR EACH ROW
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_decisions is append-only: UPDATE refused'
-- @@
CREATE TRIGGER IF NOT EXISTS fix_decisions_no_delete BEFORE DELETE ON fix_decisions FOR EACH ROW
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_decisions is append-only: DELETE refused'
-- @@
CREATE TRIGGER IF NOT EXISTS fix_requests_guard BEFORE UPDATE ON fix_requests FOR EACH ROW
BEGIN
    IF NEW.change_json <> OLD.change_json OR NEW.change_sha256 <> OLD.change_sha256
       OR NEW.proposed_by <> OLD.proposed_by OR NEW.approvals_needed < OLD.approvals_needed
       OR NOT (NEW.expected_version <=> OLD.expected_version) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_requests: a proposal''s change, proposer and approvals are frozen';
    END IF;
    IF NEW.status IN ('approved', 'applied') AND NOT (NEW.status <=> OLD.status) AND
       (SELECT COUNT(*) FROM fix_decisions WHERE fix_id = NEW.id AND decision = 'approve') < NEW.approvals_needed THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_requests: not enough approvals to approve or apply this fix';
    END IF;
END
-- @@
CREATE INDEX IF NOT EXISTS audit_outbox_order ON audit_outbox (order_id)
-- @@
CREATE INDEX IF NOT EXISTS audit_outbox_callback ON audit_outbox (callback_id)
-- @@
CREATE INDEX IF NOT EXISTS refund_obligations_order ON refund_obligations (order_id)
-- @@
CREATE INDEX IF NOT EXISTS payments_txn ON payments (channel_txn_id)
-- @@
CREATE INDEX IF NOT EXISTS orders_state_updated ON orders (state, updated_at)
-- @@
INSERT IGNORE INTO ops_settings (setting_key, setting_value, updated_by, updated_at) VALUES
    ('fixes.second_approver_above_minor.JPY', '150000', 'migration', 0),
    ('fixes.second_approver_above_minor.KRW', '1300000', 'migration', 0),
    ('fixes.second_approver_above_minor.XOF', '600000', 'migration', 0),
    ('reconcile.cadence_hours', '24', 'migration', 0)
