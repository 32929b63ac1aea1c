-- The stuck list (services/investigation/stuckquery.cpp) reads each kind a page at a time,
-- oldest first, continuing after the last row shown. Orders in flight (paying or
-- paid_unconfirmed) and messages waiting (pending or failed) span two statuses each, so the
-- (status, time) indexes give their rows in order only one status at a time: every page sorted
-- what was left of the kind again, and scrolling a backlog of N records to its end cost about
-- N per page. These partial indexes hold each kind's records in the list's own order (its
-- since, then its reference), so a page reads only its own rows.
CREATE INDEX IF NOT EXISTS orders_in_flight ON orders (updated_at, order_id)
    WHERE state IN ('paying', 'paid_unconfirmed')
-- @@
CREATE INDEX IF NOT EXISTS callback_messages_waiting ON callback_messages (
    (CASE WHEN status = 'pending' THEN updated_at ELSE COALESCE(requeued_at, received_at) END),
    id)
    WHERE status IN ('pending', 'failed')
