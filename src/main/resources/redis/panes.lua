-- Reads a page of a pipeline's pane log together with its bounds, at one moment.
--
-- KEYS: 1 pane log. ARGV: 1 position (entries after it), 2 at most this many entries (0: none).
-- Returns {trimmed through, end, entries, trimmed}: a bound the log's trimming has removed
-- everything up to and including ('0-0' if it removed nothing), the newest id added, the entries
-- as XRANGE gives them, and how many entries the trimming has removed (entries-added - length). Read in one script so that no trim falls between the bound and the read: a page
-- is either whole or reported as lost.
--
-- Trimming does not record what it removed (max-deleted-entry-id counts XDEL only), but the log
-- only ever loses its oldest entries: if fewer are held than were added, everything before the
-- first entry is gone, and the bound is the id just before it. A reader whose position is the
-- very last id removed across a millisecond boundary is told it is behind although it lost
-- nothing; never the other way round.

if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'0-0', '0-0', {}, 0}
end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local fields = {}
for i = 1, #info, 2 do
  fields[info[i]] = info[i + 1]
end
local trimmed = '0-0'
if tonumber(fields['length']) == 0 then
  trimmed = fields['last-generated-id']
elseif tonumber(fields['entries-added']) > tonumber(fields['length']) then
  local first = fields['first-entry'][1]
  local dash = string.find(first, '-')
  local ms, seq = tonumber(string.sub(first, 1, dash - 1)), tonumber(string.sub(first, dash + 1))
  if seq > 0 then
    trimmed = string.format('%.0f-%.0f', ms, seq - 1)
  else
    -- The largest sequence a reader compares as a signed 64-bit number: no real id of that
    -- millisecond is above it.
    trimmed = string.format('%.0f-9223372036854775807', ms - 1)
  end
end
local entries = {}
if tonumber(ARGV[2]) > 0 then
  entries = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2])
end
local removed = tonumber(fields['entries-added']) - tonumber(fields['length'])
return {trimmed, fields['last-generated-id'], entries, removed}
