-- Takes ownership of a pipeline's state for a runtime of one lineage of its definition.
--
-- KEYS: 1 meta.
-- ARGV: 1 lineage, 2 the new owner's epoch, 3 the shard count for a pipeline with no state yet.
-- Returns the meta hash's fields and values, or nothing when the state is of another lineage:
-- that of a pipeline deleted or reset since, or of a later one of the same name.

local lineage = redis.call('HGET', KEYS[1], 'lineage')
if lineage and lineage ~= ARGV[1] then
  return {}
end
redis.call('HSETNX', KEYS[1], 'shards', ARGV[3])
-- Taking the epoch fences an earlier owner: its commits now fail their check. The new owner's
-- commits are numbered from 1 (commit.lua).
redis.call('HSET', KEYS[1], 'lineage', ARGV[1], 'epoch', ARGV[2], 'commit', ARGV[2] .. ':0')
return redis.call('HGETALL', KEYS[1])
