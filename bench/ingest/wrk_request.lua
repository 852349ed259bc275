-- wrk script for the ingestion benchmark. The request comes from the
-- environment: WRK_METHOD (default GET), WRK_BODY (optional, sent as JSON).
-- done() prints one machine-readable line that run.sh turns into a table row.

wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local socket_errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    "WRK_RESULT requests=%d rps=%.1f mean_ms=%.3f p99_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, summary.requests / seconds, latency.mean / 1000, latency:percentile(99) / 1000,
    summary.errors.status, socket_errors))
end
