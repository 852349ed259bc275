#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks: no TCP, a Unix
# socket in the cluster's own directory, fsync on (the tests check durability).
#
#   scripts/pg-cluster.sh start DIR        initdb (as the postgres user when run as root) into DIR/data,
#                                          start it with its socket in DIR; prints the URL of database "postgres"
#   scripts/pg-cluster.sh createdb DIR NAME creates database NAME; prints its URL
#   scripts/pg-cluster.sh url DIR [NAME]   prints the URL (default database "postgres")
#   scripts/pg-cluster.sh stop DIR [MODE]  pg_ctl stop -m MODE (fast; immediate for a crash); DIR is kept
#   scripts/pg-cluster.sh restart DIR      starts a stopped cluster again (the same data)
#
# DIR must not exist for start (or be empty). The URL is
# postgresql://postgres@/NAME?host=DIR: libpq connects over DIR/.s.PGSQL.5432.
set -euo pipefail

PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
[ -x "$PG_BIN/initdb" ] || { echo "pg-cluster: PostgreSQL is not installed (bash scripts/setup.sh)" >&2; exit 1; }

as_postgres() {  # runs a command as the cluster's owner
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

url() { echo "postgresql://postgres@/${2:-postgres}?host=$1"; }

start_server() {
  local dir=$1
  as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=on -c max_connections=200" start >/dev/null
}

command=${1:-}
dir=${2:-}
[ -n "$dir" ] || { echo "usage: pg-cluster.sh start|createdb|url|stop|restart DIR [...]" >&2; exit 2; }
case "$command" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
    chmod 700 "$dir"
    as_postgres "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    start_server "$dir" || { cat "$dir/server.log" >&2; exit 1; }
    url "$dir"
    ;;
  createdb)
    name=${3:?database name}
    as_postgres "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$(url "$dir")" -c "CREATE DATABASE \"$name\"" >/dev/null
    url "$dir" "$name"
    ;;
  url) url "$dir" "${3:-}" ;;
  stop) as_postgres "$PG_BIN/pg_ctl" -D "$dir/data" -m "${3:-fast}" -w -t 30 stop >/dev/null ;;
  restart) start_server "$dir" || { cat "$dir/server.log" >&2; exit 1; } ;;
  *) echo "pg-cluster: unknown command $command" >&2; exit 2 ;;
esac
