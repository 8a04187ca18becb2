-- Reads a page of a pipeline's results in window order (start, then field), after a window.
--
-- KEYS: 1 results order, 2 results. ARGV: 1 the field to continue after ('' from the first),
-- 2 its window start, 3 key ('' any), 4 windows ending after this, 5 windows starting before
-- this, 6 at most this many records.
-- Returns {field, record, field, record, ...}; one pair more than asked means there is more.
-- The order is the sorted set's own (score, then bytes of the member), so that a page continues
-- exactly where the last one ended even when that window has left the results since.

local order, results = KEYS[1], KEYS[2]
local after, key, from, to, limit = ARGV[1], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]),
  tonumber(ARGV[6])
local rank = 0
if after ~= '' then
  local r = redis.call('ZRANK', order, after)
  if r then
    rank = r + 1
  else
    rank = redis.call('ZCOUNT', order, '-inf', '(' .. ARGV[2])
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', order, ARGV[2], ARGV[2])) do
      if m < after then rank = rank + 1 end
    end
  end
end
local out = {}
local CHUNK = 1000
while #out < 2 * (limit + 1) do
  local page = redis.call('ZRANGE', order, rank, rank + CHUNK - 1, 'WITHSCORES')
  if #page == 0 then break end
  for i = 1, #page, 2 do
    local field, start = page[i], tonumber(page[i + 1])
    if start >= to then return out end
    local at = string.find(field, '@[^@]*$')
    local slash = string.find(field, '/[^/]*$')
    local ends = tonumber(string.sub(field, slash + 1))
    if ends > from and (key == '' or string.sub(field, 1, at - 1) == key) then
      out[#out + 1] = field
      out[#out + 1] = redis.call('HGET', results, field)
      if #out == 2 * (limit + 1) then return out end
    end
  end
  rank = rank + CHUNK
end
return out
