#!/usr/bin/env bash
# Builds core/**/*.cc and wasm/*.cc with Emscripten into two ES modules, each
# with its .wasm beside it (not SINGLE_FILE: the page streams and compiles the
# .wasm while it downloads, and the server caches it by its content hash):
#   web/src/generated/deniable_client.{mjs,wasm}  the respondent's page: only
#       the client half of core (client_exports.cc, plain C exports; imported
#       only by web/src/core-client.js);
#   web/src/generated/deniable_core.{mjs,wasm}    the full module (bindings.cc,
#       Embind) for the creation page (imported only by web/src/core.js).
# Both links read the same objects, each compiled once; wasm-ld drops what a
# link never reaches, which is why the client link is small.
#
# Objects are cached in build-wasm/obj and recompiled only when their source,
# a header they include, or the compile flags change, so repeated builds are
# quick. libsodium (ristretto255 and SHA-512 for core/oprf/) is Debian's
# source package, compiled once by wasm/build-libsodium.sh into
# build-wasm/libsodium-1.0.18/. After linking, each output is checked for what
# must never be in it: eval / new Function (forbidden by the pages' CSP) and
# Math.random (report noise must come from crypto.getRandomValues). The last
# lines printed are both modules' raw and brotli sizes.
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
CLIENT_OUT="$OUT_DIR/deniable_client.mjs"
FULL_OUT="$OUT_DIR/deniable_core.mjs"
ENTROPY_LIBRARY=wasm/entropy.js
NODE_ESM_SHIM=wasm/node_esm_shim.js
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
# -Oz: the page's transfer is what the respondent waits for (issue 32).
COMPILE_FLAGS=(-std=c++17 -Oz -DNDEBUG -fno-exceptions -ffp-contract=off -Wall -Wextra -Wpedantic
               -I. -isystem "$INCLUDE_DIR" "-DDENIABLE_VERSION=\"$VERSION\"")
LINK_COMMON=(-Oz -fno-exceptions
             -s MODULARIZE=1 -s EXPORT_ES6=1 -s ENVIRONMENT=web,node -s ALLOW_MEMORY_GROWTH=1
             -s DYNAMIC_EXECUTION=0 -s FILESYSTEM=0
             -s NODEJS_CATCH_EXIT=0 -s NODEJS_CATCH_REJECTION=0
             --js-library "$ENTROPY_LIBRARY" --pre-js "$NODE_ESM_SHIM")
# The client module's exports: client_exports.cc's functions, and malloc/free
# for the loader's argument and result strings. Nothing else is reachable.
CLIENT_EXPORTS=_malloc,_free,_deniable_version,_deniable_parse_survey,_deniable_perturb,_deniable_perturb_seeded,\
_deniable_privacy_of_choices,_deniable_kind_types,_deniable_token_blind,_deniable_token_blind_with,\
_deniable_token_finalize
# emmalloc: a smaller allocator than dlmalloc (2.3 kB less brotli); the page
# allocates little. --wrap: scalar * generator without libsodium's 30 kB
# fixed-base table (wasm/client_base_point.cc says why; same points).
CLIENT_LINK_FLAGS=("${LINK_COMMON[@]}" -s EXPORT_NAME=createDeniableClient -s "EXPORTED_FUNCTIONS=$CLIENT_EXPORTS"
                   -s MALLOC=emmalloc -Wl,--wrap=crypto_scalarmult_ristretto255_base)
FULL_LINK_FLAGS=("${LINK_COMMON[@]}" --bind -s EXPORT_NAME=createDeniableCore)

# Discards every cached object when the flags (or the compiler) change.
invalidate_on_flag_change() {
  local stamp="$BUILD_DIR/compile_flags.txt"
  local current
  current="emscripten $EMXX_VERSION ${COMPILE_FLAGS[*]} pch=$PCH"
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
# library is rebuilt (core/oprf's units, or their unity batches).
sodium_is_newer() {
  [[ $1 == core/oprf/* || $1 == "$UNITY_DIR"/core_oprf_* ]] && [ "$SODIUM_DIR/stamp" -nt "$2" ]
}

# A precompiled header of the heavy third-party and standard headers (the
# native build's DENIABLE_PCH_HEADERS), parsed once instead of in every object,
# its templates instantiated once (-fpch-instantiate-templates): a batch of 6
# numeric units took 3.1 s of CPU without it, 2.0 s with it (2.5 s to make it,
# once). Only third-party and standard headers go in, so a unit still compiles
# without it. The object code is the same (same code size; only local string
# labels are numbered differently). DENIABLE_PCH=OFF switches it off.
PCH="${DENIABLE_PCH:-ON}"
PCH_HEADER="$OBJ_DIR/deniable_pch.h"  # in the objects directory: discarded with them when the flags change
PCH_FILE="$PCH_HEADER.pch"
PCH_INCLUDES=(nlohmann/json.hpp Eigen/Dense vector string cmath algorithm memory optional map functional cstdint
              numeric limits set string_view)
PCH_FLAGS=()
build_pch() {
  [ "$PCH" != OFF ] || return 0
  mkdir -p "$(dirname "$PCH_HEADER")"
  local content
  content="// Generated by wasm/build.sh (DENIABLE_PCH)."$'\n'$(printf '#include <%s>\n' "${PCH_INCLUDES[@]}")$'\n'
  [ -f "$PCH_HEADER" ] && [ "$(cat "$PCH_HEADER"; echo .)" == "$content." ] || printf '%s' "$content" >"$PCH_HEADER"
  if [ ! -f "$PCH_FILE" ] || [ "$PCH_HEADER" -nt "$PCH_FILE" ]; then
    echo "  em++ $PCH_HEADER (precompiled header)"
    em++ "${COMPILE_FLAGS[@]}" -fpch-instantiate-templates -x c++-header "$PCH_HEADER" -o "$PCH_FILE" ||
      fail "the precompiled header failed (see the errors above; DENIABLE_PCH=OFF builds without it)"
  fi
  PCH_FLAGS=(-include-pch "$PCH_FILE")
}

compile() {
  local source=$1 object=$2
  echo "  em++ $source"
  em++ "${COMPILE_FLAGS[@]}" "${PCH_FLAGS[@]}" -MMD -MP -MF "${object%.o}.d" -c "$source" -o "$object"
}

# Server-only core files: NLopt (the RVNS paper's SQP solver) has no Emscripten
# build, and the page never estimates; nor does it analyse across questions
# (core/analysis/), which the dashboard asks the server for.
WASM_EXCLUDED=(core/distribution/kde_sqp_estimator.cc)
WASM_EXCLUDED_DIRS=(core/analysis/)

# Objects of every module (core and the JSON functions both modules share),
# then each module's own face.
SHARED_SOURCES=(wasm/client_api.cc)
CLIENT_SOURCES=(wasm/client_exports.cc wasm/client_base_point.cc)
FULL_SOURCES=(wasm/bindings.cc)

object_of() {
  local name
  name=$(echo "$1" | tr '/' '_')
  echo "$OBJ_DIR/${name%.cc}.o"
}

# Unity batches, as the native build makes them (CMakeLists.txt, DENIABLE_UNITY):
# the core units of one directory, in name order, at most UNITY_BATCH to a
# batch, each batch one translation unit, because every unit parses the same
# heavy headers and instantiates the same templates. A batch file lists its
# units as #include lines and is rewritten only when that list changes (its
# object then recompiles); editing a unit recompiles its batch. wasm-ld still
# keeps only the functions a module reaches (core/kinds/block's 19 units: 9.7 s
# of CPU in batches of at most 8, 7.3 s in batches of at most 16).
# DENIABLE_UNITY=OFF: one object per unit.
UNITY="${DENIABLE_UNITY:-ON}"
UNITY_BATCH="${DENIABLE_UNITY_BATCH:-16}"
UNITY_DIR="$BUILD_DIR/unity"

core_sources() {
  local source dir
  for source in $(find core -name '*.cc' | sort); do
    [[ " ${WASM_EXCLUDED[*]} " == *" $source "* ]] && continue
    for dir in "${WASM_EXCLUDED_DIRS[@]}"; do [[ $source == "$dir"* ]] && continue 2; done
    echo "$source"
  done
}

# Prints the core sources to compile: the batch files and the units alone in their directory.
unity_sources() {
  if [ "$UNITY" = OFF ]; then core_sources; return; fi
  mkdir -p "$UNITY_DIR"
  local all directory units count batches index batch file content
  all=$(core_sources)
  for directory in $(echo "$all" | xargs -n 1 dirname | sort -u); do
    units=($(echo "$all" | grep "^$directory/[^/]*$"))
    count=${#units[@]}
    if ((count < 2)); then echo "${units[0]}"; continue; fi
    batches=$(((count + UNITY_BATCH - 1) / UNITY_BATCH))
    for ((batch = 0; batch < batches; batch++)); do
      content="// Generated by wasm/build.sh (DENIABLE_UNITY)."$'\n'
      for ((index = 0; index < count; index++)); do
        ((index * batches / count == batch)) && content+="#include \"${units[index]}\""$'\n'
      done
      file="$UNITY_DIR/$(echo "$directory" | tr '/' '_')_$batch.cc"
      [ -f "$file" ] && [ "$(cat "$file"; echo .)" == "$content." ] || printf '%s' "$content" >"$file"
      echo "$file"
    done
  done
}

compile_all() {
  local pids=() failed=0 source object
  for source in $(unity_sources) "${SHARED_SOURCES[@]}" "${CLIENT_SOURCES[@]}" "${FULL_SOURCES[@]}"; do
    object=$(object_of "$source")
    if [[ " ${CLIENT_SOURCES[*]} " == *" $source "* ]]; then CLIENT_OBJECTS+=("$object");
    elif [[ " ${FULL_SOURCES[*]} " == *" $source "* ]]; then FULL_OBJECTS+=("$object");
    else OBJECTS+=("$object"); fi
    needs_compile "$object" "${object%.o}.d" || sodium_is_newer "$source" "$object" ||
      { [ "$PCH" != OFF ] && [ "$PCH_FILE" -nt "$object" ]; } || continue
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

# needs_link OUT STAMP FLAGS... -- INPUTS...
needs_link() {
  local out=$1 stamp=$2 flags=() input
  shift 2
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  [ -f "$out" ] && [ -f "${out%.mjs}.wasm" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" == "${flags[*]}" ] || return 0
  for input in "$@" "$SODIUM_LIBRARY" "$ENTROPY_LIBRARY" "$NODE_ESM_SHIM" wasm/build.sh; do
    [ "$input" -nt "$out" ] && return 0
  done
  return 1
}

# link OUT STAMP FLAGS... -- INPUTS...: links in a scratch directory (the .wasm
# is named after the .mjs), then moves both into place.
link() {
  local out=$1 stamp=$2 flags=() name scratch
  shift 2
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  name=$(basename "$out" .mjs)
  scratch="$BUILD_DIR/link-$name"
  rm -rf "$scratch" && mkdir -p "$scratch" "$OUT_DIR"
  echo "  em++ -o $out"
  em++ "${flags[@]}" "$@" "$SODIUM_LIBRARY" -o "$scratch/$name.mjs" || fail "link of $out failed (see the errors above)"
  mv "$scratch/$name.wasm" "${out%.mjs}.wasm"
  mv "$scratch/$name.mjs" "$out"
  printf '%s' "${flags[*]}" >"$stamp"
}

build_module() {
  local out=$1 stamp=$2
  if needs_link "$@"; then link "$@"; else echo "  $out is up to date"; fi
  check_output "$out"
}

# The generated JavaScript must not evaluate code at run time (the pages' CSP
# has no 'unsafe-eval') and must not draw randomness from Math.random.
check_output() {
  local out=$1 pattern
  for pattern in 'new Function' 'eval(' 'Math.random'; do
    if grep -qF "$pattern" "$out"; then
      rm -f "$out" "${out%.mjs}.wasm"
      fail "$out contains \"$pattern\"; it was deleted (check DYNAMIC_EXECUTION and $ENTROPY_LIBRARY)"
    fi
  done
  grep -qF 'crypto.getRandomValues' "$out" || fail "$out does not use crypto.getRandomValues for getentropy"
}

# Raw and brotli (quality 11, as the server precompresses) bytes of each file
# the browser fetches. Node's zlib: the brotli CLI may be absent.
print_sizes() {
  node -e '
    const { readFileSync } = require("fs");
    const { brotliCompressSync, constants } = require("zlib");
    for (const file of process.argv.slice(1)) {
      const bytes = readFileSync(file);
      const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      console.log(`wasm: ${file.padEnd(40)} ${String(bytes.length).padStart(8)} bytes raw ${String(br).padStart(7)} brotli`);
    }' "$@"
}

main() {
  echo "wasm: building $CLIENT_OUT and $FULL_OUT (deniable $VERSION, emscripten $EMXX_VERSION)"
  bash wasm/build-libsodium.sh
  stage_headers
  mkdir -p "$OBJ_DIR"
  invalidate_on_flag_change
  build_pch
  OBJECTS=() CLIENT_OBJECTS=() FULL_OBJECTS=()
  compile_all
  build_module "$CLIENT_OUT" "$BUILD_DIR/link_flags_client.txt" "${CLIENT_LINK_FLAGS[@]}" -- \
    "${OBJECTS[@]}" "${CLIENT_OBJECTS[@]}"
  build_module "$FULL_OUT" "$BUILD_DIR/link_flags_core.txt" "${FULL_LINK_FLAGS[@]}" -- \
    "${OBJECTS[@]}" "${FULL_OBJECTS[@]}"
  print_sizes "$CLIENT_OUT" "${CLIENT_OUT%.mjs}.wasm" "$FULL_OUT" "${FULL_OUT%.mjs}.wasm"
}

main
