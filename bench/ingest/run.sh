#!/usr/bin/env bash
# Ingestion benchmark on loopback. Starts `deniable serve` (temp data dir, demo
# survey) and an nginx serving a static copy of the results document, then
# runs wrk against:
#   (a) POST /api/surveys/demo/reports   durable: each 201 is committed to SQLite
#   (b) nginx, the static file            a ceiling for HTTP on this machine
#   (c) GET /api/surveys/demo/results     estimation from the in-memory aggregate
# prints requests/s, mean and p99 latency and non-2xx counts, the ratio of
# durable reports to nginx's static requests per second (the same run, the
# same machine: the ratio is the figure to compare across machines), and
# checks that every 201 wrk counted is a stored report. Bounded in time;
# cleans up.
#
# The POST and nginx runs alternate, BENCH_ROUNDS times per connection count,
# and the ratio printed is the median of the rounds' ratios with its range:
# on a virtual machine the disk's flush time drifts from second to second
# (a 4 KiB write+fdatasync took 270-510 us in one-second windows here), and
# one pair of runs moved the ratio by +-0.1. The flush time measured in the
# same run is printed too (dd oflag=dsync), since durable ingestion at 16
# connections is bounded by it and nginx's static file is not.
#
# BENCH_SURVEY=invitation measures an invitation survey instead: for each
# binary in DENIABLE_BINS (default DENIABLE_BIN), a fresh server, an
# invitation copy of the demo survey and BENCH_INVITED unique pre-issued
# headers (bench/ingest/invitation_headers.mjs: X-Invitation-Code for a
# binary before blind tokens, X-Invitation-Token for one with them), then
# wrk POSTs reports, each with its own header, BENCH_ROUNDS times per
# connection count, each run with its share of the headers (it ends at
# BENCH_DURATION or when they are used up; requests/s counts 201s only);
# one table for all binaries, and the durability check (every 201 stored)
# for each.
#
# DENIABLE_BINS="old/deniable build/deniable" (default DENIABLE_BIN) puts
# binaries side by side in one run: each gets its own server and data
# directory, every round runs each binary's POSTs and then nginx, and the
# closing table gives, per binary and connection count, the median reports/s,
# nginx's median requests/s, the median of the rounds' ratios, and the
# server's CPU time per stored report: the process's user+system time
# (/proc/PID/stat) over the POST run divided by the reports stored in it,
# which the machine's other load moves far less than requests/s.
#
# Environment: DENIABLE_BIN (default build/deniable), BENCH_DURATION (5s),
# BENCH_ROUNDS (3), BENCH_THREADS (2), BENCH_CONNECTIONS ("16 64": each count
# gets POST and nginx runs; group commit puts more reports in one fsync when
# more clients send at once, nginx gains nothing from more connections on 2
# cores).
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN="${DENIABLE_BIN:-build/deniable}"
DURATION="${BENCH_DURATION:-5s}"
ROUNDS="${BENCH_ROUNDS:-3}"
THREADS="${BENCH_THREADS:-2}"
CONNECTION_COUNTS="${BENCH_CONNECTIONS:-16 64}"
CONNECTIONS=""
REPORT='{"survey":"demo","version":1,"responses":{"drugs":1,"alcohol":[0,1,0,0,1],"stress":[0,3]}}'
LUA="bench/ingest/wrk_request.lua"

for tool in wrk nginx curl; do
  command -v "$tool" >/dev/null || { echo "bench/ingest: $tool is not installed (bash scripts/setup.sh)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "bench/ingest: $BIN not found: build first (bash scripts/build.sh)" >&2; exit 1; }

WORK="$(mktemp -d /tmp/deniable-bench-XXXXXX)"
SERVER_PID=""
NGINX_PID=""
declare -a PIDS=()
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# Waits (at most 10 s) for a line matching $2 in file $1, and prints it.
wait_for_line() {
  for _ in $(seq 100); do
    if grep -m1 -E "$2" "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "bench/ingest: timed out waiting for \"$2\" in $1:" >&2
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

start_deniable() {
  local data="${DATA_DIR:-$WORK/data}"
  mkdir -p "$data" && chmod 700 "$data"
  "$BIN" serve --port 0 --data "$data" --web "$WORK/no-web" --demo examples/demo-survey.json --quiet \
    >"$data.log" 2>&1 &
  SERVER_PID=$!
  local line
  line="$(wait_for_line "$data.log" 'listening on http://')"
  SERVER_URL="${line#listening on }"
}

start_nginx() {
  local prefix="$WORK/nginx"
  NGINX_PORT="$(free_port)"
  mkdir -p "$prefix/www"
  curl -sf "$SERVER_URL/api/surveys/demo/results" >"$prefix/www/results.json"
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@PORT@|$NGINX_PORT|g" bench/ingest/nginx.conf.template >"$prefix/nginx.conf"
  chmod -R a+rX "$WORK"  # nginx workers run as an unprivileged user
  chmod 700 "$WORK"/data*/
  nginx -p "$prefix" -c "$prefix/nginx.conf" -e stderr 2>"$WORK/nginx.log" &
  NGINX_PID=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$NGINX_PORT/results.json" >/dev/null && return 0
    sleep 0.1
  done
  echo "bench/ingest: nginx did not start:" >&2
  cat "$WORK/nginx.log" >&2
  return 1
}

# run_wrk NAME URL [METHOD BODY]: one wrk run; appends a row to $WORK/rows.
run_wrk() {
  local name="$1" url="$2" method="${3:-GET}" body="${4:-}" output
  output="$(WRK_METHOD="$method" WRK_BODY="$body" timeout 120 \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$LUA" "$url")"
  local result
  result="$(grep '^WRK_RESULT' <<<"$output")" || { echo "$output" >&2; return 1; }
  echo "$name $result" >>"$WORK/rows"
}

field() { grep -o "$2=[^ ]*" <<<"$1" | cut -d= -f2; }

print_table() {
  printf '%-84s %12s %12s %12s %9s\n' target requests/s "mean (ms)" "p99 (ms)" non-2xx
  while read -r name result; do
    printf '%-84s %12s %12s %12s %9s\n' "${name//_/ }" "$(field "$result" rps)" "$(field "$result" mean_ms)" \
      "$(field "$result" p99_ms)" "$(field "$result" non2xx)"
  done <"$WORK/rows"
}

# The disk's flush time now: 4 KiB writes, each synced before the next (dd
# oflag=dsync), over a file that exists already, as SQLite rewrites its
# write-ahead log in place (appending costs more: the size changes too).
print_flush_time() {
  local count=500 seconds
  LC_ALL=C dd if=/dev/zero of="$WORK/flush-probe" bs=4k count=$count 2>/dev/null && sync "$WORK/flush-probe"
  seconds="$( { LC_ALL=C dd if=/dev/zero of="$WORK/flush-probe" bs=4k count=$count oflag=dsync conv=notrunc 2>&1 >/dev/null; } |
    sed -n 's/.* copied, \([0-9.e-]*\) s,.*/\1/p')"
  rm -f "$WORK/flush-probe"
  [ -n "$seconds" ] || return 0
  FLUSH_US="$(awk -v s="$seconds" -v n=$count 'BEGIN { printf "%.0f", s / n * 1e6 }')"
  echo "disk flush: a 4 KiB synchronous write takes $FLUSH_US us here now (dd oflag=dsync conv=notrunc, $count writes)"
  return 0
}

stored_reports() {
  if command -v sqlite3 >/dev/null; then
    sqlite3 "${DATA_DIR:-$WORK/data}/deniable.sqlite3" "SELECT COUNT(*) FROM reports WHERE survey_id = 'demo'"
  else
    curl -sf "$SERVER_URL/api/surveys/demo/results" | grep -o '"respondents":[0-9]*' | sed -n 1p | cut -d: -f2
  fi
}

# wrk stops at the deadline with up to one request in flight per connection:
# those may be committed without wrk counting their 201. So every counted 201
# must be stored, and at most as many more as there were connections.
verify_durability() {
  local result requests non2xx acknowledged=0 stored extra in_flight=0 count
  while read -r result; do
    requests="$(field "$result" requests)"
    non2xx="$(field "$result" non2xx)"
    acknowledged=$((acknowledged + requests - non2xx))
  done < <(grep "^POST.*_${LABEL}," "$WORK/rows" | cut -d' ' -f2-)
  for count in $CONNECTION_COUNTS; do in_flight=$((in_flight + count * ROUNDS)); done
  stored="$(stored_reports)"
  extra=$((stored - acknowledged))
  echo "reports acknowledged with 201 by wrk: $acknowledged; stored in SQLite: $stored (in flight at wrk's deadline: $extra)"
  if [ "$extra" -lt 0 ] || [ "$extra" -gt "$in_flight" ]; then
    echo "FAIL: stored reports do not match the acknowledged ones" >&2
    return 1
  fi
  echo "OK: every acknowledged report is stored"
}

# --- BENCH_SURVEY=invitation

INVITED_REPORT='{"survey":"invited","version":1,"responses":{"drugs":1,"alcohol":[0,1,0,0,1],"stress":[0,3]}}'

# The invitation survey's respondents, as the server counts them (read with the admin token).
invited_respondents() {
  curl -sf -H "Authorization: Bearer $(cat "$WORK/data/admin-token")" "$SERVER_URL/api/surveys" |
    grep -o '"id":"invited"[^}]*"respondents":[0-9]*' | grep -o '"respondents":[0-9]*' | cut -d: -f2
}

run_invitation_bench() {
  local bin label acknowledged result requests non2xx stored in_flight
  for bin in ${DENIABLE_BINS:-$BIN}; do
    [ -x "$bin" ] || { echo "bench/ingest: $bin not found" >&2; return 1; }
    label="$(basename "$(dirname "$(dirname "$(readlink -f "$bin")")")")"
    rm -rf "$WORK/data"
    BIN="$bin" start_deniable
    jq -c '.id = "invited" | .access = "invitation" | .results = "admin"' examples/demo-survey.json |
      curl -sf -o /dev/null -H "Authorization: Bearer $(cat "$WORK/data/admin-token")" -H 'Content-Type: application/json' \
        --data-binary @- "$SERVER_URL/api/surveys"
    local started=$SECONDS
    node bench/ingest/invitation_headers.mjs "$SERVER_URL" "$(cat "$WORK/data/admin-token")" invited "$INVITED" "$WORK/headers"
    echo "$label: $INVITED headers ($(cut -d: -f1 "$WORK/headers" | sort -u | tr '\n' ' ')) pre-issued in $((SECONDS - started)) s"
    : >"$WORK/invited-rows"
    for CONNECTIONS in $CONNECTION_COUNTS; do
      for round in $(seq "$ROUNDS"); do
        # Each run takes its share of the headers, none an earlier run used.
        local used share
        used="$(cat "$WORK/used" 2>/dev/null || echo 0)"
        share=$((INVITED / ($(wc -w <<<"$CONNECTION_COUNTS") * ROUNDS)))
        sed -n "$((used + 1)),$((used + share))p" "$WORK/headers" >"$WORK/headers-now"
        result="$(WRK_BODY="$INVITED_REPORT" WRK_HEADERS="$WORK/headers-now" WRK_THREADS="$THREADS" timeout 120 \
          wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s bench/ingest/wrk_invited.lua \
          "$SERVER_URL/api/surveys/invited/reports" | grep '^WRK_RESULT')"
        echo "$((used + share))" >"$WORK/used"
        echo "POST_invitation_reports_(${label},_${CONNECTIONS}_connections,_round_$round) $result" >>"$WORK/rows"
        echo "$result" >>"$WORK/invited-rows"
      done
    done
    rm -f "$WORK/used"
    acknowledged=0
    while read -r result; do
      requests="$(field "$result" requests)"
      non2xx="$(field "$result" non2xx)"
      acknowledged=$((acknowledged + requests - non2xx))
    done <"$WORK/invited-rows"
    stored="$(invited_respondents)"
    in_flight=0
    for count in $CONNECTION_COUNTS; do in_flight=$((in_flight + count * ROUNDS)); done
    echo "$label: reports acknowledged with 201: $acknowledged; counted by the server: $stored"
    if [ "$((stored - acknowledged))" -lt 0 ] || [ "$((stored - acknowledged))" -gt "$in_flight" ]; then
      echo "FAIL: stored reports do not match the acknowledged ones" >&2
      return 1
    fi
    kill "$SERVER_PID" && wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=""
  done
  echo
  print_table
  echo
  print_flush_time
}

if [ "${BENCH_SURVEY:-demo}" = invitation ]; then
  INVITED="${BENCH_INVITED:-40000}"
  command -v jq >/dev/null || { echo "bench/ingest: jq is not installed" >&2; exit 1; }
  echo "bench/ingest: invitation survey, wrk -t$THREADS -c{${CONNECTION_COUNTS// /,}} -d$DURATION on 127.0.0.1, $(nproc) cores"
  run_invitation_bench
  exit 0
fi

# --- the default mode: the demo survey, each binary of DENIABLE_BINS beside nginx

# The label a binary's rows carry: its path as given.
label_of() { printf '%s' "$1" | tr ' _' '--'; }

# CPU time the process has used, user and system, in clock ticks (/proc/PID/stat fields 14 and 15).
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# One POST run against binary number $1's server; appends its row and its CPU per report.
post_run() {
  local index="$1" label="$2" round="$3" before_cpu after_cpu before_stored after_stored
  SERVER_URL="${URLS[$index]}" WORK_DATA="$WORK/data-$index"
  before_cpu="$(cpu_ticks "${PIDS[$index]}")"
  before_stored="$(DATA_DIR="$WORK_DATA" stored_reports)"
  run_wrk "POST_/api/surveys/demo/reports_(durable,_${label},_${CONNECTIONS}_connections,_round_$round)" \
    "$SERVER_URL/api/surveys/demo/reports" POST "$REPORT"
  after_cpu="$(cpu_ticks "${PIDS[$index]}")"
  after_stored="$(DATA_DIR="$WORK_DATA" stored_reports)"
  awk -v t=$((after_cpu - before_cpu)) -v hz="$TICK" -v n=$((after_stored - before_stored)) \
    'BEGIN { printf "%.4f\n", (n > 0 ? t / hz * 1000 / n : 0) }' >>"$WORK/cpu-$index-$CONNECTIONS"
}

median_range() {  # prints "median min max" of the numbers on stdin
  sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'
}

BINS="${DENIABLE_BINS:-$BIN}"
TICK="$(getconf CLK_TCK)"
echo "bench/ingest: wrk -t$THREADS -c{${CONNECTION_COUNTS// /,}} -d$DURATION on 127.0.0.1, $(nproc) cores; binaries: $BINS"
declare -a PIDS URLS LABELS
index=0
for bin in $BINS; do
  [ -x "$bin" ] || { echo "bench/ingest: $bin not found" >&2; exit 1; }
  BIN="$bin" DATA_DIR="$WORK/data-$index" start_deniable
  PIDS[$index]="$SERVER_PID" URLS[$index]="$SERVER_URL" LABELS[$index]="$(label_of "$bin")"
  index=$((index + 1))
done
SERVER_URL="${URLS[0]}"
start_nginx
SIZE=$(wc -c <"$WORK/nginx/www/results.json")
# Each round runs every binary, then nginx: the ratios of a round share the machine's moment.
for CONNECTIONS in $CONNECTION_COUNTS; do
  for round in $(seq "$ROUNDS"); do
    for index in "${!PIDS[@]}"; do post_run "$index" "${LABELS[$index]}" "$round"; done
    run_wrk "nginx_static_file_(${SIZE}_bytes,_${CONNECTIONS}_connections,_round_$round)" \
      "http://127.0.0.1:$NGINX_PORT/results.json"
  done
done
CONNECTIONS="${CONNECTION_COUNTS%% *}"
for index in "${!PIDS[@]}"; do
  run_wrk "GET_/api/surveys/demo/results_(${SIZE}_bytes,_${LABELS[$index]},_${CONNECTIONS}_connections)" \
    "${URLS[$index]}/api/surveys/demo/results"
done
echo
print_table
echo
print_flush_time
echo
printf '%-34s %6s %12s %12s %20s %22s\n' binary conns reports/s nginx/s "ratio (range)" "CPU ms/report (range)"
for count in $CONNECTION_COUNTS; do
  nginx_median="$(grep "^nginx.*_${count}_connections," "$WORK/rows" | cut -d' ' -f2- |
    while read -r result; do field "$result" rps; done | median_range | cut -d' ' -f1)"
  for index in "${!PIDS[@]}"; do
    label="${LABELS[$index]}"
    rps_median="$(grep "^POST.*_${label},_${count}_connections," "$WORK/rows" | cut -d' ' -f2- |
      while read -r result; do field "$result" rps; done | median_range | cut -d' ' -f1)"
    read -r ratio ratio_low ratio_high < <(for round in $(seq "$ROUNDS"); do
      post_rps="$(field "$(grep "^POST.*_${label},_${count}_connections,_round_${round})" "$WORK/rows" | cut -d' ' -f2-)" rps)"
      nginx_rps="$(field "$(grep "^nginx.*_${count}_connections,_round_${round})" "$WORK/rows" | cut -d' ' -f2-)" rps)"
      awk -v post="$post_rps" -v nginx="$nginx_rps" 'BEGIN { printf "%.3f\n", post / nginx }'
    done | median_range)
    read -r cpu cpu_low cpu_high < <(median_range <"$WORK/cpu-$index-$count")
    printf '%-34s %6d %12.0f %12.0f %20s %22s\n' "$label" "$count" "$rps_median" "$nginx_median" \
      "$(printf '%.2f (%.2f-%.2f)' "$ratio" "$ratio_low" "$ratio_high")" \
      "$(printf '%.4f (%.4f-%.4f)' "$cpu" "$cpu_low" "$cpu_high")"
  done
  # Each connection has one report in flight and each report waits for at
  # least one flush: no durable server exceeds connections / flush time.
  if [ -n "${FLUSH_US:-}" ]; then
    awk -v c="$count" -v us="$FLUSH_US" -v nginx="$nginx_median" 'BEGIN { bound = c / (us / 1e6)
      printf "  flush bound at %d connections: %d / %d us = %.0f reports/s at most = %.2f of nginx\n", c, c, us, bound, bound / nginx }'
  fi
done
echo "ratio: durable reports/s / nginx requests/s in the same round (median of $ROUNDS rounds; target: at least 0.50);"
echo "CPU ms/report: the server process's user+system time over the run / the reports it stored in it (median)"
for index in "${!PIDS[@]}"; do
  echo "${LABELS[$index]}:"
  SERVER_URL="${URLS[$index]}" DATA_DIR="$WORK/data-$index" LABEL="${LABELS[$index]}" verify_durability
done
