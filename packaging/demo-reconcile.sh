#!/usr/bin/env bash
# Imports the DEMO month's fee schedule and settlement statements (written by
# `oncepay simulate --demo` beside the demo databases) and reconciles the month, so that the
# Reconciliation desk, the dashboard's open exceptions and the approvals have what a finance
# team sees after a month-end: matched payments, automatic fee corrections and exceptions.
# Demo only. Re-running it changes nothing (imports of known files and re-runs are no-ops).
# Usage: packaging/demo-reconcile.sh path/to/oncepay path/to/orders.db path/to/demo-dir [oncepay options]
set -euo pipefail
oncepay="$1"; db="$2"; demo="$3"; shift 3
if ! command -v sqlite3 >/dev/null || [[ ! -f "$db" || ! -d "$demo/statements" ]]; then
    echo "demo-reconcile.sh: no SQLite demo database or demo statements found; skipped" >&2; exit 0
fi
"$oncepay" "$@" fees import "$demo/fee_schedule.csv" >/dev/null
for ch in paypal:STL stripe:stripe_ kakaopay:kakaopay_ fedapay:fedapay_; do
    files=("$demo/statements/${ch#*:}"*)
    [[ -e "${files[0]}" ]] || continue
    "$oncepay" "$@" settlement import --channel "${ch%%:*}" "${files[@]}" >/dev/null
done
# The demo's 30 days straddle two calendar months: reconcile from its first capture's day to
# its last capture's.
first="$(sqlite3 "$db" 'SELECT MIN(captured_at) FROM payments')"
last="$(sqlite3 "$db" 'SELECT MAX(captured_at) FROM payments')"
[[ -n "$first" && -n "$last" ]] || exit 0
"$oncepay" "$@" reconcile --from "$(date -u -d "@$((first / 1000))" +%F)" \
    --to "$(date -u -d "@$((last / 1000))" +%F)" >/dev/null
