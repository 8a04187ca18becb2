#!lua
-- Takes one request from a credential's token bucket (docs/redis.md).
--
-- KEYS: 1 the bucket (a hash: tokens, updated in microseconds of Redis's clock).
-- ARGV: 1 tokens regained per second, 2 the bucket's size.
-- Returns {1, 0} when allowed, {0, seconds to wait} when not.
--
-- Redis's clock, not the callers': replicas with skewed clocks share one bucket fairly.

local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(bucket[1]) or burst
local updated = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - updated) * rate / 1000000)
local allowed, wait = 0, 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(now))
-- A bucket left alone refills completely within burst / rate seconds; then it is not needed.
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {allowed, wait}
