#!/usr/bin/env bash
# Installs what is missing, builds OncePay (Release), prepares the embedded demo databases
# with the real engine if they are absent, and starts the console on them.
# Usage: packaging/run.sh [console arguments, e.g. --lang zh_CN]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

"$here/deps.sh" build

build_dir="$root/build/release"
cmake --preset release >/dev/null
cmake --build "$build_dir" -j "${ONCEPAY_JOBS:-2}"

bin="$build_dir/bin"
# The embedded databases live in $XDG_DATA_HOME/oncepay unless a configuration says otherwise.
# A newcomer's first start gets a simulated month of payments, made by the real engine.
data_dir="${ONCEPAY_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/oncepay}"
config_file="${ONCEPAY_CONFIG:-${XDG_CONFIG_HOME:-$HOME/.config}/oncepay/oncepay.ini}"
if [[ ! -f "$config_file" && ! -f "$data_dir/orders.db" ]]; then
    "$here/demo-setup.sh" "$bin" "$data_dir"
fi
"$bin/oncepay" db migrate
"$bin/oncepay" db check

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
    echo "run.sh: no display; run it as 'xvfb-run -a packaging/run.sh' on a headless machine" >&2
    exit 1
fi
exec "$bin/oncepay-console" "$@"
