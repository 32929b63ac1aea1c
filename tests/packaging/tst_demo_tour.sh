#!/usr/bin/env bash
# The demo a newcomer gets from packaging/run.sh (packaging/demo-setup.sh) and the README's
# tour step 2 on it, as written: the month is reconciled (the desk has a finished run, matched
# payments and exceptions), four proposals wait, the README's order has no proposal yet, an
# agent proposes its confirmation, finance approves it once, and the order is paid at the next
# version, caused by that fix; the order the README says has a proposal refuses a second one.
# Usage: tst_demo_tour.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin="$1"; src="$2"
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3 shell (packaging/deps.sh installs it)"; exit 0; }
work="$(mktemp -d /tmp/oncepay-tour.XXXXXX)"
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config"
unset ONCEPAY_CONFIG ONCEPAY_DATA_DIR
data="$XDG_DATA_HOME/oncepay"
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 "$data/orders.db" "$1"; }

"$src/packaging/demo-setup.sh" "$bin" "$data" >"$work/setup.log" 2>&1 || { cat "$work/setup.log"; fail "demo-setup.sh failed"; }

# The Reconciliation desk has the month: a finished run, payments matched, exceptions open.
[[ "$(q "SELECT COUNT(*) FROM reconciliation_runs WHERE status = 'finished'")" -ge 1 ]] ||
    fail "no finished reconciliation run after demo-setup.sh"
[[ "$(q "SELECT COUNT(*) FROM settlement_matches")" -gt 1000 ]] || fail "few payments matched"
[[ "$(q "SELECT COUNT(*) FROM discrepancies WHERE status = 'open'")" -gt 0 ]] || fail "no open exception"
# README: "four open proposals to decide".
[[ "$(q "SELECT COUNT(*) FROM fix_requests WHERE status = 'open'")" == 4 ]] ||
    fail "$(q "SELECT COUNT(*) FROM fix_requests WHERE status = 'open'") open proposals, README says four"
# The audit chain verifies.
"$bin/oncepay" audit verify >/dev/null || fail "audit verify failed on the demo"

# Tour step 2, with the ids the README names.
readme="$src/README.md"
order="$(grep -oE 'fix propose confirm_payment ord-[0-9]+-[0-9]+' "$readme" | head -1 | awk '{print $4}')"
busy="$(grep -oE 'fix propose` on ord-[0-9]+-[0-9]+' "$readme" | head -1 | awk '{print $NF}')"
fix="$(grep -oE 'oncepay fix show [0-9]+' "$readme" | head -1 | awk '{print $4}')"
[[ -n "$order" && -n "$busy" && -n "$fix" ]] || fail "the README's tour step 2 names no order, busy order or fix id"
waiting="$(q "SELECT order_id FROM orders o WHERE state = 'paid_unconfirmed'
   AND NOT EXISTS (SELECT 1 FROM fix_requests f WHERE f.open_target = 'order:' || o.order_id)
   LIMIT 3")"
grep -qx "$order" <<<"$waiting" || fail "$order is not among the README query's orders: $waiting"
version="$(q "SELECT version FROM orders WHERE order_id = '$order'")"

"$bin/oncepay" fix propose confirm_payment "$order" --user agent --reason payment_verified \
    --comment "checked with the channel" <<<agent-demo >"$work/propose.txt" || fail "propose failed"
grep -q "^fix #$fix " "$work/propose.txt" || fail "the proposal is not #$fix: $(head -1 "$work/propose.txt")"
grep -q "^approvals  *0 of 1" "$work/propose.txt" || fail "the proposal needs other than one approval"
"$bin/oncepay" fix list | grep -q "^#$fix  *open  *confirm_payment" || fail "fix list does not show #$fix open"
digest="$("$bin/oncepay" fix show "$fix" | awk '/^digest/ {print $2}')"
"$bin/oncepay" fix approve "$fix" --digest "$digest" --user finance --comment ok <<<finance-demo \
    >/dev/null || fail "approve failed"
shown="$("$bin/oncepay" order show "$order")"
grep -q "^state  *paid$" <<<"$shown" || fail "$order is not paid after fix #$fix"
grep -q "^version  *$((version + 1))$" <<<"$shown" || fail "$order is not at version $((version + 1))"
grep -q "fix:$fix\] by finance" <<<"$shown" || fail "$order's last transition is not caused by fix #$fix"

# The README's busy order: a second proposal is refused, naming the open one.
if "$bin/oncepay" fix propose confirm_payment "$busy" --user agent --reason payment_verified \
    --comment x <<<agent-demo >"$work/busy.txt" 2>&1; then
    fail "a second proposal on $busy was accepted"
fi
grep -q "already has an open proposal (#" "$work/busy.txt" || fail "refusal does not name the open proposal: $(cat "$work/busy.txt")"
echo "PASS: demo set-up reconciled, 4 proposals waiting; tour step 2 paid $order by fix #$fix"
