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
# An order with a rollback, a stale late success and money to refund.
order="$(sqlite3 "$work/data/orders.db" 'SELECT order_id FROM refund_obligations ORDER BY id LIMIT 1')"

shot() { # NAME LANG ARGS...
    local name="$1" lang="$2"; shift 2
    echo finance-demo | xvfb-run -a -s "-screen 0 1400x900x24" "$bin/oncepay-console" \
        --config "$work/oncepay.ini" --lang "$lang" --user finance --password-stdin \
        --screenshot "$out/$name" "$@" >/dev/null 2>&1
}
for l in en zh_CN; do
    s="${l%%_*}"
    shot "dashboard-$s.png" "$l" --view dashboard
    shot "order-$s.png" "$l" --order "$order"
    shot "stuck-$s.png" "$l" --view stuck
    shot "databases-$s.png" "$l" --view databases
    shot "profiles-$s.png" "$l" --view profiles
    echo wrong-password | xvfb-run -a "$bin/oncepay-console" --config "$work/oncepay.ini" --lang "$l" \
        --user finance --password-stdin --screenshot "$out/signin-$s.png" >/dev/null 2>&1
done
echo "screenshots in $out"
