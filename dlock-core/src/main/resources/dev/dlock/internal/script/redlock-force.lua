-- Redlock (operator): deletes the lock on one node whoever holds it; with ARGV[1] = 'purge' the fencing
-- counter too.
-- KEYS[1] lock key   KEYS[2] fencing counter   ARGV[1] 'force' or 'purge'
-- Returns {owner id or '', pttl (or -2 when free), counter before, keys deleted}.
local holder = redis.call('GET', KEYS[1]) or ''
local pttl = redis.call('PTTL', KEYS[1])
local counter = tonumber(redis.call('GET', KEYS[2]) or '0')
local deleted = redis.call('DEL', KEYS[1])
if ARGV[1] == 'purge' then
  deleted = deleted + redis.call('DEL', KEYS[2])
end
return {holder, pttl, counter, deleted}
