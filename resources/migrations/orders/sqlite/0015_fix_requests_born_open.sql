-- A fix request is born open: inserted as a proposal waiting for its approvals (at least one),
-- never as already approved, applied, rejected or failed. The engine inserts every proposal
-- open and moves it on by the guarded updates of 0002 and 0014; a row written around it as
-- 'applied' (reconciliation reads an applied write-off's amount) is refused here too.
CREATE TRIGGER fix_requests_born_open BEFORE INSERT ON fix_requests
WHEN NEW.status <> 'open' OR NEW.approvals_needed < 1 OR NEW.applied_at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'fix_requests: a fix is proposed open, needing at least one approval');
END
