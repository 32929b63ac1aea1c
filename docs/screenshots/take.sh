#!/usr/bin/env bash
# Takes the console's screenshots in English and 简体中文 from the real program on the
# simulator's demo databases. Demo only: the accounts and passwords below are the demo ones.
# Usage: docs/screenshots/take.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${1:-$root/build/release}/bin"
out="$root/docs/screenshots"
work="$(mktemp -d /tmp/oncepay-shots.XXXXXX)"
trap 'rm -rf "$work"' EXIT
printf '[general]\ndata_dir = %s/data\n' "$work" > "$work/oncepay.ini"
export XDG_CONFIG_HOME="$work/xdg"   # fresh window geometry, no remembered view

"$bin/oncepay" --config "$work/oncepay.ini" simulate --demo >/dev/null || true
# The simulator creates the demo accounts; make sure the one used here exists.
echo finance-demo | "$bin/oncepay" --config "$work/oncepay.ini" staff add finance --role finance \
    --password-stdin >/dev/null 2>&1 || true
# Something for the write side to show: the month's statements imported and reconciled, and a
# few fix proposals waiting for approval.
cfg=(--config "$work/oncepay.ini")
"$bin/oncepay" "${cfg[@]}" fees import "$work/data/demo/fee_schedule.csv" >/dev/null
for ch in paypal:STL stripe:stripe_ kakaopay:kakaopay_ fedapay:fedapay_; do
    "$bin/oncepay" "${cfg[@]}" settlement import --channel "${ch%%:*}" \
        "$work/data/demo/statements/${ch#*:}"* >/dev/null
done
first="$(sqlite3 "$work/data/orders.db" 'SELECT MIN(captured_at) FROM payments')"
month="$(date -u -d "@$((first / 1000))" +%Y-%m-01)"
"$bin/oncepay" "${cfg[@]}" reconcile --from "$month" \
    --to "$(date -u -d "$month +1 month -1 day" +%Y-%m-%d)" >/dev/null || true
"$root/packaging/demo-fixes.sh" "$bin/oncepay" "$work/data/orders.db" "${cfg[@]}" >/dev/null
# An order with a rollback, a stale late success and money to refund.
order="$(sqlite3 "$work/data/orders.db" 'SELECT order_id FROM refund_obligations ORDER BY id LIMIT 1')"

shot() { # NAME LANG ARGS...   (signs in as $user, default finance)
    local name="$1" lang="$2" who="${user:-finance}"; shift 2
    echo "$who-demo" | xvfb-run -a -s "-screen 0 1400x900x24" "$bin/oncepay-console" \
        --config "$work/oncepay.ini" --lang "$lang" --user "$who" --password-stdin \
        --screenshot "$out/$name" "$@" >/dev/null 2>&1
}
for l in en zh_CN; do
    s="${l%%_*}"
    shot "dashboard-$s.png" "$l" --view dashboard
    shot "order-$s.png" "$l" --order "$order"
    shot "stuck-$s.png" "$l" --view stuck
    shot "databases-$s.png" "$l" --view databases
    shot "profiles-$s.png" "$l" --view profiles
    shot "approvals-$s.png" "$l" --view approvals
    shot "reconciliation-$s.png" "$l" --view reconciliation
    shot "audit-$s.png" "$l" --view audit
    user=admin shot "admin-$s.png" "$l" --view admin
    echo wrong-password | xvfb-run -a "$bin/oncepay-console" --config "$work/oncepay.ini" --lang "$l" \
        --user finance --password-stdin --screenshot "$out/signin-$s.png" >/dev/null 2>&1
done
echo "screenshots in $out"
