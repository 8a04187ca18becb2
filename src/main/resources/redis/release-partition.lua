-- Undoes a partition's open whose pipeline turned out to be deleted meanwhile (cluster mode): a
-- delete drops the pipeline's meta first, and an open that came just after it wrote the lineage
-- back. The partition's meta goes unless another owner has taken it since, and the pipeline's
-- meta unless it is of another lineage (a pipeline defined again since).
--
-- KEYS: 1 the pipeline's meta, 2 the partition's shard meta. ARGV: 1 the owner's epoch, 2 lineage.

if redis.call('HGET', KEYS[2], 'epoch') == ARGV[1] then
  redis.call('DEL', KEYS[2])
end
if redis.call('HGET', KEYS[1], 'lineage') == ARGV[2] then
  redis.call('DEL', KEYS[1])
end
return 0
