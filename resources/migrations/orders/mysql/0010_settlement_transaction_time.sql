-- A settlement line keeps the channel's transaction time beside the date it settled: when the
-- channel made the charge or refund (Stripe's balance transaction created, PayPal's Transaction
-- Initiation Date, KakaoPay's 거래일시, FedaPay's approved_at or refunded_at). A channel fixes
-- its fee when it makes the charge, so the reconciliation fee rule (fee.schedule_change v2)
-- judges a fee by the schedule in force at this moment, not at settled_at (Stripe's
-- available_on, KakaoPay's 정산일 are days later). NULL for lines imported before this
-- migration: the rule then falls back to the payment's captured_at and says so.
-- MariaDB commits DDL on its own: IF NOT EXISTS lets the step run again after a failure.
ALTER TABLE settlement_lines ADD COLUMN IF NOT EXISTS transacted_at BIGINT NULL
