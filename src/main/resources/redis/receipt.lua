-- Reads a waiting request's receipts once every partition it logged to has committed past its last
-- record there (cluster mode, ?wait=applied): a receipt is written with the commit that applies the
-- records, so past that offset it is complete.
--
-- KEYS: 1 the pipeline's receipts, then the shard meta of each partition the request logged to.
-- ARGV: 1 the request, then per partition (in the order of KEYS): its number, the offset of the
--       request's last record in it.
-- Returns {0} while a partition has not committed that far, else {1, then per partition its
-- receipt's counts and the events it refused (a JSON array), each false where it has none}.

-- A partition's receipt is two fields: '<request>:<partition>' and the same with ':rejected'.

local out = {1}
for i = 2, #KEYS do
  local next = tonumber(redis.call('HGET', KEYS[i], 'offset') or '-1')
  if next <= tonumber(ARGV[2 * i - 1]) then
    return {0}
  end
  local field = ARGV[1] .. ':' .. ARGV[2 * i - 2]
  out[2 * i - 2] = redis.call('HGET', KEYS[1], field)
  out[2 * i - 1] = redis.call('HGET', KEYS[1], field .. ':rejected')
end
return out
