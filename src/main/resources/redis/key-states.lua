-- Reads a page of one partition's keys and their states in key order (cluster mode, /windows
-- without a key): from a key on, at most a count of them, so that a page of windows costs the keys
-- it needs, not the partition's every key.
--
-- KEYS: 1 the partition's shard meta, 2 its keys, 3 its key order.
-- ARGV: 1 the first key to read ('' from the first; the cursor's own key is read too), 2 how many
--       keys at most.
-- Returns {the shard's watermark ('' none), '1', then (key, state) pairs in key order}, or
-- {watermark, '0'} when the partition's owner does not keep the key order (its 'keyOrder' is not
-- its epoch: written by an earlier version, or not opened yet in cluster mode), to be read whole.

local meta = redis.call('HMGET', KEYS[1], 'watermark', 'epoch', 'keyOrder')
local watermark = meta[1] or ''
if not meta[3] or meta[3] ~= meta[2] then
  return {watermark, '0'}
end
local from = ARGV[1] == '' and '-' or '[' .. ARGV[1]
local keys = redis.call('ZRANGE', KEYS[3], from, '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))
local out = {watermark, '1'}
if #keys == 0 then
  return out
end
local states = redis.call('HMGET', KEYS[2], unpack(keys))
for i = 1, #keys do
  -- Both are written by the same commits: a key in the order always has its state.
  if states[i] then
    out[#out + 1] = keys[i]; out[#out + 1] = states[i]
  end
end
return out
