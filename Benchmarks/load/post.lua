-- wrk script: POST the same layout request every time (after the first, every answer is a
-- cache hit). LAYOUT_BODY names the request file, LAYOUT_PATH the path (/compute).
-- LAYOUT_CLOSE=1 adds `Connection: close` (a new connection per request).
local file = assert(io.open(os.getenv("LAYOUT_BODY") or "Benchmarks/load/request.json", "rb"))
wrk.method = "POST"
wrk.path = os.getenv("LAYOUT_PATH") or "/compute"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
if os.getenv("LAYOUT_CLOSE") == "1" then
  wrk.headers["Connection"] = "close"
end
