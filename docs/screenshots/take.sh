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
"$root/packaging/demo-reconcile.sh" "$bin/oncepay" "$work/data/orders.db" "$work/data/demo" "${cfg[@]}"
"$root/packaging/demo-fixes.sh" "$bin/oncepay" "$work/data/orders.db" "${cfg[@]}" >/dev/null
# What the workers would have done: the demo's audited events (imports, reconciliation and its
# corrections, fixes and their sign-ins) shipped from the outbox into the audit chain, and the
# head sealed.
"$bin/oncepay" "${cfg[@]}" audit ship >/dev/null
"$bin/oncepay" "${cfg[@]}" audit seal --actor demo-setup >/dev/null
"$bin/oncepay" "${cfg[@]}" audit ship >/dev/null # the seal's own record
# An order with a rollback, a stale late success and money to refund.
order="$(sqlite3 "$work/data/orders.db" 'SELECT order_id FROM refund_obligations ORDER BY id LIMIT 1')"

width() { od -An -tu1 -j16 -N4 "$1" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}'; }
# NAME LANG PASSWORD ARGS...: the console signed in as $user (default finance) with PASSWORD,
# its window (or the dialog in front) saved as NAME. Fails loudly, with the console's output,
# if it fails or if what was saved is not what was asked for: a view is the main window (or
# the profiles dialog), never the sign-in dialog left by a failed sign-in.
capture() {
    local name="$1" lang="$2" password="$3" who="${user:-finance}"; shift 3
    rm -f "$out/$name"
    if ! echo "$password" | xvfb-run -a -s "-screen 0 1400x900x24" "$bin/oncepay-console" \
        --config "$work/oncepay.ini" --lang "$lang" --user "$who" --password-stdin \
        --screenshot "$out/$name" "$@" >"$work/console.log" 2>&1 || [[ ! -s "$out/$name" ]]; then
        cat "$work/console.log" >&2
        echo "take.sh: $name was not taken" >&2
        exit 1
    fi
    local w; w="$(width "$out/$name")"
    if { [[ "$name" == signin-* ]] && (( w >= 500 )); } ||
        { [[ "$name" != signin-* ]] && (( w < 500 )); }; then
        cat "$work/console.log" >&2
        echo "take.sh: $name is ${w} px wide: not the window asked for" >&2
        exit 1
    fi
}
shot() { capture "$1" "$2" "${user:-finance}-demo" "${@:3}"; } # NAME LANG ARGS...
# The demo's month ended days ago: the dashboard is shot over its 30 days up to the latest
# activity (the range list's fifth entry, chosen as a person would), not the default last 30 days.
mkdir -p "$XDG_CONFIG_HOME/OncePay"
printf '[dashboard]\nrange=4\n' > "$XDG_CONFIG_HOME/OncePay/oncepay-console.conf"
for l in en zh_CN; do
    s="${l%%_*}"
    shot "dashboard-$s.png" "$l" --view dashboard
    shot "order-$s.png" "$l" --order "$order"
    shot "callback-$s.png" "$l" --order "$order" --order-callback 0
    shot "stuck-$s.png" "$l" --view stuck
    shot "databases-$s.png" "$l" --view databases
    shot "profiles-$s.png" "$l" --view profiles
    shot "approvals-$s.png" "$l" --view approvals
    shot "reconciliation-$s.png" "$l" --view reconciliation
    # The sign-ins of the shots above are shipped too; the audit view's own sign-in is the one
    # event it shows as still waiting in the outbox.
    "$bin/oncepay" "${cfg[@]}" audit ship >/dev/null
    shot "audit-$s.png" "$l" --view audit
    user=admin shot "admin-$s.png" "$l" --view admin
    capture "signin-$s.png" "$l" wrong-password # the dialog, saying why
done
echo "screenshots in $out"
