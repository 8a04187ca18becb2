-- Takes ownership of one partition of a pipeline in cluster mode (docs/scaling.md).
--
-- KEYS: 1 the pipeline's meta, 2 the partition's shard meta, 3 its keys, 4 its key order.
-- ARGV: 1 lineage, 2 the new owner's epoch, 3 the pipeline's partition count.
-- Returns the partition meta's fields and values, or nothing when the pipeline's state is of
-- another lineage. The epoch lives in the partition's meta, so that taking one partition fences
-- only that partition's earlier owner; the lineage lives in the pipeline's, where a drop deletes it
-- first (commit.lua checks both).

local lineage = redis.call('HGET', KEYS[1], 'lineage')
if lineage and lineage ~= ARGV[1] then
  return {}
end
redis.call('HSETNX', KEYS[1], 'shards', ARGV[3])
redis.call('HSET', KEYS[1], 'lineage', ARGV[1])

-- The meta's 'keyOrder' names the owner whose commits kept the key order (commit.lua): when that
-- is not the owner before this one (an earlier version wrote the partition, or a whole-pipeline
-- owner, which does not keep it), the order is built again from the keys, once, before this
-- owner's first commit. Readers trust the order only while 'keyOrder' is the owner's epoch.
local meta = redis.call('HMGET', KEYS[2], 'epoch', 'keyOrder')
if not meta[2] or meta[2] ~= meta[1] then
  redis.call('DEL', KEYS[4])
  local held = redis.call('HKEYS', KEYS[3])
  local CHUNK = 1000
  for i = 1, #held, CHUNK do
    local members = {}
    for j = i, math.min(i + CHUNK - 1, #held) do
      members[#members + 1] = 0; members[#members + 1] = held[j]
    end
    redis.call('ZADD', KEYS[4], unpack(members))
  end
end
redis.call('HSET', KEYS[2], 'epoch', ARGV[2], 'commit', ARGV[2] .. ':0', 'keyOrder', ARGV[2])
return redis.call('HGETALL', KEYS[2])
