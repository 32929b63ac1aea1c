#!/bin/sh
# Load test of `oncepay gateway` (issue 7): 20,000 signed requests at concurrency 32 with
# 30 % duplicates, group commit versus one commit per request, per engine.
#   tests/bench/gateway_load.sh [BUILD_DIR] [ENGINE...]     (default build/release sqlite)
# PostgreSQL/MariaDB need ONCEPAY_TEST_PG_* / ONCEPAY_TEST_MYSQL_* as packaging/test.sh sets.
set -eu
build=${1:-build/release}
[ $# -gt 0 ] && shift
engines=${*:-sqlite}
cmake --build "$build" --target oncepay oncepay_gateway_load >/dev/null
export ONCEPAY_BIN_DIR="$build/bin"
status=0
for engine in $engines; do
    "$build/bin/oncepay_gateway_load" --engine "$engine" --requests "${REQUESTS:-20000}" \
        --concurrency "${CONCURRENCY:-32}" --duplicates 0.3 || status=1
    "$build/bin/oncepay_gateway_load" --engine "$engine" --requests "${REQUESTS:-20000}" \
        --concurrency "${CONCURRENCY:-32}" --duplicates 0.3 --max-batch 1 --batch-wait-ms 0 || status=1
done
exit $status
