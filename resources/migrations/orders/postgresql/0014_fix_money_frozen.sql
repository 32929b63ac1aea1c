-- 1. A decided fix's money is frozen by the database too. The engine books an approved fix's
-- amount from the change under its digest, but amount_minor and currency are columns beside it
-- that reconciliation reads for an applied write-off (and people read): once a fix has left
-- 'open' (approved, rejected, applied, failed) they no longer change, nor does the fix go back
-- to 'open' to have them changed. The engine's own updates all leave 'open' (to applied,
-- failed or rejected) and touch neither column. The guard of 0002 otherwise unchanged.
-- 2. The dashboard counts the paid orders that have a partial refund (a refund debit while the
-- order stays paid): it reads the ledger's refund debits by kind, not the whole ledger.
CREATE OR REPLACE FUNCTION oncepay_fix_request_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.change_json <> OLD.change_json OR NEW.change_sha256 <> OLD.change_sha256
       OR NEW.proposed_by <> OLD.proposed_by OR NEW.approvals_needed < OLD.approvals_needed
       OR NEW.expected_version IS DISTINCT FROM OLD.expected_version THEN
        RAISE EXCEPTION 'fix_requests: a proposal''s change, proposer and approvals are frozen'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF OLD.status <> 'open' AND (NEW.amount_minor IS DISTINCT FROM OLD.amount_minor
       OR NEW.currency IS DISTINCT FROM OLD.currency OR NEW.status = 'open') THEN
        RAISE EXCEPTION 'fix_requests: a decided fix''s amount and currency are frozen, and it is not reopened'
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
CREATE INDEX IF NOT EXISTS ledger_kind_order ON ledger_entries (kind, order_id, currency, amount_minor)
