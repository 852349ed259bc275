#!/usr/bin/env bash
# The server's CPU time per durable report (user + system, from /proc/PID/stat)
# under wrk's POSTs of the ingest bench's report to the demo survey, for each
# binary in DENIABLE_BINS, alternating, BENCH_ROUNDS rounds per connection
# count: a figure that the machine's other load moves far less than requests/s
# (bench/ingest/run.sh's ratio drifted 0.05-0.34 between rounds on a shared
# 2-core machine). Prints the median per binary and connection count.
# Environment: DENIABLE_BINS ("build/deniable"), BENCH_DURATION (5s),
# BENCH_ROUNDS (3), BENCH_CONNECTIONS ("16 64"), BENCH_SURVEY_FILE (the demo).
set -euo pipefail
cd "$(dirname "$0")/../.."
BINS="${DENIABLE_BINS:-build/deniable}"
DURATION="${BENCH_DURATION:-5s}"
ROUNDS="${BENCH_ROUNDS:-3}"
CONNECTION_COUNTS="${BENCH_CONNECTIONS:-16 64}"
REPORT='{"survey":"demo","version":1,"responses":{"drugs":1,"alcohol":[0,1,0,0,1],"stress":[0,3]}}'
TICK=$(getconf CLK_TCK)
WORK="$(mktemp -d /tmp/deniable-cpu-XXXXXX)"
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# one_round BIN CONNECTIONS: prints CPU microseconds per stored report.
one_round() {
  local bin="$1" connections="$2" data="$WORK/data" url line before after stored
  rm -rf "$data"; mkdir -p "$data"; chmod 700 "$data"
  "$bin" serve --port 0 --data "$data" --web "$WORK/no-web" --demo examples/demo-survey.json --quiet >"$WORK/log" 2>&1 &
  PID=$!
  for _ in $(seq 100); do line="$(grep -m1 'listening on http://' "$WORK/log" || true)"; [ -n "$line" ] && break; sleep 0.1; done
  url="${line#listening on }"
  before=$(cpu_ticks "$PID")
  WRK_METHOD=POST WRK_BODY="$REPORT" wrk -t2 -c"$connections" -d"$DURATION" -s bench/ingest/wrk_request.lua \
    "$url/api/surveys/demo/reports" >/dev/null
  after=$(cpu_ticks "$PID")
  stored=$( (curl -sf -H "Authorization: Bearer $(cat "$data/admin-token")" "$url/api/surveys" || true) |
    grep -o '"respondents":[0-9]*' | cut -d: -f2 || true)
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""  # this runs in a subshell: its own cleanup
  [ -n "$stored" ] && [ "$stored" -gt 0 ] || { echo "bench/server/ingest_cpu: no reports stored by $bin" >&2; return 1; }
  awk -v t=$((after - before)) -v hz="$TICK" -v n="$stored" 'BEGIN { printf "%.1f %d\n", t / hz * 1e6 / n, n }'
}

declare -A results
for connections in $CONNECTION_COUNTS; do
  for round in $(seq "$ROUNDS"); do
    for bin in $BINS; do
      read -r us n < <(one_round "$bin" "$connections")
      echo "round $round, $connections connections, $bin: $us us CPU per report ($n reports)" >&2
      results["$bin $connections"]+="$us "
    done
  done
done
printf '%-40s %12s %28s\n' binary connections "CPU us/report (median; all)"
for connections in $CONNECTION_COUNTS; do
  for bin in $BINS; do
    values="${results["$bin $connections"]}"
    median=$(tr ' ' '\n' <<<"$values" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '%-40s %12s %12s   %s\n' "$bin" "$connections" "$median" "$values"
  done
done
