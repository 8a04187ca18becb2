-- Extends a pipeline's pane forwarder lease if the caller still holds it (docs/kafka.md). Taking a
-- free lease is a plain SET NX PX.
--
-- KEYS: 1 the lease. ARGV: 1 the caller's token, 2 the lease time in milliseconds.
-- Returns 1 when extended, 0 when the caller no longer holds it (it expired, was taken by another
-- replica, or went with the pipeline's state).

if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
