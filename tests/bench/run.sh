#!/usr/bin/env bash
# Builds and runs the benchmarks: the program against its raw-SQL baseline, side by side,
# medians of several runs. Not part of CI.
#   tests/bench/run.sh [--runs R] [--n N] [--suites ingest,channels,worker]   SQLite only
#   With ONCEPAY_TEST_PG_* / ONCEPAY_TEST_MYSQL_* set (as packaging/test.sh sets them for
#   its throw-away servers) also PostgreSQL and MariaDB.
#   ONCEPAY_BUILD_DIR=build/NAME tests/bench/run.sh  an already configured build directory
#                                                (default: the release preset, build/release)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="${ONCEPAY_BUILD_DIR:-build/release}"
if [[ -z "${ONCEPAY_BUILD_DIR:-}" ]]; then cmake --preset release >/dev/null; fi
cmake --build "$build" -j "${ONCEPAY_JOBS:-2}" --target oncepay_bench
bench="$(cd "$build" && pwd)/bin/oncepay_bench"
export XDG_DATA_HOME="$(mktemp -d)"
"$bench" --engine sqlite "$@"
if [[ -n "${ONCEPAY_TEST_PG_HOST:-}" ]]; then "$bench" --engine postgresql "$@"; fi
if [[ -n "${ONCEPAY_TEST_MYSQL_HOST:-}" ]]; then "$bench" --engine mariadb "$@"; fi
