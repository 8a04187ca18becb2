-- Stores a pipeline definition if the one stored under its name is still of the expected
-- revision: a compare-and-set, so that concurrent redefinitions apply one after another.
--
-- KEYS: 1 the definitions hash.
-- ARGV: 1 name, 2 expected revision ('' when there must be none), 3 definition JSON.
-- Returns 1 when stored, 0 when the stored definition is another by now.

local stored = redis.call('HGET', KEYS[1], ARGV[1])
local revision = ''
if stored then
  -- A definition stored before revisions were kept reads as the unstored revision.
  revision = cjson.decode(stored).revision or '.0'
end
if revision ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
