#!/usr/bin/env bash
# Builds the native server, the WebAssembly module (Emscripten) and the web
# pages (Vite); with `all` (the default) also the native tests and benchmarks.
# The native build and the WebAssembly one (then the pages) run at the same
# time: each is a chain of single-threaded compiles with serial stretches (a
# precompiled header, a link) that would leave a core idle if run one after
# the other. Every step is incremental: a second run takes seconds, and the
# pages are not rebuilt when no input of theirs changed.
#
# Usage: bash scripts/build.sh [serve|all]   (serve: what `npm start` needs)
# Environment: JOBS (default: the number of cores) for each of the two builds.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE="${1:-all}"
export JOBS="${JOBS:-$(nproc)}"
started=$SECONDS

step() { echo "build: $* (at $((SECONDS - started))s)"; }
# DENIABLE_BUILD_TIMES=file: each stage appends "stage wall user sys" (seconds)
# there (bench/start/run.sh reads it).
timed() {
  local stage=$1
  shift
  if [ -n "${DENIABLE_BUILD_TIMES:-}" ]; then
    /usr/bin/time -a -o "$DENIABLE_BUILD_TIMES" -f "$stage %e %U %S" "$@"
  else
    "$@"
  fi
}

# The pages are rebuilt only when something Vite reads is newer than the last
# build: the HTML and sources under web/ (the generated module included), the
# Vite config and the installed npm packages.
DIST_STAMP=web/dist/.inputs-built
pages_up_to_date() {
  [ -f "$DIST_STAMP" ] || return 1
  [ -z "$(find web -path web/dist -prune -o -newer "$DIST_STAMP" -print -quit)" ] || return 1
  local input
  for input in package.json package-lock.json node_modules/.package-lock.json; do
    [ ! -e "$input" ] || [ ! "$input" -nt "$DIST_STAMP" ] || return 1
  done
}

build_pages() {
  if pages_up_to_date; then
    step "web pages are up to date"
    return
  fi
  step "web pages (vite, a few seconds)"
  local began
  began=$(mktemp)  # the stamp gets the start time (to the nanosecond): an edit during the build stays newer
  npx vite build --config web/vite.config.js --logLevel warn
  touch -r "$began" "$DIST_STAMP"
  rm -f "$began"
}

# wasm/build.sh checks every object against its dependency list, which costs
# seconds even when nothing changed; it is skipped when no file it reads
# (core/, wasm/, CMakeLists.txt for the version) is newer than its last
# successful run, the same em++ is installed and its outputs are all there.
WASM_STAMP=build-wasm/.inputs-built
wasm_toolchain() {
  local emxx
  emxx=$(command -v em++ || true)
  [ -z "$emxx" ] || emxx="$(readlink -f "$emxx") $(stat -c %Y "$(readlink -f "$emxx")")"
  echo "em++ ${emxx:-missing} $(dpkg-query -W -f='${Version}' emscripten 2>/dev/null || true)"
}
wasm_up_to_date() {
  [ -f "$WASM_STAMP" ] || return 1
  [ "$(head -n 1 "$WASM_STAMP")" = "$(wasm_toolchain)" ] || return 1
  local output
  while read -r output; do
    [ -f "$output" ] || return 1
  done < <(tail -n +2 "$WASM_STAMP")
  [ -z "$(find core wasm CMakeLists.txt -newer "$WASM_STAMP" -print -quit)" ]
}
build_wasm() {
  if wasm_up_to_date; then
    step "WebAssembly core is up to date"
    return
  fi
  local began
  began=$(mktemp)
  bash wasm/build.sh
  { wasm_toolchain; find web/src/generated -type f; } >"$WASM_STAMP"
  touch -r "$began" "$WASM_STAMP"
  rm -f "$began"
}

if [ "$PROFILE" = "--wasm-only" ]; then  # the WebAssembly step alone (timed as its own process below)
  build_wasm
  exit 0
fi
if [ "$PROFILE" = "--pages-only" ]; then  # the pages step alone (timed as its own process above)
  build_pages
  exit 0
fi

# Configured once; `cmake --build` reconfigures by itself when CMakeLists.txt
# or a globbed directory changes. Ninja when installed: it compiles the
# server's units (and its precompiled header) while core's last ones are still
# compiling, where make waits for core's library first and leaves a core idle.
GENERATOR=()
if command -v ninja >/dev/null 2>&1; then GENERATOR=(-G Ninja); fi
[ -f build/CMakeCache.txt ] || timed configure cmake -S . -B build "${GENERATOR[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null

# The WebAssembly module, then the pages (which bundle it), in the background;
# its output is prefixed so that the two logs stay readable.
step "WebAssembly core for the pages and the web pages, in the background"
(
  set -o pipefail
  { timed wasm bash scripts/build.sh --wasm-only && timed web bash scripts/build.sh --pages-only; } 2>&1 | sed -u 's/^/  [wasm+web] /'
) &
wasm_pid=$!

native_status=0
if [ "$PROFILE" = "serve" ]; then
  step "native server: core + server"
  timed native cmake --build build -j "$JOBS" --target deniable || native_status=$?
else
  step "native server, tests and benchmarks"
  timed native cmake --build build -j "$JOBS" || native_status=$?
fi
step "native build finished (status $native_status)"

wasm_status=0
wait "$wasm_pid" || wasm_status=$?
step "WebAssembly and pages finished (status $wasm_status)"
if ((native_status != 0 || wasm_status != 0)); then
  echo "build: FAILED (native status $native_status, WebAssembly and pages status $wasm_status)" >&2
  exit 1
fi
echo "build: done in $((SECONDS - started))s"
