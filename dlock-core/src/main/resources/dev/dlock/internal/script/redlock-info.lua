-- Redlock: reads the lock on one node.
-- KEYS[1] lock key   KEYS[2] fencing counter
-- Returns {owner id or '', pttl (or -2 when free), counter (0 when unset)}.
local holder = redis.call('GET', KEYS[1])
if not holder then
  return {'', -2, tonumber(redis.call('GET', KEYS[2]) or '0')}
end
return {holder, redis.call('PTTL', KEYS[1]), tonumber(redis.call('GET', KEYS[2]) or '0')}
