-- Writes one commit of a pipeline atomically (docs/redis.md describes every key).
--
-- KEYS: 1 meta, 2 results, 3 results index, 4 results order, 5 pane log, 6 dead letters,
--       then three per shard section: keys, ids, shard meta.
-- ARGV: 1 owner epoch, 2 pane log max length, 3 dead letters max length, 4 results max count,
--       5 tracker state ('' when unchanged), 6 number of shard sections, then per section:
--         n, n x (key, state); n, n x key removed; n, n x (expiry, id); watermark ('' unchanged)
--       then panes: n, n x (field, index, start, retraction, key, timing, final, record)
--       then dead letters: n, n x (reason, record).
-- Returns the pane log ids of the panes, in order.

if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then
  return redis.error_reply('FENCED another owner has taken this pipeline, or it was dropped')
end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'tracker', ARGV[5])
end

local a = 7
for s = 0, tonumber(ARGV[6]) - 1 do
  local keys, ids, meta = KEYS[7 + 3 * s], KEYS[8 + 3 * s], KEYS[9 + 3 * s]
  local n = tonumber(ARGV[a]); a = a + 1
  for _ = 1, n do
    redis.call('HSET', keys, ARGV[a], ARGV[a + 1]); a = a + 2
  end
  n = tonumber(ARGV[a]); a = a + 1
  for _ = 1, n do
    redis.call('HDEL', keys, ARGV[a]); a = a + 1
  end
  n = tonumber(ARGV[a]); a = a + 1
  for _ = 1, n do
    redis.call('ZADD', ids, ARGV[a], ARGV[a + 1]); a = a + 2
  end
  local watermark = ARGV[a]; a = a + 1
  if watermark ~= '' then
    redis.call('HSET', meta, 'watermark', watermark)
    -- An id is kept while its windows can change: until the watermark passes its expiry.
    redis.call('ZREMRANGEBYSCORE', ids, '-inf', '(' .. watermark)
  end
end

local logged = {}
local n = tonumber(ARGV[a]); a = a + 1
for i = 1, n do
  local field, index, start, retraction = ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3]
  local record = ARGV[a + 7]
  logged[i] = redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[2], '*',
    'key', ARGV[a + 4], 'timing', ARGV[a + 5], 'final', ARGV[a + 6],
    'kind', retraction == '1' and 'retraction' or 'pane', 'record', record)
  if retraction ~= '1' then
    -- Versioned upsert: a pane replaces the stored one only if its index is not lower.
    local stored = redis.call('HGET', KEYS[3], field)
    if not stored or tonumber(stored) <= tonumber(index) then
      redis.call('HSET', KEYS[2], field, record)
      redis.call('HSET', KEYS[3], field, index)
      redis.call('ZADD', KEYS[4], start, field)
    end
  end
  a = a + 8
end
local over = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[4])
if over > 0 then
  -- Past the limit, the windows that start earliest are forgotten first.
  local gone = redis.call('ZPOPMIN', KEYS[4], over)
  for i = 1, #gone, 2 do
    redis.call('HDEL', KEYS[2], gone[i])
    redis.call('HDEL', KEYS[3], gone[i])
  end
end

n = tonumber(ARGV[a]); a = a + 1
for _ = 1, n do
  redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[3], '*', 'reason', ARGV[a], 'record', ARGV[a + 1])
  a = a + 2
end
return logged
