-- The stuck-records and dashboard counts of pending messages past their threshold read
-- callback_messages by status and age; the capture-skew allowance of the fee rule is an
-- operational setting (reconcile.capture_skew_minutes, 0 = strict).
CREATE INDEX callback_messages_status_received ON callback_messages (status, received_at)
-- @@
INSERT INTO ops_settings (setting_key, setting_value, updated_by, updated_at) VALUES
    ('reconcile.capture_skew_minutes', '360', 'migration', 0)
