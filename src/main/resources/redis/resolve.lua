-- Settles the outcome of a commit whose reply was lost (a timeout, a dropped connection): either
-- it landed, or it never will.
--
-- KEYS: 1 meta. ARGV: 1 owner epoch, 2 the commit's sequence number.
-- Returns {'landed', pane log ids separated by spaces}, {'abandoned'} when it had not landed (and
-- now cannot: commit.lua refuses it), or {'unknown'} when another owner has taken the pipeline or
-- it was dropped, so that what the commit did is no longer on record.

local marker = redis.call('HGET', KEYS[1], 'commit')
local sequence = tonumber(ARGV[2])
if marker == ARGV[1] .. ':' .. sequence then
  return {'landed', redis.call('HGET', KEYS[1], 'commitPanes')}
end
if marker == ARGV[1] .. ':' .. (sequence - 1) then
  redis.call('HSET', KEYS[1], 'commit', ARGV[1] .. ':' .. sequence .. ':abandoned')
  return {'abandoned'}
end
return {'unknown'}
