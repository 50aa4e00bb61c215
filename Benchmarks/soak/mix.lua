-- wrk script for the soak: a mix of cached, uncached (distinct trees), batch and bad requests.
-- Good requests answer 200; bad ones a 4xx. Counts per status class are summed over threads in
-- done() and printed as "soak-status ..." lines that soak.sh reads.

local threads = {}
local thread_id = 0

function setup(thread)
  thread_id = thread_id + 1
  thread:set("id", thread_id)
  table.insert(threads, thread)
end

local headers = { ["Content-Type"] = "application/json" }
local counter = 0
local cached = {}
local bad = {
  '{"root":',                                           -- 400 truncated JSON
  '{"root":{"style":{"widht":10}}}',                    -- 422 unknown key
  '{"root":{"style":{"width":-5}}}',                    -- 422 negative size
  '{"root":{"children":[{"measure":{"kind":"x"}}]}}',   -- 422 unknown measure kind
  '[1,2,3]',                                            -- 422 wrong type
  '{"root":{"id":"\255"}}',                             -- 400 invalid UTF-8
}

local function tree(seed, children)
  local items = {}
  for i = 1, children do
    items[i] = string.format('{"id":"c%d","style":{"flexGrow":%d,"height":%d,"margin":%d}}',
                             i, (seed + i) % 3, 10 + (seed * 7 + i) % 40, i % 5)
  end
  -- The width carries the whole seed, so every seed is a tree with its own structural hash.
  return string.format('{"root":{"id":"r","style":{"flexDirection":"row","flexWrap":"wrap","width":%.3f,"padding":4},"children":[%s]},"available":{"width":1000,"height":null}}',
                       200 + (seed % 1000000) / 1000, table.concat(items, ","))
end

function init(args)
  counter = id * 100000000
  for i = 1, 16 do cached[i] = tree(i, 5 + i) end
  statuses = { ok = 0, c4xx = 0, c5xx = 0, other = 0 }
end

function request()
  counter = counter + 1
  local pick = counter % 20
  if pick < 8 then        -- 40% cached: one of 16 fixed trees
    return wrk.format("POST", "/compute", headers, cached[counter % 16 + 1])
  elseif pick < 15 then   -- 35% uncached: a tree no one asked for before
    return wrk.format("POST", "/compute", headers, tree(counter, 3 + counter % 20))
  elseif pick < 17 then   -- 10% batch of 8 (half cached)
    local items = {}
    for i = 1, 4 do items[i] = cached[(counter + i) % 16 + 1] end
    for i = 5, 8 do items[i] = tree(counter * 8 + i, 4) end
    return wrk.format("POST", "/compute/batch", headers, "[" .. table.concat(items, ",") .. "]")
  else                    -- 15% bad requests
    return wrk.format("POST", "/compute", headers, bad[counter % #bad + 1])
  end
end

function response(status, headers, body)
  if status == 200 then statuses.ok = statuses.ok + 1
  elseif status >= 400 and status < 500 then statuses.c4xx = statuses.c4xx + 1
  elseif status >= 500 then statuses.c5xx = statuses.c5xx + 1
  else statuses.other = statuses.other + 1 end
end

function done(summary, latency, requests)
  local total = { ok = 0, c4xx = 0, c5xx = 0, other = 0 }
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for k, v in pairs(s) do total[k] = total[k] + v end
  end
  io.write(string.format("soak-status ok=%d c4xx=%d c5xx=%d other=%d\n", total.ok, total.c4xx, total.c5xx, total.other))
  io.write(string.format("soak-errors connect=%d read=%d write=%d status=%d timeout=%d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout))
  io.write(string.format("soak-latency p50=%.2fms p99=%.2fms max=%.2fms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
