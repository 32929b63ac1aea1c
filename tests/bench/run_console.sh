#!/usr/bin/env bash
# Console benchmark (issue 8): a simulated database of 1,000,000 orders (generated once and
# kept), the console's widgets offscreen beside the raw indexed SQL each operation needs.
#   tests/bench/run_console.sh [--n N] [--runs R] [--dir DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="${ONCEPAY_BUILD_DIR:-build/release}"
[[ -d "$build" ]] || cmake --preset release >/dev/null
cmake --build "$build" -j "${ONCEPAY_JOBS:-2}" --target oncepay_bench_console
export XDG_DATA_HOME="$(mktemp -d)" XDG_CONFIG_HOME="$(mktemp -d)"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
exec "$build/bin/oncepay_bench_console" "$@"
