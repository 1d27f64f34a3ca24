-- Reads a semaphore's permits (availablePermits), making its record at first use and purging expired
-- holders (granting the waiters they made room for).
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)   ARGV[1] the count the client was given
-- Returns {capacity, permits held, waiters queued}. Error: the record holds another kind or count.
local capacity, err = shared_record(KEYS[1], 'semaphore', ARGV[1])
if not capacity then return redis.error_reply(err) end
local t = redis.call('TIME')
local used = shared_scan(KEYS[3], millis(t))
used = shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], capacity, used, t)
return {capacity, used, redis.call('ZCARD', KEYS[4])}
