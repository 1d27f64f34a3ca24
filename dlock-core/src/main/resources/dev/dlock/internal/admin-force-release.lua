-- Deletes a lock whoever holds it (dlock release --force) and wakes every waiter.
-- KEYS[1] lock hash   ARGV[1] wake-up channel
-- Returns {1, pttl ms, token, clients woken, holder id} when a lock was deleted,
--         {0, 0, 0, clients woken} when it was free (waiters are woken anyway).
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'none' and kind ~= 'hash' then
  return redis.error_reply('WRONGTYPE dlock lock key ' .. KEYS[1] .. ' holds a ' .. kind .. ', not a dlock hash')
end
local holder = redis.call('HGET', KEYS[1], 'owner')
if not holder then
  return {0, 0, 0, redis.call('PUBLISH', ARGV[1], 'released')}
end
local pttl = redis.call('PTTL', KEYS[1])
local token = tonumber(redis.call('HGET', KEYS[1], 'token') or '0') or 0
redis.call('DEL', KEYS[1])
return {1, pttl, token, redis.call('PUBLISH', ARGV[1], 'released'), holder}
