#!/usr/bin/env bash
# `npm start`: installs what serving needs, builds the server, the
# WebAssembly core and the pages (not the tests or benchmarks: `npm test` and
# `npm run build` build those), and serves Deniable on http://localhost:8080
# with the demo surveys loaded (categorical "demo" and numeric
# "numeric-demo"). The admin token is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh serve
bash scripts/build.sh serve
PORT="${PORT:-8080}"
exec build/deniable serve --port "$PORT" --data "${DENIABLE_DATA:-./deniable-data}" --demo examples/demo-survey.json \
  --demo examples/numeric-survey.json
