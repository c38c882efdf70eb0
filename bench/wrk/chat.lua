-- Non-streaming chat completions over wrk's connections (closed loop), against one target.
-- Environment: BODY (the request's JSON), HEADERS_FILE (one "name: value" line per header),
-- SUMMARY_FILE (where done() writes the run's figures as JSON; latencies in microseconds).
wrk.method = "POST"
wrk.body = os.getenv("BODY")
wrk.headers["content-type"] = "application/json"
for line in io.lines(os.getenv("HEADERS_FILE")) do
  local name, value = line:match("^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

function done(summary, latency, requests)
  local errors = summary.errors
  local file = assert(io.open(os.getenv("SUMMARY_FILE"), "w"))
  file:write(string.format(
    '{"requests":%d,"durationUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p99":%d,"mean":%.3f,"max":%d}}',
    summary.requests, summary.duration,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50), latency:percentile(99), latency.mean, latency.max))
  file:close()
end
