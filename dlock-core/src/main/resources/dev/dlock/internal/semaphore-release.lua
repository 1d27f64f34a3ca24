-- Gives a holder's permits back if ARGV[1] still holds them, then grants queued waiters from the head
-- as many as now fit (shared_grant). Expired holders are purged first.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)   ARGV[1] owner id
-- Returns 2 when released and one waiter or more granted, 1 when released, 0 when the caller held
-- nothing (its lease ran out, or the keys were deleted; its own queue entry, if any, is removed).
-- Error: the record holds another kind (nothing is touched).
local capacity, err = shared_record(KEYS[1], 'semaphore', nil)
if err then return redis.error_reply(err) end
local t = redis.call('TIME')
local used = shared_scan(KEYS[3], millis(t))
local mine = redis.call('HGET', KEYS[3], ARGV[1])
if mine then
  redis.call('HDEL', KEYS[3], ARGV[1])
  used = used - tonumber(string.match(mine, '^(%d+)'))
else
  leave_queue(KEYS[4], KEYS[5], ARGV[1])
end
local _, granted = shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], capacity, used, t)
if not mine then return 0 end
if granted > 0 then return 2 end
return 1
