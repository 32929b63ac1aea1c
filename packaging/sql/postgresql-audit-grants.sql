-- OncePay audit database (PostgreSQL): append-only for everyone but the owner (and the
-- triggers refuse UPDATE, DELETE and TRUNCATE even to the owner). Run in the audit database
-- as oncepay_owner or a superuser after every `oncepay db migrate`; safe to run again.

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM oncepay_engine, oncepay_console, oncepay_desk,
    oncepay_auditor;

GRANT SELECT ON schema_version TO oncepay_engine, oncepay_console, oncepay_desk, oncepay_auditor;

-- The shipper appends events, the sealer appends checkpoints; both read the chain head.
GRANT SELECT, INSERT ON audit_log, audit_checkpoints TO oncepay_engine;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO oncepay_engine;

-- The consoles verify and export; the auditor reads.
GRANT SELECT ON audit_log, audit_checkpoints TO oncepay_console, oncepay_desk, oncepay_auditor;
