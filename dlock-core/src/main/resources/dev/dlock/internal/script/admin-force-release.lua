-- Removes every holder of a name whoever holds it (dlock release --force) and lets the queue in, as
-- releases would. A mutex (its key a hash): the hash is deleted and the lock handed to the oldest live
-- queued waiter (hand_off, common.lua); a free lock with waiters queued behind it is handed over too.
-- A shared lock (its key a string record, shared.lua; any kind): the holds hash is deleted and the
-- queue granted from its head as many as now fit (shared_grant). Holders are not told: their next
-- renewal finds their hold gone. Loaded after common.lua and shared.lua.
-- KEYS[1] lock key   KEYS[2] fencing counter   KEYS[3] mutex queue   KEYS[4] mutex queue entries
-- KEYS[5] shared holds   KEYS[6] shared queue   KEYS[7] shared queue entries
-- Returns {kind, capacity, waiters granted, {{owner, weight, token, remaining ms}, ...}}: the live holders
-- removed (none when the name was free). Error: the key holds something that is not dlock's (nothing
-- is deleted).
local ktype = redis.call('TYPE', KEYS[1]).ok
if ktype == 'hash' or ktype == 'none' then
  local removed = {}
  local holder = redis.call('HGET', KEYS[1], 'owner')
  if holder then
    local token = tonumber(redis.call('HGET', KEYS[1], 'token') or '0') or 0
    removed[1] = {holder, 1, token, math.max(0, redis.call('PTTL', KEYS[1]))}
    redis.call('DEL', KEYS[1])
  end
  return {'mutex', 1, hand_off(KEYS[1], KEYS[2], KEYS[3], KEYS[4]) and 1 or 0, removed}
end
local raw = ktype == 'string' and redis.call('GET', KEYS[1]) or ''
local kind, _, capacity = string.match(raw, '^(%a+) (%d+) (%d+)$')
if not kind then
  return redis.error_reply('WRONGTYPE dlock lock key ' .. KEYS[1] .. ' holds a ' .. ktype .. ' that is not a dlock'
    .. ' lock; nothing was deleted')
end
local t = redis.call('TIME')
local now = millis(t)
local removed = {}
local all = redis.call('HGETALL', KEYS[5])
for i = 1, #all, 2 do
  local weight, token, expiry = string.match(all[i + 1], '^(%d+) (%d+) (%d+)')
  if expiry and tonumber(expiry) > now then
    removed[#removed + 1] = {all[i], tonumber(weight), tonumber(token), tonumber(expiry) - now}
  end
end
redis.call('DEL', KEYS[5])
local _, granted = shared_grant(KEYS[1], KEYS[2], KEYS[5], KEYS[6], KEYS[7], tonumber(capacity), 0, t)
return {kind, tonumber(capacity), granted, removed}
