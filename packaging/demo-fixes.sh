#!/usr/bin/env bash
# Leaves a few DEMO fix proposals in the demo databases, so the approvals view has something
# to decide, each one a fix that makes sense for its target:
# - a requeue: the simulator's dead letters are callbacks for orders nobody created, and a
#   callback for an order that does not exist dies again when replayed. So one such order
#   "reaches checkout late": it is created now, with the callback's amount, and its payment
#   attempt started under the attempt id the callback carries; then the agent proposes to
#   replay the callback, "finance" approves, and a worker round applies it — the order is paid;
# - resolutions (skip, no business effect) of two other dead letters, whose orders never were;
# - confirmations of two payments waiting in paid_unconfirmed.
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
no_order="NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = m.order_ref)"

# The late order: a dead payment success for an order that does not exist, in a currency of two
# decimals (so the decimal amount `order create` takes is plain arithmetic here).
late="$(sqlite3 -separator ' ' "$db" "SELECT m.callback_id, m.channel, m.order_ref, m.attempt_ref,
    m.amount_minor, m.currency FROM callback_messages m WHERE m.status = 'dead'
    AND m.event_kind = 'payment_succeeded' AND m.currency IN ('USD', 'EUR') AND $no_order
    ORDER BY m.id LIMIT 1")"
requeued=""
if [[ -n "$late" ]]; then
    read -r cb channel order attempt minor currency <<<"$late"
    amount="$((minor / 100)).$(printf '%02d' $((minor % 100)))"
    if "$oncepay" "$@" order create --id "$order" --customer cust-late --amount "$amount" \
        --currency "$currency" >/dev/null &&
        "$oncepay" "$@" order pay "$order" --channel "$channel" --expected-version 1 \
            --request-id "$attempt" >/dev/null; then
        propose "${@}" fix propose requeue_message "$cb" --user agent --reason other \
            --comment "the order reached checkout late; it exists now and waits for this payment: replay the callback"
        requeued="$order"
    else
        echo "demo-fixes.sh: could not create the late order $order; no requeue proposed" >&2
    fi
fi
for cb in $(sqlite3 "$db" "SELECT callback_id FROM callback_messages m WHERE status = 'dead' AND $no_order ORDER BY id LIMIT 2"); do
    propose "${@}" fix propose resolve_message "$cb" --user agent --reason poison_message \
        --comment "no order by this id was ever created at checkout; the callback can never apply"
done
for o in $(sqlite3 "$db" "SELECT order_id FROM orders WHERE state = 'paid_unconfirmed' ORDER BY order_id LIMIT 2"); do
    propose "${@}" fix propose confirm_payment "$o" --user agent --reason payment_verified \
        --comment "the channel dashboard shows the capture; amount difference explained by the customer's bank"
done
first="$(sqlite3 "$db" "SELECT id || ' ' || change_sha256 FROM fix_requests WHERE kind = 'requeue_message' ORDER BY id LIMIT 1")"
if [[ -n "$first" ]]; then
    echo finance-demo | "$oncepay" "$@" fix approve "${first%% *}" --user finance --digest "${first#* }" \
        --comment "checked the checkout log: the order is there, paying" >/dev/null 2>&1 || true
    # What a worker would do next: the requeued callback is processed and pays the order.
    "$oncepay" "$@" work --once >/dev/null 2>&1 || true
fi
summary="demo fixes: $(sqlite3 "$db" "SELECT COUNT(*) FROM fix_requests WHERE status = 'open'") waiting for approval"
if [[ -n "$requeued" ]]; then
    state="$(sqlite3 "$db" "SELECT state FROM orders WHERE order_id = '$requeued'")"
    summary+="; the late order $requeued is $state after its callback's requeue"
fi
echo "$summary"
