-- Reads what every partition of a pipeline last committed of its sources' event time and of its
-- output's progress, in one round trip.
--
-- KEYS: each partition's shard meta, in partition order.
-- Returns per partition {source watermark, heard, final through, output watermark}, false where
-- never committed.

local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('HMGET', KEYS[i], 'sourceWatermark', 'heard', 'finalThrough',
    'outputWatermark')
end
return out
