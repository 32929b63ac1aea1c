#!/usr/bin/env bash
# Audit trail benchmark (issue 9): verify and export a 1,000,000-row hash chain on SQLite,
# beside a plain scan through the same driver (verify) and `sqlite3 -csv` of the same query
# (export); medians side by side.
#   tests/bench/run_audit.sh [--n N] [--runs R] [--dir DIR]
# --dir keeps the generated chain (and its seal key) for the next run. Needs the sqlite3 shell.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="${ONCEPAY_BUILD_DIR:-build/release}"
[[ -d "$build" ]] || cmake --preset release >/dev/null
cmake --build "$build" -j "${ONCEPAY_JOBS:-2}" --target oncepay_bench_audit
command -v sqlite3 >/dev/null || { echo "run_audit.sh: needs the sqlite3 shell" >&2; exit 1; }
export XDG_DATA_HOME="$(mktemp -d)"
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
"$build/bin/oncepay_bench_audit" "$@"
