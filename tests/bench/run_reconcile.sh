#!/usr/bin/env bash
# Reconciliation benchmark (issue 6): 1,000,000 payments against 1,000,000 settlement lines on
# SQLite, end to end, beside parse-only and a single SQL join in the sqlite3 shell.
#   tests/bench/run_reconcile.sh [--n N] [--runs R] [--files F]
# Needs the sqlite3 shell (apt package sqlite3) for the SQL-join baseline.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="${ONCEPAY_BUILD_DIR:-build/release}"
[[ -d "$build" ]] || cmake --preset release >/dev/null
cmake --build "$build" -j "${ONCEPAY_JOBS:-2}" --target oncepay_bench_reconcile
export XDG_DATA_HOME="$(mktemp -d)"
exec "$build/bin/oncepay_bench_reconcile" "$@"
