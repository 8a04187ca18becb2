-- Reads a page of a pipeline's results in window order, after a window.
--
-- KEYS: 1 results order, 2 results, 3 results by key, 4 results extent, and optionally 5 the pane
-- log. ARGV: 1 the member (RedisKeys.resultMember) of the window to continue after ('' from the
-- first), 2 its window start, 3 the members' prefix of the key read ('' any key), 4 windows
-- ending after this ('' any), 5 windows starting before this, 6 at most this many records.
-- Returns {visited, [position,] field, record, field, record, ...}: how many entries of the
-- indexes the read went through, with the pane log given its newest id ('0-0' for an empty log),
-- read at the same moment, then the page; one pair more than asked means there is more.
-- Without a key the order is the results order's own (score, the start, then bytes of the
-- member); a key's results are one range of the set by key, in bytes of the member, which for one
-- key is start order too. Either way a page continues exactly where the last one ended even when
-- that window has left the results since. A read costs what it returns and the windows it passes
-- over between its bounds: a window ending after 'from' starts at most the longest window the
-- results have held (the extent) before it.

local results = KEYS[2]
local prefix = ARGV[3]
local after, to, limit = ARGV[1], tonumber(ARGV[5]), tonumber(ARGV[6])
local from = ARGV[4] == '' and -math.huge or tonumber(ARGV[4])
-- The earliest start of a window ending after 'from'.
local lowest = nil
if ARGV[4] ~= '' then
  local span = tonumber(redis.call('GET', KEYS[4]) or '0')
  lowest = from - span + 1
  if math.abs(from) >= 2^53 or span >= 2^53 then
    -- Beyond 2^53 the numbers here are rounded (to 8 at most in Eventide's range of times).
    lowest = lowest - 16
  end
end
local visited, fields = 0, {}
local CHUNK = 1000

-- Whether a sorts before b byte by byte, as the sorted sets order their members.
local function bytes_before(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- A member's field: after the key's prefix and the 20 digits of its start (commit.lua). A member
-- without that prefix is an earlier version's, its field itself.
local function field_of(member)
  local at = string.find(member, '\0\0', 1, true)
  return at and string.sub(member, at + 22) or member
end

-- Takes the fields of a run of the index that match; false once past 'to' or the page is full.
local function take(member)
  local field = field_of(member)
  local at = string.find(field, '@[^@]*$')
  local slash = string.find(field, '/[^/]*$')
  if tonumber(string.sub(field, at + 1, slash - 1)) >= to then return false end
  if tonumber(string.sub(field, slash + 1)) > from then
    fields[#fields + 1] = field
  end
  return #fields < limit + 1
end

-- A start as 20 digits whose bytes sort as the numbers do (RedisKeys.appendSortable), from its
-- decimal text.
local function sortable(decimal)
  local negative = string.sub(decimal, 1, 1) == '-'
  local digits = negative and string.sub(decimal, 2) or decimal
  digits = string.rep('0', 19 - #digits) .. digits
  if not negative then return '1' .. digits end
  return '0' .. (string.gsub(digits, '%d', function(d) return 9 - tonumber(d) end))
end

local function walk_order()
  local order = KEYS[1]
  local rank = 0
  if lowest ~= nil then
    rank = redis.call('ZCOUNT', order, '-inf', '(' .. string.format('%.0f', lowest))
  end
  if after ~= '' then
    local r = redis.call('ZRANK', order, after)
    if not r then
      -- The window has left the results: the first member of its score that sorts after it, by
      -- a binary search over ranks (Lua's '<' on strings follows the locale, not the bytes).
      local low = redis.call('ZCOUNT', order, '-inf', '(' .. ARGV[2])
      local high = redis.call('ZCOUNT', order, '-inf', ARGV[2])
      while low < high do
        local mid = math.floor((low + high) / 2)
        visited = visited + 1
        if bytes_before(redis.call('ZRANGE', order, mid, mid)[1], after) then
          low = mid + 1
        else
          high = mid
        end
      end
      r = low - 1
    end
    rank = math.max(rank, r + 1)
  end
  local chunk = math.min(CHUNK, limit + 1)
  while true do
    local run = redis.call('ZRANGE', order, rank, rank + chunk - 1)
    visited = visited + #run
    for i = 1, #run do
      if not take(run[i]) then return end
    end
    if #run < chunk then return end
    rank = rank + chunk
    chunk = math.min(CHUNK, chunk * 2)
  end
end

-- A key's results: its range of the set by key, from the earliest start that can end after
-- 'from' (when that start is a number Lua holds exactly), or after the window to continue after
-- when that comes later.
local function walk_key()
  local bound = prefix
  if lowest ~= nil and math.abs(lowest) < 2^53 then
    bound = prefix .. sortable(string.format('%.0f', lowest))
  end
  local first = '[' .. bound
  if after ~= '' and not bytes_before(after, bound) then
    first = '(' .. after
  end
  local last = '(' .. string.sub(prefix, 1, -2) .. '\1'
  local chunk = math.min(CHUNK, limit + 1)
  while true do
    local run = redis.call('ZRANGE', KEYS[3], first, last, 'BYLEX', 'LIMIT', 0, chunk)
    visited = visited + #run
    for i = 1, #run do
      if not take(run[i]) then return end
    end
    if #run < chunk then return end
    first = '(' .. run[#run]
    chunk = math.min(CHUNK, chunk * 2)
  end
end

if prefix == '' then walk_order() else walk_key() end

local out = { tostring(visited) }
if KEYS[5] then
  local last = '0-0'
  if redis.call('EXISTS', KEYS[5]) == 1 then
    local info = redis.call('XINFO', 'STREAM', KEYS[5])
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then last = info[i + 1] end
    end
  end
  out[2] = last
end
-- In chunks, below Lua's limit on unpacked arguments.
for i = 1, #fields, CHUNK do
  local records = redis.call('HMGET', results, unpack(fields, i, math.min(i + CHUNK - 1, #fields)))
  for j = 1, #records do
    out[#out + 1] = fields[i + j - 1]
    out[#out + 1] = records[j]
  end
end
return out
