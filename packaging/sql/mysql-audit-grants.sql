-- OncePay audit database (MySQL/MariaDB): append-only for everyone but the owner (and the
-- triggers refuse UPDATE and DELETE even to the owner). Run in the audit database
-- (`mariadb oncepay_audit < mysql-audit-grants.sql`) after every `oncepay db migrate`;
-- safe to run again.

GRANT ALL PRIVILEGES ON * TO 'oncepay_owner'@'%';

GRANT SELECT ON schema_version TO 'oncepay_engine'@'%', 'oncepay_console'@'%', 'oncepay_desk'@'%',
    'oncepay_auditor'@'%';

-- The shipper appends events, the sealer appends checkpoints; both read the chain head.
GRANT SELECT, INSERT ON audit_log TO 'oncepay_engine'@'%';
GRANT SELECT, INSERT ON audit_checkpoints TO 'oncepay_engine'@'%';

-- The console verifies and exports; the auditor reads.
GRANT SELECT ON audit_log TO 'oncepay_console'@'%', 'oncepay_desk'@'%', 'oncepay_auditor'@'%';
GRANT SELECT ON audit_checkpoints TO 'oncepay_console'@'%', 'oncepay_desk'@'%',
    'oncepay_auditor'@'%';
