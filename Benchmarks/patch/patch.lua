-- wrk script: chains of one-leaf patches on the 1,000-node tree of LAYOUT_TEMPLATE
-- (Benchmarks/load/make_requests.py), one chain per wrk thread (run it with -t N -c N: a thread
-- with several connections would name one base from several requests at once).
--
-- A chain starts by POSTing the whole tree to /compute (root width 400, padding 8) and then
-- POSTs /compute/patch naming the last answer's ETag, each patch replacing the width of child 0
-- of root child (n * 37 mod PATCH_ITEMS). A 412 (the base was evicted) sends the whole tree
-- again, as a client must; it is counted in the requests like any other.
--
-- Environment: LAYOUT_TEMPLATE (the template), PATCH_ITEMS (how many children the root has),
-- PATCH_CHANGES_ONLY (1: "changesOnly": true), PATCH_CHANGES_BY ("changesBy", default pointer), PATCH_CHAIN (the first thread's chain number, 0:
-- give each run its own, so that no chain walks through trees an earlier run kept),
-- PATCH_CELLS (a file of the root's children, one JSON object per line with the id "@ID@"):
-- each patch removes the root's first child and appends a copy of that root child N with a
-- new id instead (bench.py PATCH=append: a chat that scrolls).
local file = assert(io.open(assert(os.getenv("LAYOUT_TEMPLATE"), "LAYOUT_TEMPLATE"), "rb"))
local whole = file:read("*a"):gsub("@W@", "400", 1):gsub("@P@", "8", 1)
file:close()
local items = assert(tonumber(os.getenv("PATCH_ITEMS")), "PATCH_ITEMS")
local changes_only = os.getenv("PATCH_CHANGES_ONLY") == "1" and "true" or "false"
local changes_by = os.getenv("PATCH_CHANGES_BY") or "pointer"
local headers = { ["Content-Type"] = "application/json" }
local cells = nil
if os.getenv("PATCH_CELLS") then
  cells = {}
  for line in io.lines(os.getenv("PATCH_CELLS")) do table.insert(cells, line) end
end

local threads = {}
local next_chain = tonumber(os.getenv("PATCH_CHAIN") or "0")

function setup(thread)
  thread:set("chain", next_chain)
  next_chain = next_chain + 1
  table.insert(threads, thread)
end

-- Per thread (each has its own Lua state): the chain's last ETag and how its requests were
-- answered ("in-place=41 rebuilt=1", for `done`: wrk copies strings between states, not tables).
local tag = nil
local n = 0
local modes = {}
summary = ""

function request()
  if tag == nil then
    return wrk.format("POST", "/compute", headers, whole)
  end
  n = n + 1
  -- Each chain's items and widths are its own (widths 20-36, 37-53, ...), so no two chains
  -- reach the same tree, whose kept layout only one of them could take.
  local item, width = (n * 37 + chain * 13) % items, 20 + 17 * (chain % 8) + n % 17
  local operations
  if cells then
    local cell = cells[item + 1]:gsub("@ID@", "new-" .. chain .. "-" .. n, 1)
    operations = '[{"op":"remove","path":"/root/children/0"},{"op":"add","path":"/root/children/-","value":' .. cell .. '}]'
  else
    operations = string.format(
      '[{"op":"replace","path":"/root/children/%d/children/0/style/width","value":%d}]', item, width)
  end
  local body = string.format('{"base":"%s","changesOnly":%s,"changesBy":"%s","patch":%s}', tag, changes_only, changes_by, operations)
  return wrk.format("POST", "/compute/patch", headers, body)
end

function response(status, headers, body)
  local mode = headers["X-Patch"] or (status == 412 and "412, whole tree sent again") or "whole tree"
  modes[mode] = (modes[mode] or 0) + 1
  local parts = {}
  for name, count in pairs(modes) do table.insert(parts, name .. "=" .. count) end
  summary = table.concat(parts, ";")
  if status == 200 then
    -- An entity tag is quoted ("..."): escaped, it is a JSON string.
    tag = headers["ETag"]:gsub('"', '\\"')
  elseif status == 412 then
    tag = nil
  else
    error("status " .. status .. ": " .. body:sub(1, 300))
  end
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for mode, count in string.gmatch(thread:get("summary"), "([^=;]+)=(%d+)") do
      total[mode] = (total[mode] or 0) + tonumber(count)
    end
  end
  local parts = {}
  for mode, count in pairs(total) do table.insert(parts, mode .. "=" .. count) end
  table.sort(parts)
  io.write("modes: " .. table.concat(parts, "; ") .. "\n")
end
