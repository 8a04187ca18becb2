-- The members of the results by key (eventide:{name}:results:by-key), put in front of commit.lua,
-- which writes them, and results.lua, which reads them.
--
-- Every result's field is a member under one score, so that members sort by their bytes:
-- '<key length, 8 hex digits><key><start, sortable><field>'. A key's windows are then one
-- lexicographic range, in the order of the results order restricted to the key, and a read of one
-- key touches only them. The length in front keeps a key apart from every longer key it begins.

-- What a key's members begin with.
local function key_prefix(key)
  return string.format('%08x', #key) .. key
end

-- A window start (decimal text) as text that sorts as the number does: zero-padded digits, a
-- negative number's complemented so that more negative sorts first. The digits stay text: Lua's
-- numbers would round beyond 2^53.
local function sortable(number)
  if string.sub(number, 1, 1) == '-' then
    local digits = string.sub(number, 2)
    return 'n' .. string.gsub(string.rep('0', 19 - #digits) .. digits, '%d',
      function(d) return tostring(9 - tonumber(d)) end)
  end
  return 'p' .. string.rep('0', 19 - #number) .. number
end
