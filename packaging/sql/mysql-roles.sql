-- OncePay least-privilege accounts for MySQL and MariaDB (DESIGN.md §1 and §6). Run once
-- per server as an administrator; safe to run again. Then create the two databases, run
-- `oncepay db migrate` as oncepay_owner, and run mysql-orders-grants.sql in the orders
-- database and mysql-audit-grants.sql in the audit database, e.g.
--   mariadb oncepay < mysql-orders-grants.sql
--
--   oncepay_owner    owns the schema: migrations, administration (staff add)
--   oncepay_engine   gateway, workers, reconciliation, imports, audit shipper and sealer
--   oncepay_console  the desktop console where finance and administrators work: investigation,
--                    fixes and approvals, staff, settings
--   oncepay_desk     the desktop console at agents' and auditors' desks: reads, proposes fixes,
--                    records sign-ins and audit events; cannot approve, administer or move money
--   oncepay_auditor  read only, for auditors' own tools (no password hashes)
--
-- The accounts are created locked, without a password. Give each a password and unlock it
-- (and narrow '%' to the hosts that connect, if you can), e.g.
--   ALTER USER 'oncepay_engine'@'%' IDENTIFIED BY '...' ACCOUNT UNLOCK;
CREATE USER IF NOT EXISTS 'oncepay_owner'@'%' ACCOUNT LOCK;
CREATE USER IF NOT EXISTS 'oncepay_engine'@'%' ACCOUNT LOCK;
CREATE USER IF NOT EXISTS 'oncepay_console'@'%' ACCOUNT LOCK;
CREATE USER IF NOT EXISTS 'oncepay_desk'@'%' ACCOUNT LOCK;
CREATE USER IF NOT EXISTS 'oncepay_auditor'@'%' ACCOUNT LOCK;
