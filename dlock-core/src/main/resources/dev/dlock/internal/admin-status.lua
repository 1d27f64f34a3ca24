-- Reads a lock's state for operators (dlock status).
-- KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] waiters' queue
-- Returns {pttl ms (-2 when free), token of holder or last issued (0 if unknown),
--          acquires queued for a hand-off, holder id (absent when free)}.
local wrong = wrong_lock_type(KEYS[1])
if wrong then return wrong end
local waiters = redis.call('ZCARD', KEYS[3])
local holder = redis.call('HGET', KEYS[1], 'owner')
if holder then
  return {redis.call('PTTL', KEYS[1]), tonumber(redis.call('HGET', KEYS[1], 'token') or '0'), waiters, holder}
end
local last = redis.pcall('GET', KEYS[2])
if type(last) ~= 'string' then last = '0' end
return {-2, tonumber(last) or 0, waiters}
