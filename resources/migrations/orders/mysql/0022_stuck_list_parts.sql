-- The stuck list (services/investigation/stuckquery.cpp) reads each kind a page at a time,
-- oldest first. MariaDB has no partial index (0021 added them on SQLite and PostgreSQL), so
-- there a kind spanning several statuses is read part by part, each part in the list's order
-- from an index that holds it so, and only the parts' pages are merged: orders in flight from
-- (state, updated_at) per state; waiting messages as pending ones by when they last became
-- pending, failed ones never requeued by when they were received, and failed ones requeued by
-- their requeue. The first and the last need these two indexes. Without them every page sorted
-- what was left of the kind again (a page of 2,000 of 225,000 waiting messages, read from a
-- cursor near their start: 390–520 ms against 28–34 ms).
CREATE INDEX IF NOT EXISTS callback_messages_pending_since ON callback_messages (status, updated_at)
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_failed_requeued ON callback_messages (status, requeued_at)
