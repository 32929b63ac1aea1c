-- OncePay least-privilege roles for PostgreSQL (DESIGN.md §1 and §6). Run once per server
-- as a superuser; safe to run again. Then create the two databases owned by oncepay_owner,
-- run `oncepay db migrate` as oncepay_owner, and run postgresql-orders-grants.sql in the
-- orders database and postgresql-audit-grants.sql in the audit database.
--
--   oncepay_owner    owns the schema: migrations, administration (staff add). Only role
--                    that may change or delete audit rows — and triggers refuse even it.
--   oncepay_engine   gateway, workers, reconciliation, imports, audit shipper and sealer
--   oncepay_console  the desktop console where finance and administrators work: investigation,
--                    fixes and approvals, staff, settings
--   oncepay_desk     the desktop console at agents' and auditors' desks: reads, proposes fixes,
--                    records sign-ins and audit events; cannot approve, administer or move money
--   oncepay_auditor  read only, for auditors' own tools (no password hashes)
--
-- The roles can log in but have no password yet; set one with \password in psql, e.g.
--   \password oncepay_engine
DO $$
DECLARE
    r TEXT;
BEGIN
    FOREACH r IN ARRAY ARRAY['oncepay_owner', 'oncepay_engine', 'oncepay_console',
                             'oncepay_desk', 'oncepay_auditor'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE '
                           'NOREPLICATION NOBYPASSRLS', r);
        END IF;
    END LOOP;
END
$$;
