#!/usr/bin/env bash
# Builds and runs the benchmarks: the program against its raw-SQL baseline, side by side,
# medians of several runs. Not part of CI.
#   tests/bench/run.sh [--runs R] [--n N]        SQLite only
#   ONCEPAY_BENCH_SERVERS=1 tests/bench/run.sh   also PostgreSQL and MariaDB (started by
#                                                packaging/test.sh's server set-up)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
cmake --preset release >/dev/null
cmake --build build/release -j "${ONCEPAY_JOBS:-2}" --target oncepay_bench
bench="$root/build/release/bin/oncepay_bench"
export XDG_DATA_HOME="$(mktemp -d)"
"$bench" --engine sqlite "$@"
if [[ -n "${ONCEPAY_TEST_PG_HOST:-}" ]]; then "$bench" --engine postgresql "$@"; fi
if [[ -n "${ONCEPAY_TEST_MYSQL_HOST:-}" ]]; then "$bench" --engine mariadb "$@"; fi
