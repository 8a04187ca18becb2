-- Brings a pipeline's results to the form this version keeps them in, once: each result's member
-- in the results order becomes RedisKeys.resultMember (key, start in sortable digits, field) and
-- goes into the set by key too, the sets an earlier version kept per key go, and the longest
-- window is written as the results extent, whose presence marks the results as upgraded.
-- RedisStateStore runs this before a process first commits to or reads a pipeline's results; it
-- walks the results once (at most eventide.outputs.results-per-pipeline of them).
--
-- KEYS: 1 results order, 2 results by key, 3 results extent, 4 an earlier version's results span,
-- 5 the prefix of an earlier version's set of one key's results (that set is '<prefix><key>').
-- Returns how many results it upgraded.

if redis.call('EXISTS', KEYS[3]) == 1 then
  return 0
end

local function sortable(decimal)
  local negative = string.sub(decimal, 1, 1) == '-'
  local digits = negative and string.sub(decimal, 2) or decimal
  digits = string.rep('0', 19 - #digits) .. digits
  if not negative then return '1' .. digits end
  return '0' .. (string.gsub(digits, '%d', function(d) return 9 - tonumber(d) end))
end

local CHUNK = 1000
local function call_chunked(command, key, items)
  for i = 1, #items, CHUNK do
    redis.call(command, key, unpack(items, i, math.min(i + CHUNK - 1, #items)))
  end
end

local held = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
-- No results, nothing to upgrade: the first commit with a result writes the extent, and no key is
-- written for a pipeline that may be gone.
if #held == 0 then
  return 0
end
local longest = tonumber(redis.call('GET', KEYS[4]) or '0')
local earlier, order, byKey, keys = {}, {}, {}, {}
for i = 1, #held, 2 do
  local field, score = held[i], held[i + 1]
  if not string.find(field, '\0\0', 1, true) then
    local at = string.find(field, '@[^@]*$')
    local slash = string.find(field, '/[^/]*$')
    local key, start = string.sub(field, 1, at - 1), string.sub(field, at + 1, slash - 1)
    local member = (string.gsub(key, '%z', '\0\1')) .. '\0\0' .. sortable(start) .. field
    earlier[#earlier + 1] = field
    order[#order + 1] = score; order[#order + 1] = member
    byKey[#byKey + 1] = 0; byKey[#byKey + 1] = member
    keys[key] = true
    longest = math.max(longest, tonumber(string.sub(field, slash + 1)) - tonumber(start))
  end
end
call_chunked('ZREM', KEYS[1], earlier)
call_chunked('ZADD', KEYS[1], order)
call_chunked('ZADD', KEYS[2], byKey)
for key in pairs(keys) do
  redis.call('DEL', KEYS[5] .. key)
end
redis.call('SET', KEYS[3], string.format('%.0f', longest))
redis.call('DEL', KEYS[4])
return #earlier
