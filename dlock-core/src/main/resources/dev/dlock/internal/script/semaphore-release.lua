-- Gives a holder's permits back if ARGV[1] still holds them, then grants queued waiters from the head
-- as many as now fit (shared_release). Expired holders are purged first.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)   ARGV[1] owner id
-- Returns 2 when released and one waiter or more granted, 1 when released, 0 when the caller held
-- nothing (its lease ran out, or the keys were deleted; its own queue entry, if any, is removed).
-- Error: the record holds another kind (nothing is touched).
local capacity, err = shared_record(KEYS, 'semaphore', nil)
if err then return redis.error_reply(err) end
return shared_release(KEYS, ARGV[1], capacity)
