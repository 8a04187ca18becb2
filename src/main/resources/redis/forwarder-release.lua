-- Gives up a pane forwarder lease if the caller holds it, so that another replica takes it at once.
--
-- KEYS: 1 the lease. ARGV: 1 the caller's token. Returns 1 when released, else 0.

if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
