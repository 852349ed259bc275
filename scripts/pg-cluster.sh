#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests: Unix socket only (no TCP), in a
# directory of its own, fsync on (the durability the tests check is real).
#
#   scripts/pg-cluster.sh start DIR          initdb into DIR/data (if absent) and start;
#                                            prints the URL of its "postgres" database
#   scripts/pg-cluster.sh stop DIR           stop it (immediate: it is thrown away)
#   scripts/pg-cluster.sh url DIR [DB]       the URL of DB (default postgres)
#   scripts/pg-cluster.sh createdb DIR NAME  create database NAME; prints its URL
#
# As root (CI), the cluster belongs to the postgres user (PostgreSQL refuses
# to run as root): DIR is given to it. Otherwise it runs as the caller.
# initdb and pg_ctl are found under /usr/lib/postgresql/*/bin (Debian's postgresql).
set -euo pipefail

usage() {
  sed -n '2,13p' "$0" >&2
  exit 2
}
[ $# -ge 2 ] || usage
command=$1
dir=$(realpath -m "$2")

bin=""
for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then bin=$candidate; break; fi
done
if [ -z "$bin" ]; then
  echo "pg-cluster: no initdb/pg_ctl under /usr/lib/postgresql/*/bin (install postgresql: bash scripts/setup.sh)" >&2
  exit 1
fi

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

user() { if [ "$(id -u)" -eq 0 ]; then echo postgres; else id -un; fi; }
url() { echo "postgresql:///${1:-postgres}?host=$dir&user=$(user)"; }

case "$command" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
      chown postgres: "$dir"
      chmod 700 "$dir"
      if ! runuser -u postgres -- test -x "$dir"; then
        echo "pg-cluster: the postgres user cannot enter $dir (a parent directory is private to root):" \
          "give a directory such as \$(mktemp -d /tmp/pg-XXXXXX)" >&2
        exit 1
      fi
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -A trust -U "$(user)" --no-instructions >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # -w: wait until it accepts connections. fsync stays on (the default).
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir -c listen_addresses='' -c fsync=on -c max_connections=200" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    url postgres
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    fi
    ;;
  url)
    url "${3:-postgres}"
    ;;
  createdb)
    [ $# -ge 3 ] || usage
    as_owner "$bin/createdb" -h "$dir" -U "$(user)" "$3"
    url "$3"
    ;;
  *) usage ;;
esac
