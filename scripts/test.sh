#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, and runs every test:
# C++ (doctest: units, formats, statistical tests and audits), WebAssembly
# (Node), server (Node against the real binary and SQLite), the server suite
# again on PostgreSQL with the cross-node tests (a throw-away cluster this
# script starts and stops: scripts/pg-cluster.sh) and browser end to end
# (playwright-core driving Debian's chromium). Ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

# Each stage's wall and CPU seconds (its child processes' user+sys, from
# bash's `times`), printed as a table at the end: where the CI's time goes.
STAGE_TIMES=()
TIMES_FILE=$(mktemp)
cpu_of_children() {  # the user+sys seconds of finished children in a `times` output
  awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } print n }' "$1"
}
stage() {  # name, command...: runs the command and records its times
  local name=$1 wall=$SECONDS cpu rc=0
  shift
  times >"$TIMES_FILE"  # not in $(...): a subshell's `times` counts only its own children
  cpu=$(cpu_of_children "$TIMES_FILE")
  "$@" || rc=$?
  times >"$TIMES_FILE"
  STAGE_TIMES+=("$(printf '%-22s %6d %8.1f' "$name" $((SECONDS - wall)) \
    "$(awk -v a="$(cpu_of_children "$TIMES_FILE")" -v b="$cpu" 'BEGIN { print a - b }')")")
  return $rc
}
print_stage_times() {
  echo
  printf '%-22s %6s %8s\n' "stage" "wall s" "CPU s"
  printf '%s\n' "${STAGE_TIMES[@]}"
}

stage setup bash scripts/setup.sh || exit 1
stage build bash scripts/build.sh || exit 1

RESULTS=$(mktemp -d)
passed=0
failed=0
status=0

count_tap() {  # adds a node:test TAP file's pass/fail totals
  local file=$1
  local p f
  p=$(grep -E '^# pass [0-9]+' "$file" | tail -1 | awk '{print $3}')
  f=$(grep -E '^# fail [0-9]+' "$file" | tail -1 | awk '{print $3}')
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-1}))
}

run_doctest() {  # name, binary: runs it and adds its totals
  local name=$1 binary=$2 line p f
  echo "== $name tests (doctest, $binary)"
  "$binary" --no-intro=true 2>&1 | tee "$RESULTS/$name.txt" | grep -vE '^\S+: MESSAGE|^  logged:' || true
  line=$(grep -E '^\[doctest\] test cases:' "$RESULTS/$name.txt" | tail -1)
  p=$(echo "$line" | sed -E 's/.*\| *([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.*\| *([0-9]+) failed.*/\1/')
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-1}))
}

echo "== the server's include rule (scripts/check-layers.sh)"
if bash scripts/check-layers.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

stage C++ run_doctest C++ build/deniable_tests
stage server-C++ run_doctest server-C++ build/deniable_server_tests

run_node_suite() {  # name, concurrency, directory [files...]: the files, by default every *.test.mjs of the directory
  local name=$1 concurrency=$2 dir=$3
  shift 3
  (($#)) || set -- "$dir"/*.test.mjs
  echo "== $name tests (node:test, $dir)"
  node --test --test-concurrency="$concurrency" \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$RESULTS/$name.tap" \
    "$@" || status=1
  count_tap "$RESULTS/$name.tap"
}

# The server suite again on PostgreSQL (one database per data dir, made by
# tests/server/server_harness.mjs), then the cross-node tests (tests/multinode:
# several nodes on one database behind nginx), on a throw-away cluster that is
# stopped and removed at the end, also on failure or Ctrl-C. Files that test
# no storage are not run twice: PG_SKIP names them with the reason.
PG_SKIP=(
  "cli.test.mjs: the command line (simulate, usage) stores nothing"
  "pages.test.mjs: static pages"
  "static-assets.test.mjs: static assets and their compression"
  "hardening.test.mjs: the HTTP layer (slow clients, framing, limits) in front of any store"
  "estimation-flood.test.mjs: the estimation gate, in memory"
  "results-gate.test.mjs: the results gate and the cache's memory budget, in memory (about a minute)"
)
PG_DIR=""
stop_pg_cluster() {
  [ -n "$PG_DIR" ] || return 0
  bash scripts/pg-cluster.sh stop "$PG_DIR" >/dev/null 2>&1
  rm -rf "$PG_DIR"
  PG_DIR=""
}
trap stop_pg_cluster EXIT
trap 'stop_pg_cluster; exit 130' INT TERM

run_postgres_suites() {
  local started=$SECONDS url files=() file entry skipped
  PG_DIR=$(mktemp -d /tmp/deniable-pg-XXXXXX)
  if ! url=$(bash scripts/pg-cluster.sh start "$PG_DIR"); then
    echo "== PostgreSQL: the test cluster did not start"
    failed=$((failed + 1))
    return
  fi
  echo "== PostgreSQL test cluster: $url"
  for file in tests/server/*.test.mjs; do
    skipped=""
    for entry in "${PG_SKIP[@]}"; do [ "${entry%%:*}" = "$(basename "$file")" ] && skipped=$entry; done
    if [ -n "$skipped" ]; then echo "   not run again on PostgreSQL: $skipped"; else files+=("$file"); fi
  done
  DENIABLE_TEST_DATABASE=postgres DENIABLE_TEST_PG_URL="$url" stage server-postgres run_node_suite server-postgres 2 \
    tests/server "${files[@]}"
  echo "== server tests on PostgreSQL took $((SECONDS - started)) s"
  local multinode=$SECONDS
  DENIABLE_TEST_DATABASE=postgres DENIABLE_TEST_PG_URL="$url" stage multinode run_node_suite multinode 1 tests/multinode
  echo "== cross-node tests took $((SECONDS - multinode)) s; the PostgreSQL part $((SECONDS - started)) s in all"
  stop_pg_cluster
}

stage wasm run_node_suite wasm 2 tests/wasm
stage server run_node_suite server 2 tests/server
run_postgres_suites
stage e2e run_node_suite e2e 1 tests/e2e

[ "$failed" -eq 0 ] || status=1
print_stage_times
echo
echo "all suites: $passed passed, $failed failed"
exit $status
