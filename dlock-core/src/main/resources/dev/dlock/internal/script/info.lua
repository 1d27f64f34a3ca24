-- Reads a mutex's state (DistributedLock.info()), without writing; put after common.lua and
-- queue-read.lua. KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] queue   KEYS[4] queue entries
-- (acquire.lua)   ARGV[1] how many queued waiters to list
-- Returns {pttl ms (-2 when free), token of holder or last issued (0 if unknown), holder id ('' when
-- free), waiters queued, the first ARGV[1] of them as {owner, 1} in FIFO order}.
local wrong = wrong_lock_type(KEYS[1])
if wrong then return wrong end
local queue, waiters = read_queue(KEYS[3], KEYS[4], tonumber(ARGV[1]), nil)
local holder = redis.call('HGET', KEYS[1], 'owner')
if holder then
  return {redis.call('PTTL', KEYS[1]), tonumber(redis.call('HGET', KEYS[1], 'token') or '0'), holder, waiters, queue}
end
local last = redis.pcall('GET', KEYS[2])
if type(last) ~= 'string' then last = '0' end
return {-2, tonumber(last) or 0, '', waiters, queue}
