#!/usr/bin/env bash
# Scale-out benchmark: report ingestion through nginx (the load balancer of
# tests/multinode/nginx.conf.template, round robin) in front of
#   - one node on SQLite (the default store),
#   - 1, 2 and 3 nodes on one PostgreSQL database (a throw-away cluster,
#     scripts/pg-cluster.sh, fsync on),
# in the same run, and the CPU time each report costs on the nodes and on
# PostgreSQL: utime+stime from /proc/<pid>/stat of the node processes and of
# every PostgreSQL process (the postmaster's cutime+cstime counts the backends
# that exited), before and after each wrk run, divided by the reports
# acknowledged. wrk uses bench/ingest/wrk_request.lua. Every configuration
# checks that each report wrk counted as 201 is stored (at most one more per
# connection: those in flight at wrk's deadline).
#
# On a machine with few cores the nodes, PostgreSQL, nginx and wrk share them,
# so requests/s cannot grow with nodes here: the CPU per report is the figure
# that projects (docs/scale-out.md). Bounded in time: about
# 4 configurations x BENCH_ROUNDS x BENCH_DURATION plus start-ups; cleans up.
#
# Environment: DENIABLE_BIN (build/deniable), BENCH_DURATION (5s),
# BENCH_ROUNDS (3), BENCH_THREADS (2), BENCH_CONNECTIONS (64), BENCH_NODES ("1 2 3").
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN="${DENIABLE_BIN:-build/deniable}"
DURATION="${BENCH_DURATION:-5s}"
ROUNDS="${BENCH_ROUNDS:-3}"
THREADS="${BENCH_THREADS:-2}"
CONNECTIONS="${BENCH_CONNECTIONS:-64}"
NODE_COUNTS="${BENCH_NODES:-1 2 3}"
REPORT='{"survey":"demo","version":1,"responses":{"drugs":1,"alcohol":[0,1,0,0,1],"stress":[0,3]}}'
LUA="bench/ingest/wrk_request.lua"
TICKS="$(getconf CLK_TCK)"

for tool in wrk nginx curl psql; do
  command -v "$tool" >/dev/null || { echo "bench/scale-out: $tool is not installed (bash scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "bench/scale-out: $BIN not found: build first (bash scripts/build.sh)" >&2; exit 1; }

WORK="$(mktemp -d /tmp/deniable-scaleout-XXXXXX)"
chmod 755 "$WORK"
PG_DIR="$WORK/pg"
PG_URL=""
NODE_PIDS=()
NGINX_PID=""
cleanup() {
  stop_config
  [ -n "$PG_URL" ] && bash scripts/pg-cluster.sh stop "$PG_DIR" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

stop_config() {
  local pid
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
  NGINX_PID=""
  for pid in "${NODE_PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  NODE_PIDS=()
  return 0
}

wait_for_line() {  # file, pattern: waits (at most 15 s) and prints the line
  for _ in $(seq 150); do
    if grep -m1 -E "$2" "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "bench/scale-out: timed out waiting for \"$2\" in $1:" >&2
  cat "$1" >&2
  return 1
}

free_port() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return 0; fi
  done
  return 1
}

# start_node NAME STORE-ARGS...: one node; appends its pid and port.
start_node() {
  local name=$1 line
  shift
  mkdir -p "$WORK/$name" && chmod 700 "$WORK/$name"
  "$BIN" serve --port 0 --data "$WORK/$name" --web "$WORK/no-web" --quiet "$@" >"$WORK/$name.log" 2>&1 &
  NODE_PIDS+=($!)
  line="$(wait_for_line "$WORK/$name.log" 'listening on http://')"
  NODE_PORTS+=("${line##*:}")
}

start_nginx() {
  local prefix="$WORK/nginx" servers="" port
  rm -rf "$prefix" && mkdir -p "$prefix"
  NGINX_PORT="$(free_port)"
  for port in "${NODE_PORTS[@]}"; do servers+="server 127.0.0.1:$port;"; done
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@WORKERS@|1|g" -e "s|@SERVERS@|$servers|g" \
    tests/multinode/nginx.conf.template >"$prefix/nginx.conf"
  nginx -p "$prefix" -c "$prefix/nginx.conf" -e stderr 2>"$WORK/nginx.log" &
  NGINX_PID=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$NGINX_PORT/api/health" >/dev/null && return 0
    sleep 0.1
  done
  echo "bench/scale-out: nginx did not start:" >&2
  cat "$WORK/nginx.log" >&2
  return 1
}

# CPU ticks (utime+stime) of the given pids; with "children", their reaped children's too (cutime+cstime).
cpu_ticks() {
  local with_children=$1 pid total=0 fields
  shift
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    # Fields after the command name (which may hold spaces): utime is field 14, stime 15, cutime 16, cstime 17.
    fields="$(sed -e 's/^.*) //' "/proc/$pid/stat")" || continue
    total=$((total + $(awk -v c="$with_children" '{ print $12 + $13 + (c ? $14 + $15 : 0) }' <<<"$fields")))
  done
  echo "$total"
}
postgres_ticks() {  # every process of the cluster: the postmaster with its reaped children, and the live ones
  local postmaster
  postmaster="$(head -1 "$PG_DIR/data/postmaster.pid")"
  echo $(($(cpu_ticks 1 "$postmaster") + $(cpu_ticks 0 $(pgrep -P "$postmaster" | tr '\n' ' '))))
}

# The WAL position, and the bytes of WAL written since one (every database of the cluster: only the bench writes).
wal_lsn() { psql -X -A -t "$PG_URL" -c 'SELECT pg_current_wal_lsn()'; }
# Transactions committed in the configuration's database (statistics reach the view within a second: the
# lag at both ends of a run roughly cancels).
commits() { sleep 1; psql -X -A -t "$DATABASE" -c 'SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()'; }
wal_bytes_since() { psql -X -A -t "$PG_URL" -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$1')::bigint"; }

field() { grep -o "$2=[^ ]*" <<<"$1" | cut -d= -f2; }

stored() {  # the demo survey's stored reports in this configuration's store
  if [ "$STORE" = sqlite ]; then
    if command -v sqlite3 >/dev/null; then
      sqlite3 "$WORK/sqlite-0/deniable.sqlite3" "SELECT COUNT(*) FROM reports WHERE survey_id = 'demo'"
    else
      curl -sf -H "Authorization: Bearer $(cat "$WORK/sqlite-0/admin-token")" "http://127.0.0.1:${NODE_PORTS[0]}/api/surveys" |
        grep -o '"id":"demo"[^}]*"respondents":[0-9]*' | grep -o '[0-9]*$'
    fi
  else
    psql -X -A -t "$DATABASE" -c "SELECT count(*) FROM reports WHERE survey_id = 'demo'"
  fi
}

# run_config LABEL STORE NODES: starts the nodes (the first creates the demo survey), nginx, and runs wrk ROUNDS times.
run_config() {
  local label=$1 nodes=$2 i result acked=0 requests non2xx node_before node_after pg_before pg_after wal_before wal_after commits_before commits_after
  STORE=$3
  NODE_PORTS=()
  local args=()
  if [ "$STORE" = postgres ]; then
    DATABASE="$(bash scripts/pg-cluster.sh createdb "$PG_DIR" "scaleout_$nodes")"
    args=(--database "$DATABASE")
  fi
  start_node "$STORE-0" "${args[@]}" --demo examples/demo-survey.json >/dev/null
  for ((i = 1; i < nodes; i++)); do start_node "$STORE-$i" "${args[@]}" >/dev/null; done
  start_nginx
  # Warm-up (connections, caches), not counted.
  WRK_METHOD=POST WRK_BODY="$REPORT" timeout 60 wrk -t"$THREADS" -c"$CONNECTIONS" -d1s -s "$LUA" \
    "http://127.0.0.1:$NGINX_PORT/api/surveys/demo/reports" >/dev/null
  local base
  base="$(stored)"
  for round in $(seq "$ROUNDS"); do
    node_before="$(cpu_ticks 0 "${NODE_PIDS[@]}")"
    [ "$STORE" = postgres ] && pg_before="$(postgres_ticks)" || pg_before=0
    [ "$STORE" = postgres ] && wal_before="$(wal_lsn)" || wal_before=""
    [ "$STORE" = postgres ] && commits_before="$(commits)" || commits_before=0
    result="$(WRK_METHOD=POST WRK_BODY="$REPORT" timeout 120 wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$LUA" \
      "http://127.0.0.1:$NGINX_PORT/api/surveys/demo/reports" | grep '^WRK_RESULT')"
    node_after="$(cpu_ticks 0 "${NODE_PIDS[@]}")"
    [ "$STORE" = postgres ] && pg_after="$(postgres_ticks)" || pg_after=0
    [ "$STORE" = postgres ] && wal_after="$(wal_bytes_since "$wal_before")" || wal_after=0
    [ "$STORE" = postgres ] && commits_after="$(commits)" || commits_after=0
    requests="$(field "$result" requests)"
    non2xx="$(field "$result" non2xx)"
    acked=$((acked + requests - non2xx))
    echo "$label $round $result node_ticks=$((node_after - node_before)) pg_ticks=$((pg_after - pg_before)) wal_bytes=$wal_after commits=$((commits_after - commits_before)) acked=$((requests - non2xx))" >>"$WORK/rows"
  done
  local now extra
  now="$(stored)"
  extra=$((now - base - acked))
  echo "$label: acknowledged $acked, stored $((now - base)) (in flight at wrk's deadlines: $extra)"
  if [ "$extra" -lt 0 ] || [ "$extra" -gt $((CONNECTIONS * ROUNDS)) ]; then
    echo "FAIL: $label: stored reports do not match the acknowledged ones" >&2
    return 1
  fi
  stop_config
}

median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# One row per configuration: the median round's latency figures, and CPU per report over all its rounds.
print_table() {
  printf '%-22s %10s %9s %9s %8s %12s %12s %12s %10s %12s\n' configuration reports/s "mean ms" "p99 ms" non-2xx \
    "node CPU ms" "PG CPU ms" "total CPU ms" "WAL bytes" "PG transac-"
  printf '%-22s %10s %9s %9s %8s %12s %12s %12s %10s %12s\n' "" "(median)" "(median)" "(median)" "(sum)" "per report" "per report" \
    "per report" "per report" "tions/report"
  local label rows rps mean p99
  for label in $(cut -d' ' -f1 "$WORK/rows" | uniq); do
    rows="$(grep "^$label " "$WORK/rows")"
    rps="$(while read -r line; do field "$line" rps; done <<<"$rows" | median)"
    mean="$(while read -r line; do field "$line" mean_ms; done <<<"$rows" | median)"
    p99="$(while read -r line; do field "$line" p99_ms; done <<<"$rows" | median)"
    awk -v ticks="$TICKS" -v label="$label" -v rps="$rps" -v mean="$mean" -v p99="$p99" '
      function f(name,   i, kv) { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] } return 0 }
      { bad += f("non2xx"); node += f("node_ticks"); pg += f("pg_ticks"); wal += f("wal_bytes"); tx += f("commits"); acked += f("acked") }
      END {
        n = acked > 0 ? acked : 1
        per = 1000 / ticks / n
        printf "%-22s %10.0f %9.2f %9.2f %8d %12.3f %12s %12.3f %10s %12s\n", label, rps, mean, p99, bad, node * per,
          (pg > 0 ? sprintf("%.3f", pg * per) : "-"),
          (node + pg) * per, (wal > 0 ? sprintf("%.0f", wal / n) : "-"),
          (tx > 0 ? sprintf("%.2f", tx / n) : "-")
      }' <<<"$rows"
  done
}

echo "bench/scale-out: POST /api/surveys/demo/reports through nginx, wrk -t$THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds, $(nproc) cores, $(psql --version | head -1)"
mkdir -p "$PG_DIR"
PG_URL="$(bash scripts/pg-cluster.sh start "$PG_DIR")"
: >"$WORK/rows"
run_config "SQLite,_1_node" 1 sqlite
for nodes in $NODE_COUNTS; do run_config "PostgreSQL,_${nodes}_node$([ "$nodes" -gt 1 ] && echo s)" "$nodes" postgres; done
echo
print_table | sed 's/_/ /g'
echo
echo "CPU per report: utime+stime (/proc/<pid>/stat, $TICKS ticks/s) over the wrk runs / reports acknowledged;"
echo "nginx and wrk are not counted. WAL bytes: pg_current_wal_lsn() before/after; PG transactions per report:
pg_stat_database.xact_commit (every transaction the nodes ran, reads and single statements included) / reports
acknowledged. Median requests/s of $ROUNDS rounds."
