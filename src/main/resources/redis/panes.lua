-- Reads a page of a pipeline's pane log together with its bounds, at one moment.
--
-- KEYS: 1 pane log. ARGV: 1 position (entries after it), 2 at most this many entries (0: none).
-- Returns {trimmed through, end, entries}: the newest id the log's trimming removed (Redis 7's
-- max-deleted-entry-id; '0-0' if none), the newest id added, and the entries as XRANGE gives them.
-- Read in one script so that no trim falls between the check and the read: a page is either whole
-- or reported as lost.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'0-0', '0-0', {}}
end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local trimmed, last = '0-0', '0-0'
for i = 1, #info, 2 do
  if info[i] == 'max-deleted-entry-id' then trimmed = info[i + 1] end
  if info[i] == 'last-generated-id' then last = info[i + 1] end
end
local entries = {}
if tonumber(ARGV[2]) > 0 then
  entries = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2])
end
return {trimmed, last, entries}
