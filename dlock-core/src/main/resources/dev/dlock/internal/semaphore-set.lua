-- Changes a semaphore's capacity (setPermits), making its record at first use. Holders keep what they
-- hold (a capacity below what is held lets nobody in until enough is released); with more room, queued
-- waiters are granted from the head as many as now fit.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)   ARGV[1] the count the client was given   ARGV[2] the new capacity
-- Returns the capacity before. Error: the record holds another kind or count.
local before, err = shared_record(KEYS[1], 'semaphore', ARGV[1])
if not before then return redis.error_reply(err) end
redis.call('SET', KEYS[1], 'semaphore ' .. ARGV[1] .. ' ' .. ARGV[2], 'PX', FENCE_IDLE_MS)
local t = redis.call('TIME')
local used = shared_scan(KEYS[3], millis(t))
shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], tonumber(ARGV[2]), used, t)
return before
