-- Takes ownership of one partition of a pipeline in cluster mode (docs/scaling.md).
--
-- KEYS: 1 the pipeline's meta, 2 the partition's shard meta.
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
redis.call('HSET', KEYS[2], 'epoch', ARGV[2], 'commit', ARGV[2] .. ':0')
return redis.call('HGETALL', KEYS[2])
