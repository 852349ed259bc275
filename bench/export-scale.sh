#!/usr/bin/env bash
# The reports' export at scale: N copies of one demo report (12 columns: a GRR
# question, a 5-option OUE one, a 6-option negative survey) stored directly in
# SQLite, then exported by `deniable export` (CSV and JSON) and over HTTP
# (reports.csv). Prints wall time, peak memory (the CLI's max RSS; the server's
# VmHWM before and after the export) and the file size. Usage:
#   bash bench/export-scale.sh [N=1000000] [BIN=build/deniable]
set -euo pipefail
N=${1:-1000000}
BIN=${2:-build/deniable}
DIR=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$DIR"' EXIT

start_server() {
  "$BIN" serve --port 0 --data "$DIR/data" --quiet >"$DIR/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do grep -q "listening on" "$DIR/server.log" && break; sleep 0.1; done
  URL=$(grep -o 'http://[0-9.:]*' "$DIR/server.log" | head -1)
  TOKEN=$(grep -o 'admin token: [0-9a-f]*' "$DIR/server.log" | awk '{print $3}')
}

start_server
curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  --data @examples/demo-survey.json "$URL/api/surveys" >/dev/null
curl -sf -H 'Content-Type: application/json' \
  --data '{"survey":"demo","version":1,"responses":{"drugs":1,"alcohol":[0,1,0,0,1],"stress":[0,3]}}' \
  "$URL/api/surveys/demo/reports" >/dev/null
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true
sqlite3 "$DIR/data/deniable.sqlite3" "WITH RECURSIVE c(x) AS (SELECT 2 UNION ALL SELECT x + 1 FROM c WHERE x < $N)
  INSERT INTO reports (survey_id, body) SELECT 'demo', (SELECT body FROM reports LIMIT 1) FROM c;"

printf '%-24s %10s %12s %12s\n' "export of $N reports" "seconds" "peak MB" "file MB"
for format in csv json; do
  /usr/bin/time -f '%e %M' -o "$DIR/time" "$BIN" export --data "$DIR/data" --survey demo --format "$format" \
    --out "$DIR/out.$format" 2>/dev/null
  read -r seconds kb <"$DIR/time"
  printf '%-24s %10s %12.1f %12.1f\n' "cli --format $format" "$seconds" "$(echo "$kb / 1024" | bc -l)" \
    "$(echo "$(stat -c %s "$DIR/out.$format") / 1048576" | bc -l)"
done

start_server
before=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER/status")
start=$(date +%s.%N)
curl -sf -H "Authorization: Bearer $TOKEN" "$URL/api/surveys/demo/reports.csv" -o "$DIR/http.csv"
end=$(date +%s.%N)
after=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER/status")
printf '%-24s %10.2f %12s %12.1f\n' "http reports.csv" "$(echo "$end - $start" | bc -l)" \
  "$((before / 1024))->$((after / 1024))" "$(echo "$(stat -c %s "$DIR/http.csv") / 1048576" | bc -l)"
cmp -s "$DIR/http.csv" "$DIR/out.csv" && echo "http body equals the cli's csv" || echo "DIFFERENT: http body and cli csv"
