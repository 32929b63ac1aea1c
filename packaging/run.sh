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
# Embedded databases live in $XDG_DATA_HOME/oncepay unless a configuration says otherwise.
"$bin/oncepay" db migrate
if [[ -x "$bin/oncepay" ]] && "$bin/oncepay" --help | grep -q '^  simulate'; then
    if [[ "$("$bin/oncepay" demo status 2>/dev/null || true)" != "present" ]]; then
        echo "run.sh: creating the demo databases with the real engine (oncepay simulate)…"
        "$bin/oncepay" simulate --demo
    fi
fi
"$bin/oncepay" db check

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
    echo "run.sh: no display; run it as 'xvfb-run -a packaging/run.sh' on a headless machine" >&2
    exit 1
fi
exec "$bin/oncepay-console" "$@"
