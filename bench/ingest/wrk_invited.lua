-- wrk script for the invitation run of the ingestion benchmark: POSTs
-- WRK_BODY with one pre-issued header per request, each used once, read from
-- WRK_HEADERS (lines "Name: value"). Thread t of n takes lines t, t+n, ...;
-- a thread out of headers stops (its last requests go without one, refused
-- and counted as non-2xx), so a run ends at its duration or when its
-- headers are used up. done() prints the same line as wrk_request.lua, but
-- rps counts only the 2xx answers over the time from the first request to
-- the last 2xx answer (a monotonic clock, through LuaJIT's ffi): reports
-- stored per second, also when a run ends before its duration.

local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec* time);
]]
local clock = ffi.new("bench_timespec")
local function now()
  ffi.C.clock_gettime(1, clock)  -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) / 1e9
end

local threads = {}
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local count = tonumber(os.getenv("WRK_THREADS") or "1")
  headers = {}
  local n = 0
  for line in io.lines(os.getenv("WRK_HEADERS")) do
    if n % count == index then
      local name, value = line:match("^([^:]+): (.*)$")
      table.insert(headers, { name, value })
    end
    n = n + 1
  end
  next_header = 1
  first = 0
  last = 0
  stored = 0
  wrk.method = "POST"
  wrk.body = os.getenv("WRK_BODY")
end

function request()
  if first == 0 then first = now() end
  local header = headers[next_header]
  next_header = next_header + 1
  if not header then wrk.thread:stop() end
  -- wrk.format takes these headers instead of wrk.headers (it adds Host and Content-Length).
  local extra = { ["Content-Type"] = "application/json" }
  if header then extra[header[1]] = header[2] end
  return wrk.format(nil, nil, extra, nil)
end

function response(status, headers, body)
  if status >= 200 and status < 300 then
    stored = stored + 1
    last = now()
  end
end

function done(summary, latency, requests)
  local from, to, count = math.huge, 0, 0
  for _, thread in ipairs(threads) do
    local started = thread:get("first")
    if started > 0 then from = math.min(from, started) end
    to = math.max(to, thread:get("last"))
    count = count + thread:get("stored")
  end
  local seconds = math.max(to - from, 1e-9)
  local socket_errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    "WRK_RESULT requests=%d rps=%.1f mean_ms=%.3f p99_ms=%.3f non2xx=%d socket_errors=%d\n",
    summary.requests, count / seconds, latency.mean / 1000, latency:percentile(99) / 1000,
    summary.errors.status, socket_errors))
end
