-- Reads every window's latest pane and the pane log position they reflect, at one moment.
--
-- KEYS: 1 results, 2 pane log. Returns {position, field, record, field, record, ...}: the newest
-- id of the log ('0-0' for an empty one) and the results hash. The results are bounded by
-- eventide.outputs.results-per-pipeline.

local last = '0-0'
if redis.call('EXISTS', KEYS[2]) == 1 then
  local info = redis.call('XINFO', 'STREAM', KEYS[2])
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then last = info[i + 1] end
  end
end
local out = redis.call('HGETALL', KEYS[1])
table.insert(out, 1, last)
return out
