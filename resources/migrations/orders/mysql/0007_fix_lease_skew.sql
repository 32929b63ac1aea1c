-- The fix rule's clock-skew allowance for leases (services/fixes/fixsettings.h): a lease end is
-- written by its worker's clock; a fix counts a processing message's lease as expired only once
-- the proposing or applying host's clock is past it by more than this many milliseconds.
INSERT IGNORE INTO ops_settings (setting_key, setting_value, updated_by, updated_at) VALUES
    ('fixes.lease_skew_ms', '30000', 'migration', 0)
