-- 1. A decided fix's money is frozen by the database too. The engine books an approved fix's
-- amount from the change under its digest, but amount_minor and currency are columns beside it
-- that reconciliation reads for an applied write-off (and people read): once a fix has left
-- 'open' (approved, rejected, applied, failed) they no longer change, nor does the fix go back
-- to 'open' to have them changed. The engine's own updates all leave 'open' (to applied,
-- failed or rejected) and touch neither column. The guard of 0002 otherwise unchanged.
-- 2. The dashboard counts the paid orders that have a partial refund (a refund debit while the
-- order stays paid): it reads the ledger's refund debits by kind, not the whole ledger.
-- MySQL commits DDL implicitly, so every statement is re-runnable (the trigger is replaced in
-- one statement: the table is never without its guard).
CREATE OR REPLACE TRIGGER fix_requests_guard BEFORE UPDATE ON fix_requests FOR EACH ROW
BEGIN
    IF NEW.change_json <> OLD.change_json OR NEW.change_sha256 <> OLD.change_sha256
       OR NEW.proposed_by <> OLD.proposed_by OR NEW.approvals_needed < OLD.approvals_needed
       OR NOT (NEW.expected_version <=> OLD.expected_version) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_requests: a proposal''s change, proposer and approvals are frozen';
    END IF;
    IF OLD.status <> 'open' AND (NOT (NEW.amount_minor <=> OLD.amount_minor)
       OR NOT (NEW.currency <=> OLD.currency) OR NEW.status = 'open') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_requests: a decided fix''s amount and currency are frozen, and it is not reopened';
    END IF;
    IF NEW.status IN ('approved', 'applied') AND NOT (NEW.status <=> OLD.status) AND
       (SELECT COUNT(*) FROM fix_decisions WHERE fix_id = NEW.id AND decision = 'approve') < NEW.approvals_needed THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'fix_requests: not enough approvals to approve or apply this fix';
    END IF;
END
-- @@
CREATE INDEX IF NOT EXISTS ledger_kind_order ON ledger_entries (kind, order_id, currency, amount_minor)
