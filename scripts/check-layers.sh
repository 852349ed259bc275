#!/usr/bin/env bash
# The server's include rule: each folder of server/ may include only the
# folders below it (and core/), so its layers can be read from its folders:
#
#   base      time, files, random bytes, hashing, text, signals   -> nothing
#   http      framing, the cpp-httplib adapter, compression, pages -> base
#   storage   the storage interface, SQLite and PostgreSQL         -> base
#   surveys   registry, report writer, estimation, caches, tokens  -> base storage
#   api       the route table and the handlers                     -> base http storage surveys
#   app       the composition root (builds and wires the layers)   -> base http storage surveys api
#   cli       the commands and their arguments                     -> every layer
#
# Also: only server/ includes the HTTP library, SQLite or libpq, and only http/
# and cli/ (the simulator's client) include cpp-httplib, only storage/ SQLite
# and libpq (libpq-fe.h).
# Fails (exit 1) naming each violation.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A allowed=(
  [base]=""
  [http]="base"
  [storage]="base"
  [surveys]="base storage"
  [api]="base http storage surveys"
  [app]="base http storage surveys api"
  [cli]="base http storage surveys api app"
)

violations=0
report() { echo "check-layers: $1" >&2; violations=$((violations + 1)); }

for dir in server/*/; do
  layer=$(basename "$dir")
  [ -n "${allowed[$layer]+set}" ] || report "server/$layer/ is not a known layer (add it to scripts/check-layers.sh)"
done

while IFS= read -r -d '' file; do
  rel=${file#server/}
  layer=${rel%%/*}
  [ "$layer" = "$rel" ] && layer=main  # server/main.cc: may include cli
  while IFS=: read -r line target; do
    used=${target#server/}
    used=${used%%/*}
    [ "$used" = "$layer" ] && continue
    if [ "$layer" = main ]; then
      [ "$used" = cli ] || report "$file:$line includes server/$used/ (main.cc includes only cli/)"
      continue
    fi
    case " ${allowed[$layer]:-} " in
      *" $used "*) ;;
      *) report "$file:$line: server/$layer/ may not include server/$used/ (allowed: ${allowed[$layer]:-nothing})" ;;
    esac
  done < <(grep -no '^#include "server/[^"]*"' "$file" | sed 's/#include "\(.*\)"/\1/')
  if grep -q '^#include <httplib.h>' "$file" && [[ "$layer" != http && "$layer" != cli ]]; then
    report "$file includes <httplib.h>: only server/http/ (and the simulator's client in cli/) may"
  fi
  if grep -q '^#include <sqlite3.h>' "$file" && [[ "$layer" != storage ]]; then
    report "$file includes <sqlite3.h>: only server/storage/ may"
  fi
  if grep -q '^#include <libpq-fe.h>' "$file" && [[ "$layer" != storage ]]; then
    report "$file includes <libpq-fe.h>: only server/storage/ may"
  fi
done < <(find server -name '*.h' -print0 -o -name '*.cc' -print0)

# Nothing outside server/ includes it, except the server's own tests and
# benchmarks (tests/cpp/server/, bench/server/: they measure its internals).
while IFS= read -r hit; do
  report "$hit: only server/, tests/cpp/server/ and bench/server/ may include server/"
done < <(grep -rno --exclude-dir=server '^#include "server/[^"]*"' core wasm bench tests/tools 2>/dev/null || true)
# libpq nowhere outside server/storage/ (the server's tests reach it through storage/).
while IFS= read -r hit; do
  report "$hit: only server/storage/ may include <libpq-fe.h>"
done < <(grep -rno '^#include <libpq-fe.h>' core wasm bench tests 2>/dev/null || true)

if [ "$violations" -gt 0 ]; then
  echo "check-layers: $violations violation(s) of the server's include rule" >&2
  exit 1
fi
echo "check-layers: server/ keeps its layers ($(find server -name '*.cc' | wc -l) units)"
