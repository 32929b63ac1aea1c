#!/usr/bin/env bash
# Installs the Debian 12 packages OncePay needs to build, run and test — only those missing.
# Works as root or through sudo. Sourced or run by packaging/run.sh and packaging/test.sh.
#   packaging/deps.sh build     compiler, Qt 6, spdlog, libsodium, OpenSSL, SQL drivers,
#                               rsvg-convert (the icon PNGs of the .deb), the sqlite3 shell
#                               (the demo set-up and the README's tour)
#   packaging/deps.sh test      build + PostgreSQL, MariaDB servers, Xvfb, lintian,
#                               desktop-file-validate, groff (the .deb and man page checks)
set -euo pipefail

BUILD_PACKAGES=(
    build-essential cmake ninja-build pkg-config git ccache
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev libqt6opengl6-dev libgl-dev
    qtkeychain-qt6-dev qt6-translations-l10n
    libqt6sql6-sqlite libqt6sql6-psql libqt6sql6-mysql
    libspdlog-dev libfmt-dev libsodium-dev libssl-dev libsqlite3-dev libpq-dev
    fonts-noto-cjk
    librsvg2-bin
    sqlite3 # the demo set-up (packaging/demo-*.sh) and the README's tour
)
TEST_PACKAGES=(
    postgresql mariadb-server xvfb xauth imagemagick lintian dpkg-dev file
    desktop-file-utils groff-base
)

want=("${BUILD_PACKAGES[@]}")
if [[ "${1:-build}" == "test" ]]; then
    want+=("${TEST_PACKAGES[@]}")
fi

missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "deps: all ${#want[@]} packages present"
    exit 0
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo)
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Servers are started by the test script in temporary directories, never as system services.
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
