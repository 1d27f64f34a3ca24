-- Deletes a lock whoever holds it (dlock release --force) and hands it to the oldest live queued
-- waiter (hand_off, in common.lua); a free lock with waiters queued behind it is handed over too.
-- KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] queue   KEYS[4] queue entries
-- Returns {1, pttl ms, token, 1 if handed over else 0, holder id} when a lock was deleted,
--         {0, 0, 0, 1 if handed over else 0} when it was free.
local wrong = wrong_lock_type(KEYS[1])
if wrong then return wrong end
local holder = redis.call('HGET', KEYS[1], 'owner')
if not holder then
  return {0, 0, 0, hand_off(KEYS[1], KEYS[2], KEYS[3], KEYS[4]) and 1 or 0}
end
local pttl = redis.call('PTTL', KEYS[1])
local token = tonumber(redis.call('HGET', KEYS[1], 'token') or '0') or 0
redis.call('DEL', KEYS[1])
local handed = hand_off(KEYS[1], KEYS[2], KEYS[3], KEYS[4]) and 1 or 0
return {1, pttl, token, handed, holder}
