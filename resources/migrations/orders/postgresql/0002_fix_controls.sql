-- Maker-checker for manual fixes (DESIGN.md §6), enforced by the database as well as by
-- services/fixes: no one decides their own proposal, only finance decides, only open
-- proposals are decided, a rejection carries a reason, and a fix is approved or applied only
-- with as many approvals as it needs. Plus the indexes the console's investigation uses.
ALTER TABLE fix_requests ADD COLUMN proposer_role TEXT NOT NULL DEFAULT ''
-- @@
ALTER TABLE fix_requests ADD COLUMN proposed_from TEXT NOT NULL DEFAULT ''
-- @@
ALTER TABLE fix_requests ADD COLUMN effective_at BIGINT
-- @@
ALTER TABLE fix_decisions ADD COLUMN reason_code TEXT
-- @@
ALTER TABLE fix_decisions ADD COLUMN decided_from TEXT NOT NULL DEFAULT ''
-- @@
CREATE INDEX fix_requests_target ON fix_requests (target_kind, target_id)
-- @@
CREATE FUNCTION oncepay_fix_decision_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    proposer TEXT;
    fix_status TEXT;
    decider_role TEXT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        RAISE EXCEPTION 'fix_decisions is append-only: % refused', TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT proposed_by, status INTO proposer, fix_status FROM fix_requests WHERE id = NEW.fix_id;
    IF NEW.decided_by = proposer THEN
        RAISE EXCEPTION 'fix_decisions: no one decides their own proposal'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT role INTO decider_role FROM staff WHERE username = NEW.decided_by AND disabled = 0;
    IF decider_role IS DISTINCT FROM 'finance' THEN
        RAISE EXCEPTION 'fix_decisions: only an enabled finance account decides fixes'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF fix_status IS DISTINCT FROM 'open' THEN
        RAISE EXCEPTION 'fix_decisions: the proposal is not open'
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.decision = 'reject' AND (btrim(NEW.comment) = '' OR COALESCE(btrim(NEW.reason_code), '') = '') THEN
        RAISE EXCEPTION 'fix_decisions: a rejection needs a reason code and a comment'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$
-- @@
CREATE TRIGGER fix_decisions_guard BEFORE INSERT OR UPDATE OR DELETE ON fix_decisions
    FOR EACH ROW EXECUTE FUNCTION oncepay_fix_decision_guard()
-- @@
CREATE FUNCTION oncepay_fix_request_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.change_json <> OLD.change_json OR NEW.change_sha256 <> OLD.change_sha256
       OR NEW.proposed_by <> OLD.proposed_by OR NEW.approvals_needed < OLD.approvals_needed
       OR NEW.expected_version IS DISTINCT FROM OLD.expected_version THEN
        RAISE EXCEPTION 'fix_requests: a proposal''s change, proposer and approvals are frozen'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.status IN ('approved', 'applied') AND NEW.status IS DISTINCT FROM OLD.status AND
       (SELECT COUNT(*) FROM fix_decisions WHERE fix_id = NEW.id AND decision = 'approve') < NEW.approvals_needed THEN
        RAISE EXCEPTION 'fix_requests: not enough approvals to approve or apply this fix'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$
-- @@
CREATE TRIGGER fix_requests_guard BEFORE UPDATE ON fix_requests
    FOR EACH ROW EXECUTE FUNCTION oncepay_fix_request_guard()
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
