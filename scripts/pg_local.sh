#!/usr/bin/env bash
# A throwaway PostgreSQL server in a folder, on loopback, for kgen's tests and benchmarks (docs/scale-out.md):
#   scripts/pg_local.sh start DIR [PORT]   initdb (if DIR has no cluster) and start; prints the store URL
#   scripts/pg_local.sh stop DIR           stop it (fast shutdown)
# The server runs as an unprivileged user: the caller, or `nobody` when the caller is root (PostgreSQL refuses root).
# Trust authentication on 127.0.0.1 only: for tests, never for a shared store (use a password or certificates there).
set -euo pipefail
cmd=${1:?usage: pg_local.sh start|stop DIR [PORT]}
dir=${2:?usage: pg_local.sh start|stop DIR [PORT]}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "pg_local.sh: no PostgreSQL server here (Debian: apt-get install postgresql)" >&2
  exit 2
fi
as=()
if [ "$(id -u)" = 0 ]; then as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --); fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ "$(id -u)" = 0 ]; then chown nobody:nogroup "$dir"; fi
case "$cmd" in
  start)
    port=${3:-$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      "${as[@]}" "$bin/initdb" -D "$dir/data" -U kgen --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2; exit 1; }
    fi
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on" start >/dev/null || {
      tail -20 "$dir/server.log" >&2; exit 1; }
    "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U kgen kgen 2>/dev/null || true
    echo "$port" > "$dir/port"
    echo "postgresql://kgen@127.0.0.1:$port/kgen"
    ;;
  stop)
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  *)
    echo "pg_local.sh: unknown command '$cmd' (start or stop)" >&2
    exit 2
    ;;
esac
