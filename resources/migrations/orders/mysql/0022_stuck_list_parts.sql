-- The stuck list (services/investigation/stuckquery.cpp) reads each kind a page at a time,
-- oldest first. MariaDB has no partial index (0021 added them on SQLite and PostgreSQL), so
-- there a kind spanning several statuses is read part by part, each part in the list's order
-- from an index that holds it so, and only the parts' pages are merged: orders in flight from
-- (state, updated_at) per state; waiting messages as pending ones by when they last became
-- pending, failed ones never requeued by when they were received (requeued_at NULL is a point
-- of the second index, so a mass requeue that failed again is not read through to find them),
-- and failed ones requeued by their requeue (the third: its ties in id order). Without them
-- every page sorted what was left of the kind again (a page of 2,000 of 225,000 waiting
-- messages, read from a cursor near their start: 390–520 ms against 28–34 ms).
-- One ALTER, so the table is read once. MariaDB builds the indexes in place while rows are
-- written, but takes the table's metadata lock at the start and the end: it waits for
-- transactions that have read the table and holds up new statements on it meanwhile, so run
-- the migration when the workers are quiet.
ALTER TABLE callback_messages
    ADD INDEX IF NOT EXISTS callback_messages_pending_since (status, updated_at),
    ADD INDEX IF NOT EXISTS callback_messages_failed_since (status, requeued_at, received_at),
    ADD INDEX IF NOT EXISTS callback_messages_failed_requeued (status, requeued_at)
