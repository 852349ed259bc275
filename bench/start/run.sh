#!/usr/bin/env bash
# The first start, stage by stage: `npm start` on a fresh clone (cold: no
# node_modules, no build directories, ccache off) and then again (warm), with
# each stage's wall and CPU seconds (user+sys of its processes). CPU seconds
# are what to compare on a shared machine: wall time grows with the load.
#
# Usage: bash bench/start/run.sh [REF...]     (default: HEAD; e.g. `625c6e5 HEAD`
#        prints the baseline beside the change, in the same run)
# Environment: WORK (default: a new /tmp/deniable-start-XXXX), JOBS (cores per
#        build, default nproc), KEEP=1 keeps the clones.
#
# Stages: setup (scripts/setup.sh serve: npm ci when cold), configure (cmake),
# native (the server), wasm (the WebAssembly core), web (vite), serve (the
# binary started until it answers GET /). Since scripts/build.sh runs native
# beside wasm+web, "total" (setup to first answer) is less than the sum. A
# REF whose build.sh does not record its stages (before issue 32) has them run
# one after the other, as its build.sh did.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
REFS=("$@")
((${#REFS[@]})) || REFS=(HEAD)
WORK="${WORK:-$(mktemp -d /tmp/deniable-start-XXXXXX)}"
export JOBS="${JOBS:-$(nproc)}"
export CCACHE_DISABLE=1  # cold means compiled: no object from the shared cache
PORT_BASE=18700
ROWS=()

timed() {  # file, stage, command...: appends "stage wall user sys"
  local file=$1 stage=$2
  shift 2
  /usr/bin/time -a -o "$file" -f "$stage %e %U %S" "$@"
}

# The binary is started as npm start starts it; the stage ends at the first answer.
serve_until_ready() {
  local port=$1 data pid
  data=$(mktemp -d)
  build/deniable serve --port "$port" --data "$data" --demo examples/demo-survey.json \
    --demo examples/numeric-survey.json >/dev/null 2>&1 &
  pid=$!
  until curl -fsS -o /dev/null "http://127.0.0.1:$port/"; do
    kill -0 "$pid" 2>/dev/null || { echo "bench/start: the server exited" >&2; return 1; }
    sleep 0.05
  done
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$data"
}

# One `npm start` without its final exec: setup, build, serve.
start_once() {  # ref, label, clone directory, times file, port
  local ref=$1 label=$2 dir=$3 times=$4 port=$5 began=$SECONDS log
  log="$WORK/$label.log"
  (
    cd "$dir"
    timed "$times" setup bash scripts/setup.sh serve
    if grep -q DENIABLE_BUILD_TIMES scripts/build.sh; then
      DENIABLE_BUILD_TIMES="$times" bash scripts/build.sh serve
    else  # the old, sequential build.sh, stage by stage
      timed "$times" configure cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
      timed "$times" native cmake --build build -j "$JOBS" --target deniable
      timed "$times" wasm bash wasm/build.sh
      timed "$times" web npx vite build --config web/vite.config.js --logLevel warn
    fi
    timed "$times" serve bash -c 'serve_until_ready "$1"' _ "$port"
  ) >"$log" 2>&1 || { echo "bench/start: $label failed, see $log" >&2; tail -20 "$log" >&2; exit 1; }
  echo "$((SECONDS - began))" >"$times.total"
}

row() {  # ref, mode, times file
  local ref=$1 mode=$2 times=$3 stage cells=""
  for stage in setup configure native wasm web serve; do
    cells+=$(awk -v s="$stage" '$1 == s { w += $2; c += $3 + $4; n++ }
      END { if (n) printf " %7.1f %7.1f", w, c; else printf " %7s %7s", "-", "-" }' "$times")
  done
  cells+=$(awk '{ c += $3 + $4 } END { printf " %7.1f", c }' "$times")
  ROWS+=("$(printf '%-10s %-5s' "$ref" "$mode")$cells $(printf '%7d' "$(cat "$times.total")")")
}

export -f serve_until_ready
port=$PORT_BASE
for ref in "${REFS[@]}"; do
  commit=$(git rev-parse --short "$ref")
  dir="$WORK/clone-$commit"
  rm -rf "$dir"
  git clone -q "$REPO" "$dir"
  git -C "$dir" checkout -q "$commit"
  for mode in cold warm; do
    echo "bench/start: $commit $mode ($(date -u +%H:%M:%S))" >&2
    times="$WORK/$commit-$mode.times"
    : >"$times"
    start_once "$commit" "$commit-$mode" "$dir" "$times" "$port"
    port=$((port + 1))
    row "$commit" "$mode" "$times"
  done
  [ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
done

echo
echo "npm start, stage by stage (wall and CPU seconds; JOBS=$JOBS, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-10s %-5s' ref mode
for stage in setup configure native wasm web serve; do printf ' %15s' "$stage w/cpu"; done
printf ' %7s %7s\n' "cpu" "total"
printf '%s\n' "${ROWS[@]}"
echo "total: wall seconds from setup to the first answer (native runs beside wasm+web where build.sh does so)"
