-- Writes a pane forwarder's checkpoint, only while the writer holds the lease: a holder that lost
-- it (paused past it, say) can move the checkpoint neither back nor forward.
--
-- KEYS: 1 the lease, 2 the checkpoint. ARGV: 1 the writer's token, 2 position, 3 entries read.
-- Returns 1 when written, 0 when the writer does not hold the lease.

if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[2], 'position', ARGV[2], 'read', ARGV[3])
return 1
