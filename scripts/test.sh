#!/usr/bin/env bash
# `npm test`: installs what is missing, builds everything, and runs every test:
# C++ (doctest: units, formats, statistical tests and audits), WebAssembly
# (Node), server (Node against the real binary and SQLite) and browser end to
# end (playwright-core driving Debian's chromium). Ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/build.sh || exit 1

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

run_doctest C++ build/deniable_tests
run_doctest server-C++ build/deniable_server_tests

run_node_suite() {  # name, concurrency, directory
  local name=$1 concurrency=$2 dir=$3
  echo "== $name tests (node:test, $dir)"
  node --test --test-concurrency="$concurrency" \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$RESULTS/$name.tap" \
    "$dir"/*.test.mjs || status=1
  count_tap "$RESULTS/$name.tap"
}

run_node_suite wasm 2 tests/wasm
run_node_suite server 2 tests/server
run_node_suite e2e 1 tests/e2e

[ "$failed" -eq 0 ] || status=1
echo
echo "all suites: $passed passed, $failed failed"
exit $status
