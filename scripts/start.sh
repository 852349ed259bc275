#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and serves Deniable on
# http://localhost:8080 with the demo surveys loaded (categorical "demo" and
# numeric "numeric-demo"). The admin token is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
PORT="${PORT:-8080}"
exec build/deniable serve --port "$PORT" --data "${DENIABLE_DATA:-./deniable-data}" --demo examples/demo-survey.json \
  --demo examples/numeric-survey.json
