-- wrk script: POST the 1,000-node tree of LAYOUT_TEMPLATE with a new root width and padding
-- per request, so every request has a new structural hash (a cache miss: decode + layout +
-- encode + insert). LAYOUT_SEED offsets the counter so that successive wrk runs (up to a
-- million requests each, seeds 1e6 apart below 1e8) never repeat a tree.
local file = assert(io.open(assert(os.getenv("LAYOUT_TEMPLATE"), "LAYOUT_TEMPLATE"), "rb"))
local template = file:read("*a")
file:close()
local w = assert(template:find("@W@", 1, true), "no @W@ in the template")
local p = assert(template:find("@P@", 1, true), "no @P@ in the template")
assert(w < p, "@W@ must come before @P@")
local head, middle, tail = template:sub(1, w - 1), template:sub(w + 3, p - 1), template:sub(p + 3)
local counter = tonumber(os.getenv("LAYOUT_SEED") or "0")
local headers = { ["Content-Type"] = "application/json" }

request = function()
  counter = counter + 1
  -- width 300.00 .. 1299.99 and padding 0.00 .. 9.99, in steps of 0.01 (exact in Float32 range)
  local width = 300 + (counter % 100000) / 100
  local padding = (math.floor(counter / 100000) % 1000) / 100
  local body = head .. string.format("%.2f", width) .. middle .. string.format("%.2f", padding) .. tail
  return wrk.format("POST", "/compute", headers, body)
end
