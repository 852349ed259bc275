#!/usr/bin/env bash
# Builds the native server, the WebAssembly module (Emscripten) and the web
# pages (Vite); with `all` (the default) also the native tests and benchmarks.
# Every step is incremental: a second run takes seconds.
#
# Usage: bash scripts/build.sh [serve|all]   (serve: what `npm start` needs)
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE="${1:-all}"
JOBS=$(nproc)
started=$SECONDS

step() { echo "build: $* (at ${SECONDS}s)"; }

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ "$PROFILE" = "serve" ]; then
  step "native server: core + server (about 5 minutes the first time on 2 cores, seconds after)"
  cmake --build build -j "$JOBS" --target deniable
else
  step "native server, tests and benchmarks (about 8 minutes the first time on 2 cores, seconds after)"
  cmake --build build -j "$JOBS"
fi

step "WebAssembly core for the pages (about 5 minutes the first time, seconds after)"
bash wasm/build.sh

step "web pages (vite, a few seconds)"
npx vite build --config web/vite.config.js --logLevel warn
echo "build: done in $((SECONDS - started))s"
