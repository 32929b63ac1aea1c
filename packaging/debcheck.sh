#!/usr/bin/env bash
# The Debian package, end to end: build it with CPack from a finished build directory,
# check its contents and control fields, run lintian (errors fail, warnings are listed),
# install it with apt-get so its declared dependencies are what gets installed, run the
# installed programs with a fresh configuration as the package's system user, then remove
# and purge it and check that nothing it installed is left.
# Usage: packaging/debcheck.sh BUILD_DIR        (packaging/test.sh calls it after ctest)
# Needs root or password-less sudo; without either it says so and stops (fails under CI).
set -euo pipefail

build_dir="$(cd "${1:?usage: debcheck.sh BUILD_DIR}" && pwd)"
say() { echo "debcheck: $*"; }
die() { echo "debcheck: FAILED: $*" >&2; exit 1; }

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        SUDO=(sudo -n)
    else
        msg="the .deb was NOT installed and tested: installing a package needs root or password-less sudo"
        if [[ "${CI:-}" == "true" ]]; then die "$msg"; fi
        echo "debcheck: SKIPPED — $msg" >&2
        exit 0
    fi
fi
apt_get() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -y "$@"; }

# ---- build ------------------------------------------------------------------------------
out="$build_dir/deb"
rm -rf "$out"
mkdir -p "$out"
say "building the package (cpack -G DEB)"
(cd "$build_dir" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; die "cpack"; }
debs=("$out"/oncepay_*.deb)
[[ ${#debs[@]} -eq 1 && -f "${debs[0]}" ]] || die "expected one oncepay_*.deb in $out"
deb="${debs[0]}"
say "$(basename "$deb"), $(du -h "$deb" | cut -f1)"

# ---- contents and control fields ----------------------------------------------------------
contents="$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')"
expect_files=(
    /usr/bin/oncepay /usr/bin/oncepay-console
    /usr/share/man/man1/oncepay.1.gz /usr/share/man/man1/oncepay-console.1.gz
    /usr/share/applications/oncepay-console.desktop
    /usr/share/icons/hicolor/scalable/apps/oncepay-console.svg
    /usr/lib/systemd/system/oncepay-gateway.service /usr/lib/systemd/system/oncepay-worker.service
    /usr/share/doc/oncepay/copyright /usr/share/doc/oncepay/changelog.Debian.gz
    /usr/share/doc/oncepay/README.md /usr/share/doc/oncepay/examples/oncepay.ini
    /usr/share/oncepay/sql/postgresql-roles.sql /usr/share/oncepay/sql/mysql-roles.sql
)
for size in 16 22 24 32 48 64 128 256; do
    expect_files+=("/usr/share/icons/hicolor/${size}x${size}/apps/oncepay-console.png")
done
for f in "${expect_files[@]}"; do
    grep -qxF "$f" <<<"$contents" || die "the package lacks $f"
done
depends="$(dpkg-deb -f "$deb" Depends)"
for d in libqt6sql6-sqlite libqt6sql6-psql libqt6sql6-mysql libqt6core6 libsodium adduser; do
    grep -q "$d" <<<"$depends" || die "Depends lacks $d: $depends"
done
grep -q fonts-noto-cjk <<<"$(dpkg-deb -f "$deb" Recommends)" || die "Recommends lacks fonts-noto-cjk"
say "contents and dependencies as expected (${#expect_files[@]} files checked)"
say "Depends: $depends"

# ---- lintian: errors fail, warnings are listed ---------------------------------------------
if command -v lintian >/dev/null; then
    say "lintian"
    set +e
    lintian --fail-on error --display-level ">=warning" "$deb" 2>&1 | grep -v "running with root privileges" | tee "$out/lintian.txt"
    lintian_rc=${PIPESTATUS[0]}
    set -e
    [[ $lintian_rc -eq 0 ]] || die "lintian reported errors (above)"
    say "lintian: no errors, $(grep -c '^W:' "$out/lintian.txt" || true) warning(s)"
else
    die "lintian not installed (packaging/deps.sh test installs it)"
fi

# ---- install with apt, so the declared dependencies are what gets installed ---------------
if dpkg-query -W -f='${Status}' oncepay 2>/dev/null | grep -q "install ok installed"; then
    say "removing an oncepay package left from an earlier run"
    apt_get purge oncepay >/dev/null
fi
say "apt-get install $(basename "$deb")"
# apt reads a local file as its unprivileged user when it can; a copy in /tmp it can read.
staged="$(mktemp -d /tmp/oncepay-deb.XXXXXX)"
cleanup() { "${SUDO[@]}" rm -rf "$staged"; }
trap cleanup EXIT
cp "$deb" "$staged/"
chmod 755 "$staged"
chmod 644 "$staged"/*.deb
apt_get install "$staged/$(basename "$deb")" >"$out/apt-install.log" 2>&1 || { cat "$out/apt-install.log"; die "apt-get install"; }
installed_files="$(dpkg -L oncepay | while read -r p; do [[ -f "$p" || -L "$p" ]] && echo "$p"; done)"
[[ -n "$installed_files" ]] || die "dpkg -L oncepay lists no files"

# ---- smoke test from the installed paths, as the package's own user ----------------------
getent passwd oncepay >/dev/null || die "postinst did not create the oncepay system user"
for d in /var/lib/oncepay /var/log/oncepay /etc/oncepay; do
    [[ -d "$d" ]] || die "postinst did not create $d"
done
for bin in /usr/bin/oncepay /usr/bin/oncepay-console; do
    if ldd "$bin" | grep -q "not found"; then ldd "$bin" | grep "not found"; die "$bin: missing libraries"; fi
done
smoke="$staged/smoke"
mkdir -p "$smoke"
cat >"$smoke/oncepay.ini" <<INI
[general]
data_dir = $smoke/data

[log]
file = $smoke/oncepay.log
INI
"${SUDO[@]}" chown -R oncepay:oncepay "$smoke"
as_oncepay() {
    "${SUDO[@]}" runuser -u oncepay -- env -i PATH=/usr/bin:/bin HOME="$smoke" \
        XDG_CONFIG_HOME="$smoke/xdg-config" XDG_DATA_HOME="$smoke/xdg-data" "$@"
}
version="$(as_oncepay /usr/bin/oncepay --version)"
echo "$version" | sed 's/^/    /'
for driver in QSQLITE QPSQL QMYSQL; do
    grep -q "$driver" <<<"$version" || die "the installed oncepay lacks the $driver driver (Depends?)"
done
as_oncepay /usr/bin/oncepay --config "$smoke/oncepay.ini" db migrate | sed 's/^/    /'
as_oncepay /usr/bin/oncepay --config "$smoke/oncepay.ini" db check | sed 's/^/    /'
say "oncepay simulate --orders 40 --days 2 (installed program, fresh configuration)"
if ! as_oncepay /usr/bin/oncepay --config "$smoke/oncepay.ini" simulate --orders 40 --days 2 \
        --seed 7 --out "$smoke/sim" >"$out/simulate.log" 2>&1; then
    cat "$out/simulate.log"
    die "oncepay simulate from the installed package"
fi
grep -v "orders$" "$out/simulate.log" | tail -4 | sed 's/^/    /'
[[ -f "$smoke/data/orders.db" ]] || die "no orders.db in the fresh data directory"
as_oncepay env QT_QPA_PLATFORM=offscreen /usr/bin/oncepay-console --version | sed 's/^/    /'
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate /usr/share/applications/oncepay-console.desktop
fi
if command -v systemd-analyze >/dev/null; then
    for unit in oncepay-gateway oncepay-worker; do
        verify="$(systemd-analyze verify "/usr/lib/systemd/system/$unit.service" 2>&1 || true)"
        # (A missing man-db makes it complain about Documentation=man:…; that is not a unit error.)
        if grep -qiE "unknown (key|lvalue|section)|invalid|failed to parse|bad-setting|not executable" <<<"$verify"; then
            echo "$verify"; die "systemd-analyze verify $unit.service"
        fi
    done
    say "systemd units verified"
fi
say "installed programs work"

# ---- remove, purge, nothing left ----------------------------------------------------------
apt_get remove oncepay >"$out/apt-remove.log" 2>&1 || { cat "$out/apt-remove.log"; die "apt-get remove"; }
[[ ! -e /usr/bin/oncepay && ! -e /usr/bin/oncepay-console ]] || die "programs left after remove"
apt_get purge oncepay >"$out/apt-purge.log" 2>&1 || { cat "$out/apt-purge.log"; die "apt-get purge"; }
if dpkg-query -W -f='${Status}' oncepay 2>/dev/null | grep -q "installed"; then
    die "oncepay still known to dpkg after purge"
fi
left=0
while read -r f; do
    if [[ -e "$f" || -L "$f" ]]; then echo "    left behind: $f"; left=1; fi
done <<<"$installed_files"
for d in /var/log/oncepay /var/lib/oncepay /etc/oncepay; do
    if [[ -e "$d" ]]; then echo "    left behind: $d"; left=1; fi
done
[[ $left -eq 0 ]] || die "files left after purge"
say "removed and purged cleanly"
