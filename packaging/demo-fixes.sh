#!/usr/bin/env bash
# Leaves a few DEMO fix proposals in the demo databases, so the approvals view has something
# to decide: the agent proposes requeues of dead letters and a confirmation of a payment
# waiting in paid_unconfirmed; "finance" approves one requeue and rejects nothing.
# Demo only (public demo passwords).
# Usage: packaging/demo-fixes.sh path/to/oncepay path/to/orders.db [oncepay options, e.g. --config FILE]
set -euo pipefail
oncepay="$1"; db="$2"; shift 2
if ! command -v sqlite3 >/dev/null || [[ ! -f "$db" ]]; then
    echo "demo-fixes.sh: no SQLite demo database found; skipped" >&2; exit 0
fi
if [[ "$(sqlite3 "$db" 'SELECT COUNT(*) FROM fix_requests')" != 0 ]]; then exit 0; fi
propose() { echo agent-demo | "$oncepay" "$@" >/dev/null 2>&1 || true; }
# Approvals need the maker-checker schema (migration 0002).
"$oncepay" "$@" db migrate >/dev/null
for cb in $(sqlite3 "$db" "SELECT callback_id FROM callback_messages WHERE status = 'dead' ORDER BY id LIMIT 3"); do
    propose "${@}" fix propose requeue_message "$cb" --user agent --reason channel_outage \
        --comment "the order reached checkout late; replay the callback"
done
for o in $(sqlite3 "$db" "SELECT order_id FROM orders WHERE state = 'paid_unconfirmed' ORDER BY order_id LIMIT 2"); do
    propose "${@}" fix propose confirm_payment "$o" --user agent --reason payment_verified \
        --comment "the channel dashboard shows the capture; amount difference explained by the customer's bank"
done
first="$(sqlite3 "$db" "SELECT id || ' ' || change_sha256 FROM fix_requests WHERE kind = 'requeue_message' ORDER BY id LIMIT 1")"
if [[ -n "$first" ]]; then
    echo finance-demo | "$oncepay" "$@" fix approve "${first%% *}" --user finance --digest "${first#* }" \
        --comment "checked the checkout log" >/dev/null 2>&1 || true
fi
echo "demo fixes: $(sqlite3 "$db" "SELECT COUNT(*) FROM fix_requests WHERE status = 'open'") waiting for approval"
