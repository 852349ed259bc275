#!/usr/bin/env bash
# Counts the places outside the two kind registries (core/survey/kind_registry.cc
# and web/src/kinds/registry.js) that branch on a question's kind: tests of
# is_numeric() or QuestionType, of a definition's or result's "type", of a
# mechanism's concrete type (dynamic_cast) or name. Prints each line and the
# total; `--total` prints only the number.
set -euo pipefail
cd "$(dirname "$0")/.."
PATTERN='is_numeric\(\)|QuestionType::|dynamic_cast<|name\(\) *[!=]= *"|\["type"\] *[!=]=|[!=]==? *["'"'"'](numeric|categorical)["'"'"']'
lines="$(grep -rnE "$PATTERN" core server wasm web/src --include=*.cc --include=*.h --include=*.js \
  | grep -vE '^(core/survey/kind_registry\.cc|web/src/kinds/registry\.js|web/src/generated/)' \
  | grep -vE ':[0-9]+: *(//|\*)' || true)"
count=$(printf '%s' "$lines" | grep -c . || true)
if [ "${1:-}" != "--total" ]; then printf '%s\n' "$lines"; fi
echo "$count"
