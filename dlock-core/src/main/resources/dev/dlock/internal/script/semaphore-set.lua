-- Changes a semaphore's capacity (setPermits), making its record at first use, or again when it was lost
-- (shared_record). Holders keep what they hold (a capacity below what is held lets nobody in until enough
-- is released); with more room, queued waiters are granted from the head as many as now fit. A capacity
-- other than the declared count is a record without expiry: no client could make it again, so it must
-- not expire; back at the declared count, the record lives 7 idle days again (never less than the holds
-- and queue keys).
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)   ARGV[1] the count the client was given   ARGV[2] the new capacity
-- Returns the capacity before (the declared count when the record was lost). Error: the record holds
-- another kind or count.
local before, err = shared_record(KEYS, 'semaphore', ARGV[1], true)
if not before then return redis.error_reply(err) end
if ARGV[2] == ARGV[1] then
  redis.call('SET', KEYS[1], 'semaphore ' .. ARGV[1] .. ' ' .. ARGV[2], 'PX', FENCE_IDLE_MS)
  for i = 3, 5 do keep_record(KEYS[1], redis.call('PTTL', KEYS[i])) end
else
  redis.call('SET', KEYS[1], 'semaphore ' .. ARGV[1] .. ' ' .. ARGV[2])
end
local t = redis.call('TIME')
local used = shared_scan(KEYS[3], millis(t))
shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], tonumber(ARGV[2]), used, t)
return before
