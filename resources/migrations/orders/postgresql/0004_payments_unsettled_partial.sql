-- payments_unsettled holds only the payments still waiting for their settlement line: marking
-- a payment settled (a reconciliation run marks nearly every payment once) then only removes
-- its entry instead of moving it to the 'settled' end of a (settlement_status, captured_at)
-- index. Queries for unsettled payments in a period use it with
-- WHERE settlement_status = 'pending' AND captured_at ...
DROP INDEX IF EXISTS payments_unsettled
-- @@
CREATE INDEX payments_unsettled ON payments (captured_at) WHERE settlement_status = 'pending'
