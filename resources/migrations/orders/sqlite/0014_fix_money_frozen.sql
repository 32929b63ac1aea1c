-- 1. A decided fix's money is frozen by the database too. The engine books an approved fix's
-- amount from the change under its digest, but amount_minor and currency are columns beside it
-- that reconciliation reads for an applied write-off (and people read): once a fix has left
-- 'open' (approved, rejected, applied, failed) they no longer change, nor does the fix go back
-- to 'open' to have them changed. The engine's own updates all leave 'open' (to applied,
-- failed or rejected) and touch neither column. fix_requests_change_frozen (0002) stays as it
-- is: this trigger is beside it.
-- 2. The dashboard counts the paid orders that have a partial refund (a refund debit while the
-- order stays paid): it reads the ledger's refund debits by kind, not the whole ledger.
CREATE TRIGGER fix_requests_decided_money_frozen BEFORE UPDATE ON fix_requests
WHEN OLD.status <> 'open' AND (NEW.amount_minor IS NOT OLD.amount_minor
     OR NEW.currency IS NOT OLD.currency OR NEW.status = 'open')
BEGIN
    SELECT RAISE(ABORT, 'fix_requests: a decided fix''s amount and currency are frozen, and it is not reopened');
END
-- @@
CREATE INDEX IF NOT EXISTS ledger_kind_order ON ledger_entries (kind, order_id, currency, amount_minor)
