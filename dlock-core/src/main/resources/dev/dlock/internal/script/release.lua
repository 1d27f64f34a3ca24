-- Deletes the lock only if ARGV[1] owns it, then hands it straight to the oldest live queued waiter
-- (hand_off, in common.lua).
-- KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] queue (zset)   KEYS[4] queue entries (hash)
-- ARGV[1] owner id
-- Returns 2 when released and handed over, 1 when released with nobody waiting, 0 when the caller
-- did not own the lock (the lock is not touched; the caller's own queue entry, if any, is removed:
-- it has given up).
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  leave_queue(KEYS[3], KEYS[4], ARGV[1])
  return 0
end
redis.call('DEL', KEYS[1])
if hand_off(KEYS[1], KEYS[2], KEYS[3], KEYS[4]) then return 2 end
return 1
