#!/usr/bin/env bash
# Builds core/**/*.cc + wasm/bindings.cc with Emscripten into
# web/src/generated/deniable_core.mjs: one ES module (the .wasm is embedded,
# SINGLE_FILE) that loads in Chromium under "script-src 'self'
# 'wasm-unsafe-eval'" and in Node 20. web/src/core.js is its only importer.
#
# Objects are cached in build-wasm/obj and recompiled only when their source,
# a header they include, or the compile flags change, so repeated builds are
# quick. libsodium (ristretto255 and SHA-512 for core/oprf/) is Debian's
# source package, compiled once by wasm/build-libsodium.sh into
# build-wasm/libsodium-1.0.18/. After linking, the output is checked for what
# must never be in it: eval / new Function (forbidden by the pages' CSP) and
# Math.random (report noise must come from crypto.getRandomValues).
#
# Usage: bash wasm/build.sh            (environment: JOBS=2 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "wasm/build.sh: $*" >&2; exit 1; }

if ! command -v em++ >/dev/null 2>&1; then
  fail "em++ not found. Install Emscripten (Debian: apt-get install emscripten, or run scripts/setup.sh)."
fi
# Debian's Emscripten runs its JS optimiser with the system's node modules.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
EMXX_VERSION=$(em++ --version | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')  # sed reads all: no SIGPIPE under pipefail
[ -n "$EMXX_VERSION" ] || fail "cannot read the Emscripten version from em++ --version"

JOBS="${JOBS:-2}"
BUILD_DIR=build-wasm
OBJ_DIR="$BUILD_DIR/obj"
OUT_DIR=web/src/generated
OUT="$OUT_DIR/deniable_core.mjs"
ENTROPY_LIBRARY=wasm/entropy.js
NODE_ESM_SHIM=wasm/node_esm_shim.js
INSTANTIATE_EMBEDDED=wasm/instantiate_embedded.js
SODIUM_DIR="$BUILD_DIR/libsodium-1.0.18"   # wasm/build-libsodium.sh's output
SODIUM_LIBRARY="$SODIUM_DIR/lib/libsodium.a"

VERSION=$(sed -n 's/^project(deniable VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$VERSION" ] || fail "cannot read the project version from CMakeLists.txt (project(deniable VERSION x.y.z))"

# Only the header-only libraries core uses are visible to em++: adding all of
# /usr/include would pull in glibc's headers instead of Emscripten's libc.
INCLUDE_DIR="$BUILD_DIR/include"
stage_headers() {
  mkdir -p "$INCLUDE_DIR"
  [ -d /usr/include/nlohmann ] || fail "nlohmann-json headers not found in /usr/include/nlohmann (apt-get install nlohmann-json3-dev)"
  ln -sfn /usr/include/nlohmann "$INCLUDE_DIR/nlohmann"
  if [ -d /usr/include/eigen3/Eigen ]; then ln -sfn /usr/include/eigen3/Eigen "$INCLUDE_DIR/Eigen"; fi
  # libsodium's public headers, from the WebAssembly build of the library (the
  # same version as the native one), not the host's /usr/include.
  ln -sfn ../libsodium-1.0.18/include/sodium.h "$INCLUDE_DIR/sodium.h"
  ln -sfn ../libsodium-1.0.18/include/sodium "$INCLUDE_DIR/sodium"
}

# -fno-exceptions: core reports every input error as a Result; a throw (a bug)
# aborts the module instead of leaving it in an undefined state.
COMPILE_FLAGS=(-std=c++17 -O2 -DNDEBUG -fno-exceptions -ffp-contract=off -Wall -Wextra -Wpedantic
               -I. -isystem "$INCLUDE_DIR" "-DDENIABLE_VERSION=\"$VERSION\"")
LINK_FLAGS=(-O2 -fno-exceptions --bind
            -s MODULARIZE=1 -s EXPORT_ES6=1 -s EXPORT_NAME=createDeniableCore
            -s SINGLE_FILE=1 -s ENVIRONMENT=web,node -s ALLOW_MEMORY_GROWTH=1
            -s DYNAMIC_EXECUTION=0 -s FILESYSTEM=0
            -s NODEJS_CATCH_EXIT=0 -s NODEJS_CATCH_REJECTION=0
            --js-library "$ENTROPY_LIBRARY" --pre-js "$NODE_ESM_SHIM" --pre-js "$INSTANTIATE_EMBEDDED")

# Discards every cached object when the flags (or the compiler) change.
invalidate_on_flag_change() {
  local stamp="$BUILD_DIR/compile_flags.txt"
  local current
  current="emscripten $EMXX_VERSION ${COMPILE_FLAGS[*]}"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$current" ]; then
    rm -rf "$OBJ_DIR"
    mkdir -p "$OBJ_DIR"
    printf '%s' "$current" >"$stamp"
  fi
}

# True when the object is missing or older than any file in its dependency list.
needs_compile() {
  local object=$1 depfile=$2 dependency
  [ -f "$object" ] && [ -f "$depfile" ] || return 0
  while read -r dependency; do
    [ -n "$dependency" ] || continue
    if [ ! -e "$dependency" ] || [ "$dependency" -nt "$object" ]; then return 0; fi
  done < <(sed -e 's/\\$//' -e 's/^[^:]*://' "$depfile" | tr ' ' '\n')
  return 1
}

# libsodium's headers are staged as system headers, which -MMD leaves out of
# the dependency lists: core/oprf (their only user) recompiles when the
# library is rebuilt.
sodium_is_newer() {
  [[ $1 == core/oprf/* ]] && [ "$SODIUM_DIR/stamp" -nt "$2" ]
}

compile() {
  local source=$1 object=$2
  echo "  em++ $source"
  em++ "${COMPILE_FLAGS[@]}" -MMD -MP -MF "${object%.o}.d" -c "$source" -o "$object"
}

# Server-only core files: NLopt (the RVNS paper's SQP solver) has no Emscripten
# build, and the page never estimates; nor does it analyse across questions
# (core/analysis/), which the dashboard asks the server for.
WASM_EXCLUDED=(core/distribution/kde_sqp_estimator.cc)
WASM_EXCLUDED_DIRS=(core/analysis/)

compile_all() {
  local pids=() failed=0 source name object
  for source in $(find core -name '*.cc' | sort) wasm/bindings.cc; do
    [[ " ${WASM_EXCLUDED[*]} " == *" $source "* ]] && continue
    for dir in "${WASM_EXCLUDED_DIRS[@]}"; do [[ $source == "$dir"* ]] && continue 2; done
    name=$(echo "$source" | tr '/' '_')
    object="$OBJ_DIR/${name%.cc}.o"
    OBJECTS+=("$object")
    needs_compile "$object" "${object%.o}.d" || sodium_is_newer "$source" "$object" || continue
    compile "$source" "$object" &
    pids+=($!)
    if ((${#pids[@]} >= JOBS)); then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  ((failed == 0)) || fail "compilation failed (see the errors above)"
}

needs_link() {
  local stamp="$BUILD_DIR/link_flags.txt" input
  [ -f "$OUT" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" == "${LINK_FLAGS[*]}" ] || return 0
  for input in "${OBJECTS[@]}" "$SODIUM_LIBRARY" "$ENTROPY_LIBRARY" "$NODE_ESM_SHIM" "$INSTANTIATE_EMBEDDED" wasm/build.sh; do
    [ "$input" -nt "$OUT" ] && return 0
  done
  return 1
}

link() {
  mkdir -p "$OUT_DIR"
  echo "  em++ -o $OUT"
  em++ "${LINK_FLAGS[@]}" "${OBJECTS[@]}" "$SODIUM_LIBRARY" -o "$OUT.tmp" || fail "link failed (see the errors above)"
  mv "$OUT.tmp" "$OUT"
  printf '%s' "${LINK_FLAGS[*]}" >"$BUILD_DIR/link_flags.txt"
}

# The generated JavaScript must not evaluate code at run time (the pages' CSP
# has no 'unsafe-eval') and must not draw randomness from Math.random.
check_output() {
  local pattern
  for pattern in 'new Function' 'eval(' 'Math.random'; do
    if grep -qF "$pattern" "$OUT"; then
      rm -f "$OUT"
      fail "the generated module contains \"$pattern\"; it was deleted (check DYNAMIC_EXECUTION and $ENTROPY_LIBRARY)"
    fi
  done
  grep -qF 'crypto.getRandomValues' "$OUT" || fail "the generated module does not use crypto.getRandomValues for getentropy"
}

main() {
  echo "wasm: building $OUT (deniable $VERSION, emscripten $EMXX_VERSION)"
  bash wasm/build-libsodium.sh
  stage_headers
  mkdir -p "$OBJ_DIR"
  invalidate_on_flag_change
  OBJECTS=()
  compile_all
  if needs_link; then link; else echo "  $OUT is up to date"; fi
  check_output
  echo "wasm: $OUT ($(wc -c <"$OUT") bytes)"
}

main
