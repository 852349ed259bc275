#!/usr/bin/env bash
# Builds everything: the native core, server, tests and benchmarks (CMake),
# the WebAssembly module (Emscripten), and the web pages (Vite).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=$(nproc)

echo "build: native (cmake)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$JOBS"

echo "build: WebAssembly (emscripten)"
bash wasm/build.sh

echo "build: web pages (vite)"
npx vite build --config web/vite.config.js --logLevel warn
