#!/usr/bin/env bash
# Builds OncePay and runs every test with ctest, against the embedded SQLite and against a
# throw-away PostgreSQL and MariaDB that this script starts on loopback (non-default ports,
# data under a temporary folder) and always stops again, pass or fail.
# Usage: packaging/test.sh [extra ctest arguments]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

"$here/deps.sh" test

jobs="${ONCEPAY_JOBS:-2}"
build_dir="$root/build/release"
cmake --preset release -DONCEPAY_BUILD_TESTS=ON >/dev/null
cmake --build "$build_dir" -j "$jobs"

# ---- throw-away database servers -------------------------------------------------------
work="$(mktemp -d /tmp/oncepay-test.XXXXXX)"
chmod 755 "$work"
pg_port="${ONCEPAY_TEST_PG_PORT_WANTED:-55432}"
my_port="${ONCEPAY_TEST_MYSQL_PORT_WANTED:-53306}"
password="oncepay-test-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
pg_pid=""
my_pid=""

# PostgreSQL refuses to run as root; MariaDB wants an explicit user. As root we run both as
# their packages' system users; otherwise as ourselves.
if [[ $(id -u) -eq 0 ]]; then
    pg_user=postgres
    my_user=mysql
    as_pg() { runuser -u postgres -- "$@"; }
else
    pg_user="$(id -un)"
    my_user="$(id -un)"
    as_pg() { "$@"; }
fi

stop_servers() {
    local rc=$?
    if [[ -n "$pg_pid" ]]; then
        as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || kill "$pg_pid" 2>/dev/null || true
    fi
    if [[ -n "$my_pid" ]]; then
        kill "$my_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$my_pid" 2>/dev/null || break; sleep 0.2; done
    fi
    rm -rf "$work"
    exit $rc
}
trap stop_servers EXIT INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
while ! port_free "$pg_port"; do pg_port=$((pg_port + 1)); done
while ! port_free "$my_port"; do my_port=$((my_port + 1)); done

pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
mkdir -p "$work/pg"
chown "$pg_user" "$work/pg"
printf '%s\n' "$password" > "$work/pgpass"
chown "$pg_user" "$work/pgpass"
as_pg "$pg_bin/initdb" -D "$work/pg" -U oncepay --pwfile="$work/pgpass" --auth=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$work/pg-initdb.log" 2>&1 || { cat "$work/pg-initdb.log"; exit 1; }
as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -c port=$pg_port -c unix_socket_directories=$work/pg \
        -c max_connections=200 -c fsync=on -c shared_buffers=64MB" >/dev/null \
    || { cat "$work/pg/server.log"; exit 1; }
pg_pid="$(head -1 "$work/pg/postmaster.pid")"
echo "test.sh: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port"

mkdir -p "$work/my"
chown "$my_user" "$work/my"
mariadb-install-db --no-defaults --datadir="$work/my/data" --user="$my_user" \
    --auth-root-authentication-method=normal --skip-test-db >"$work/my-install.log" 2>&1 \
    || { cat "$work/my-install.log"; exit 1; }
mariadbd --no-defaults --datadir="$work/my/data" --user="$my_user" --bind-address=127.0.0.1 \
    --port="$my_port" --socket="$work/my/mysqld.sock" --pid-file="$work/my/mysqld.pid" \
    --log-error="$work/my/server.log" --max-connections=300 --innodb-buffer-pool-size=128M \
    --skip-name-resolve &
my_pid=$!
for _ in $(seq 1 150); do
    if mariadb --no-defaults -uroot --socket="$work/my/mysqld.sock" -e 'SELECT 1' >/dev/null 2>&1; then break; fi
    kill -0 "$my_pid" 2>/dev/null || { cat "$work/my/server.log"; exit 1; }
    sleep 0.2
done
mariadb --no-defaults -uroot --socket="$work/my/mysqld.sock" <<SQL
CREATE USER 'oncepay'@'127.0.0.1' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON *.* TO 'oncepay'@'127.0.0.1' WITH GRANT OPTION;
SET GLOBAL log_bin_trust_function_creators = 1;
SQL
echo "test.sh: MariaDB $(mariadbd --version | awk '{print $3}') on 127.0.0.1:$my_port"

export ONCEPAY_TEST_PG_HOST=127.0.0.1 ONCEPAY_TEST_PG_PORT="$pg_port" \
       ONCEPAY_TEST_PG_USER=oncepay ONCEPAY_TEST_PG_PASSWORD="$password"
export ONCEPAY_TEST_MYSQL_HOST=127.0.0.1 ONCEPAY_TEST_MYSQL_PORT="$my_port" \
       ONCEPAY_TEST_MYSQL_USER=oncepay ONCEPAY_TEST_MYSQL_PASSWORD="$password"
export QT_QPA_PLATFORM=offscreen
# Tests never touch the real user's configuration or data.
export XDG_CONFIG_HOME="$work/xdg-config" XDG_DATA_HOME="$work/xdg-data"

cd "$build_dir"
ctest --output-on-failure -j "$jobs" "$@"

# ---- the Debian package: build, lintian, apt-get install, smoke test, remove, purge -------
# Needs root or password-less sudo; packaging/debcheck.sh says so loudly when it has neither.
cd "$root"
deb_started=$SECONDS
"$here/debcheck.sh" "$build_dir"
echo "test.sh: the .deb cycle took $((SECONDS - deb_started)) s; everything took ${SECONDS} s"
