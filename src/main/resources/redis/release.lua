-- Undoes an open whose definition turned out to be gone: the meta hash it wrote goes, unless
-- another owner has taken it since. Opening writes nothing else.
--
-- KEYS: 1 meta. ARGV: 1 the owner's epoch.

if redis.call('HGET', KEYS[1], 'epoch') == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 0
