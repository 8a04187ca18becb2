#!lua
-- Writes one commit of a pipeline atomically (docs/redis.md describes every key).
--
-- KEYS: 1 the owner's meta (the pipeline's meta when one process owns the pipeline, the
--       partition's shard meta in cluster mode), 2 the pipeline's meta, 3 results, 4 results index,
--       5 results order, 6 pane log, 7 dead letters, 8 receipts, 9 receipts by time, 10 results
--       by key, 11 results extent, then four per shard section: keys, ids, shard meta, key order.
-- ARGV: 1 owner epoch, 2 the commit's sequence number under that epoch, 3 pane log max length,
--       4 dead letters max length, 5 results max count, 6 tracker state ('' when unchanged),
--       7 ids max count per shard, 8 the lineage the owner opened, 9 the partition's next offset,
--       10 its sources' watermark, 11 when a source was last heard from (9 to 11: '' unchanged),
--       12 a waiting request's receipt field ('<request>:<partition>', '' none), 13 its counts
--       (eight numbers, comma separated), 14 how long receipts are kept (ms), 15 number of shard
--       sections, 16 the owner's input watermark once the commit is applied, which makes every
--       window whose finalAt is at or before it final ('' unchanged), 17 the events of the waiting
--       request this commit refused, a JSON array of [index, path, reason, detail] ('' none), 18
--       how many of them a receipt keeps, 19 the longest window among the commit's panes ('' none),
--       20 the commit's span as a W3C traceparent, which its panes and finals carry in the pane
--       log for the Kafka sink ('' not traced: nothing is written), 21 '1' when the shards keep
--       their key order (cluster mode, where any replica reads a partition's windows a page at a
--       time; '' otherwise: the key order is not written), 22 the owner's output watermark once the
--       commit is applied (given with 16, and '' with it), then per section five arguments:
--         (key, state) pairs; (0, key) pairs of the keys among them the shard did not hold, as
--         ZADD takes them (empty unless the key order is kept); keys removed; (expiry, id) pairs;
--         watermark ('' unchanged)
--       then panes: (field, index, start, retraction, key, timing, final, record, member) per
--         pane, the member the window's result has in the results order and by key,
--       then session windows merged away: (field, key, merge record, member) per window,
--       then dead letters: (reason, record) per dead letter,
--       then fields of the owner's meta: the Kafka source partitions whose last applied record
--         moved (cluster mode), (field 'origin:<topic>:<partition>', offset) pairs, and the
--         lateness advisor when it is due (at most once per eventide.ingest.lateness-write-interval),
--         ('lateness', state),
--       then the windows closed without a closing pane, for a Kafka sink with finals:
--         (field, key) per window.
--       Each list is one argument, a MessagePack array of strings (PackedStrings): one argument
--       per item cost the client and Redis more than the items' own commands.
-- Returns the pane log ids of the panes, in order.
--
-- The owner's meta hash's 'commit' field names the last commit that landed ('<epoch>:<sequence>',
-- set to '<epoch>:0' when the owner opened it) and 'commitPanes' its pane log ids: after a
-- commit's reply was lost, resolve.lua reads them to learn whether it landed.
--
-- The shebang makes Redis (7+) refuse the script up front when it is out of memory, rather than
-- at its first write: a script that fails half way is not rolled back.

local epoch, sequence = ARGV[1], tonumber(ARGV[2])
if redis.call('HGET', KEYS[1], 'epoch') ~= epoch then
  return redis.error_reply('FENCED another owner has taken this pipeline, or it was dropped')
end
-- A drop deletes the pipeline's meta first: a partition's owner, whose epoch lives in the
-- partition's meta, is fenced by that before the rest of the state goes.
if redis.call('HGET', KEYS[2], 'lineage') ~= ARGV[8] then
  return redis.error_reply('FENCED the pipeline was dropped')
end
-- Commits land in order or not at all: one given up by resolve.lua can never land later.
if redis.call('HGET', KEYS[1], 'commit') ~= epoch .. ':' .. (sequence - 1) then
  return redis.error_reply('FENCED the commit before this one did not land')
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'tracker', ARGV[6])
end
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[1], 'offset', ARGV[9])
end
if ARGV[10] ~= '' then
  redis.call('HSET', KEYS[1], 'sourceWatermark', ARGV[10], 'heard', ARGV[11])
end
if ARGV[16] ~= '' then
  redis.call('HSET', KEYS[1], 'finalThrough', ARGV[16], 'outputWatermark', ARGV[22])
end

-- A request's records may take several commits of a partition: its receipt adds them up. Receipts
-- older than the retention go, a few per commit, so that they never pile up.
-- Redis's own clock: receipts age the same whichever replica wrote them.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if ARGV[12] ~= '' then
  local counts = {}
  for n in string.gmatch(ARGV[13], '%d+') do counts[#counts + 1] = tonumber(n) end
  local stored = redis.call('HGET', KEYS[8], ARGV[12])
  if stored then
    local i = 1
    for n in string.gmatch(stored, '%d+') do
      counts[i] = counts[i] + tonumber(n); i = i + 1
    end
  end
  redis.call('HSET', KEYS[8], ARGV[12], table.concat(counts, ','))
  redis.call('ZADD', KEYS[9], now, ARGV[12])
  -- The refused events, in the order the request's records were applied, at most ARGV[18].
  if ARGV[17] ~= '' then
    local field = ARGV[12] .. ':rejected'
    local listed = cjson.decode(ARGV[17])
    local before = redis.call('HGET', KEYS[8], field)
    if before then
      local kept = cjson.decode(before)
      for _, r in ipairs(listed) do
        if #kept >= tonumber(ARGV[18]) then break end
        kept[#kept + 1] = r
      end
      listed = kept
    end
    redis.call('HSET', KEYS[8], field, cjson.encode(listed))
  end
end
local old = redis.call('ZRANGEBYSCORE', KEYS[9], '-inf',
  string.format('(%d', now - tonumber(ARGV[14])), 'LIMIT', 0, 64)
if #old > 0 then
  redis.call('HDEL', KEYS[8], unpack(old))
  local rejected = {}
  for i, field in ipairs(old) do rejected[i] = field .. ':rejected' end
  redis.call('HDEL', KEYS[8], unpack(rejected))
  redis.call('ZREM', KEYS[9], unpack(old))
end

-- Variadic commands in chunks: one call per chunk costs far less than one per item, and chunks
-- stay below Lua's limit on unpacked arguments.
local CHUNK = 1000
local function call_chunked(command, key, items)
  for i = 1, #items, CHUNK do
    redis.call(command, key, unpack(items, i, math.min(i + CHUNK - 1, #items)))
  end
end

-- A result's member in the results order and by key (RedisKeys.resultMember) ends with its
-- field, 20 digits of start after the two NULs that end the key. A member without them was
-- written by an earlier version during an upgrade, and is its field.
local function field_of(member)
  local at = string.find(member, '\0\0', 1, true)
  return at and string.sub(member, at + 22) or member
end

-- A traced commit's entries carry its span; the entries of others carry nothing of tracing.
local traced = ARGV[20] ~= ''

-- The key order holds exactly the keys of the keys hash: a key goes in when the shard first holds
-- it and out when it is removed, not at every change of its state, which costs nothing there.
local keyOrder = ARGV[21] == '1'

local a = 23
for s = 0, tonumber(ARGV[15]) - 1 do
  local keys, ids, meta, order = KEYS[12 + 4 * s], KEYS[13 + 4 * s], KEYS[14 + 4 * s],
    KEYS[15 + 4 * s]
  -- Keys and their states come as pairs already, in the order HSET takes them; ids likewise.
  call_chunked('HSET', keys, cmsgpack.unpack(ARGV[a]))
  local removed = cmsgpack.unpack(ARGV[a + 2])
  call_chunked('HDEL', keys, removed)
  if keyOrder then
    call_chunked('ZADD', order, cmsgpack.unpack(ARGV[a + 1]))
    call_chunked('ZREM', order, removed)
  end
  local expiring = cmsgpack.unpack(ARGV[a + 3])
  call_chunked('ZADD', ids, expiring)
  if #expiring > 0 then
    -- Past the cap, the ids that would expire soonest go, as the shard forgets them in memory.
    redis.call('ZREMRANGEBYRANK', ids, 0, -tonumber(ARGV[7]) - 1)
  end
  local watermark = ARGV[a + 4]
  a = a + 5
  if watermark ~= '' then
    redis.call('HSET', meta, 'watermark', watermark)
    -- An id is kept while its windows can change: until the watermark passes its expiry.
    redis.call('ZREMRANGEBYSCORE', ids, '-inf', '(' .. watermark)
  end
end

local logged = {}
local panes = cmsgpack.unpack(ARGV[a]); a = a + 1
local n = #panes / 9
-- Versioned upsert: a pane replaces the stored one only if its index is not lower. The stored
-- indexes are read in one call; panes of one window within this commit compare in order.
local fields = {}
for i = 1, n do
  fields[i] = panes[9 * i - 8]
end
local stored, known = {}, {}
for i = 1, #fields, CHUNK do
  local got = redis.call('HMGET', KEYS[4], unpack(fields, i, math.min(i + CHUNK - 1, #fields)))
  for j = 1, #got do
    if got[j] then
      stored[fields[i + j - 1]] = tonumber(got[j]); known[fields[i + j - 1]] = true
    end
  end
end
-- Per window, where in panes the pane its result becomes is.
local winners = {}
for i = 1, n do
  local p = 9 * i - 8
  local field, index, retraction = panes[p], tonumber(panes[p + 1]), panes[p + 3]
  local kind = retraction == '1' and 'retraction' or 'pane'
  if traced then
    logged[i] = redis.call('XADD', KEYS[6], '*', 'key', panes[p + 4], 'timing', panes[p + 5],
      'final', panes[p + 6], 'kind', kind, 'record', panes[p + 7], 'trace', ARGV[20])
  else
    logged[i] = redis.call('XADD', KEYS[6], '*', 'key', panes[p + 4], 'timing', panes[p + 5],
      'final', panes[p + 6], 'kind', kind, 'record', panes[p + 7])
  end
  if retraction ~= '1' and (stored[field] == nil or stored[field] <= index) then
    stored[field] = index
    winners[field] = p
  end
end
local records, indexes, order, byKey = {}, {}, {}, {}
-- A window the results held before this commit is in the results order and by key already,
-- under a member and score its pane cannot change: only new windows are added there.
for field, p in pairs(winners) do
  records[#records + 1] = field; records[#records + 1] = panes[p + 7]
  indexes[#indexes + 1] = field; indexes[#indexes + 1] = panes[p + 1]
  if not known[field] then
    order[#order + 1] = panes[p + 2]; order[#order + 1] = panes[p + 8]
    byKey[#byKey + 1] = 0; byKey[#byKey + 1] = panes[p + 8]
  end
end
call_chunked('HSET', KEYS[3], records)
call_chunked('HSET', KEYS[4], indexes)
call_chunked('ZADD', KEYS[5], order)
call_chunked('ZADD', KEYS[10], byKey)
-- The longest window the results have held: a window that ends after a time starts less than that
-- before it, which bounds where a read for windows ending after a time begins.
if #order > 0 then
  local longest = tonumber(ARGV[19])
  if longest > tonumber(redis.call('GET', KEYS[11]) or '0') then
    redis.call('SET', KEYS[11], ARGV[19])
  end
end
-- A session merged into another is no window of its own any more: its result goes, and the pane
-- log tells its readers so, after the commit's panes as the results see it.
local mergedAway = cmsgpack.unpack(ARGV[a]); a = a + 1
local merged, mergedMembers = {}, {}
for i = 1, #mergedAway, 4 do
  merged[#merged + 1] = mergedAway[i]
  mergedMembers[#mergedMembers + 1] = mergedAway[i + 3]
  redis.call('XADD', KEYS[6], '*', 'key', mergedAway[i + 1], 'kind', 'merge',
    'record', mergedAway[i + 2])
end
-- A window closed without a closing pane: its result, which may be one of this commit's panes,
-- goes to the log again as final, for the Kafka sink. A result the limit forgot has none.
local finals = cmsgpack.unpack(ARGV[a + 2])
local finalsLogged = 0
for i = 1, #finals, 2 do
  local record = redis.call('HGET', KEYS[3], finals[i])
  if record and traced then
    redis.call('XADD', KEYS[6], '*', 'key', finals[i + 1], 'kind', 'final', 'record', record,
      'trace', ARGV[20])
    finalsLogged = finalsLogged + 1
  elseif record then
    redis.call('XADD', KEYS[6], '*', 'key', finals[i + 1], 'kind', 'final', 'record', record)
    finalsLogged = finalsLogged + 1
  end
end
-- Trimmed once for the whole commit rather than at every entry, with three arguments less per
-- pane: approximate trimming removes whole nodes either way. LIMIT 0 lifts the cap on what one
-- trim removes (100 nodes), which a commit of more entries than that would otherwise outgrow.
-- Progress that moved with nothing else logged is logged too, as a bare entry: it wakes the pane
-- streams of every replica, which then read the progress itself (readers skip the entry).
if ARGV[16] ~= '' and n == 0 and #mergedAway == 0 then
  redis.call('XADD', KEYS[6], '*', 'kind', 'progress')
end
if n > 0 or #mergedAway > 0 or finalsLogged > 0 or ARGV[16] ~= '' then
  redis.call('XTRIM', KEYS[6], 'MAXLEN', '~', ARGV[3], 'LIMIT', 0)
end
call_chunked('HDEL', KEYS[3], merged)
call_chunked('HDEL', KEYS[4], merged)
call_chunked('ZREM', KEYS[5], mergedMembers)
call_chunked('ZREM', KEYS[10], mergedMembers)
local over = redis.call('ZCARD', KEYS[5]) - tonumber(ARGV[5])
if over > 0 then
  -- Past the limit, the windows that start earliest are forgotten first.
  local gone = redis.call('ZPOPMIN', KEYS[5], over)
  local members, names = {}, {}
  for i = 1, #gone, 2 do
    members[#members + 1] = gone[i]
    names[#names + 1] = field_of(gone[i])
  end
  call_chunked('HDEL', KEYS[3], names)
  call_chunked('HDEL', KEYS[4], names)
  call_chunked('ZREM', KEYS[10], members)
end

local deadLetters = cmsgpack.unpack(ARGV[a])
for i = 1, #deadLetters, 2 do
  redis.call('XADD', KEYS[7], 'MAXLEN', '~', ARGV[4], '*', 'reason', deadLetters[i],
    'record', deadLetters[i + 1])
end
call_chunked('HSET', KEYS[1], cmsgpack.unpack(ARGV[a + 1]))
redis.call('HSET', KEYS[1], 'commit', epoch .. ':' .. sequence, 'commitPanes', table.concat(logged, ' '))
return logged
