#!/usr/bin/env bash
# Prepares the DEMO databases with the real engine: a simulated month of payments
# (`oncepay simulate --demo`), the demo staff accounts, the month's statements imported and
# reconciled, a few fix proposals for the approvals, and the demo's audited events shipped into
# the audit chain and sealed — what `packaging/run.sh` does on a first start, and what the
# README's tour (and tests/packaging/tst_demo_tour.sh) begin from. Demo only (public passwords).
# Usage: packaging/demo-setup.sh path/to/bin-dir path/to/data-dir
#   (the data dir the configuration names: $XDG_DATA_HOME/oncepay by default)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$1"; data_dir="$2"
echo "demo-setup: creating the demo databases with the real engine (oncepay simulate --demo)…"
"$bin/oncepay" simulate --demo || echo "demo-setup: the simulation reported a problem (see above); going on" >&2
"$here/demo-accounts.sh" "$bin/oncepay"
# The month's settlement statements imported and reconciled, as finance would at month-end.
"$here/demo-reconcile.sh" "$bin/oncepay" "$data_dir/orders.db" "$data_dir/demo" ||
    echo "demo-setup: the demo reconciliation reported a problem (see above); going on" >&2
"$here/demo-fixes.sh" "$bin/oncepay" "$data_dir/orders.db" || true
# What the workers would have done by now: ship the demo's audited events (fixes,
# reconciliation, imports, sign-ins) from the outbox into the audit chain, and seal it.
# A failure leaves them in the outbox (the Audit trail says so).
# The seal's own record (an audit.sealed event in the orders database) is shipped after it.
if ! "$bin/oncepay" audit ship || ! "$bin/oncepay" audit seal --actor demo-setup ||
    ! "$bin/oncepay" audit ship; then
    echo "demo-setup: could not ship or seal the demo's audit events; they stay in the outbox (run 'oncepay audit ship' later)" >&2
fi
