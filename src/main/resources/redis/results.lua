-- Reads a page of a pipeline's results in window order (start, then field), after a window.
--
-- KEYS: 1 results order, 2 results, 3 the results of the key read (commit.lua), 4 results span,
-- and optionally 5 the pane log. ARGV: 1 the field to continue after ('' from the first), 2 its
-- window start, 3 '=' and the key ('' any key), 4 windows ending after this ('' any), 5 windows
-- starting before this, 6 at most this many records.
-- Returns {visited, [position,] field, record, field, record, ...}: how many entries of the
-- indexes the read went through, with the pane log given its newest id ('0-0' for an empty log),
-- read at the same moment, then the page; one pair more than asked means there is more.
-- The order is the sorted set's own (score, then bytes of the member), so that a page continues
-- exactly where the last one ended even when that window has left the results since. A read
-- costs what it returns and the windows it passes over between its bounds: a key's windows are
-- a sorted set of their own, ordered as the results order, and a window ending after 'from'
-- starts at most the longest window the results have held (the span) before it.

local results = KEYS[2]
-- A key's set holds the results order's members and scores restricted to the key.
local order = ARGV[3] ~= '' and KEYS[3] or KEYS[1]
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

-- Takes the fields of a run of the index that match; false once past 'to' or the page is full.
local function take(field)
  local at = string.find(field, '@[^@]*$')
  local slash = string.find(field, '/[^/]*$')
  if tonumber(string.sub(field, at + 1, slash - 1)) >= to then return false end
  if tonumber(string.sub(field, slash + 1)) > from then
    fields[#fields + 1] = field
  end
  return #fields < limit + 1
end

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
local going = true
while going do
  local run = redis.call('ZRANGE', order, rank, rank + chunk - 1)
  visited = visited + #run
  for i = 1, #run do
    going = take(run[i])
    if not going then break end
  end
  if #run < chunk then break end
  rank = rank + chunk
  chunk = math.min(CHUNK, chunk * 2)
end

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
