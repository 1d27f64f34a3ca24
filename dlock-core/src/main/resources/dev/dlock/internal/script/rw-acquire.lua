-- Takes a read or the write hold of a read-write lock when it fits and nobody queues ahead (strict
-- FIFO: a queued writer holds back the readers that come after it), issuing a fencing token; when not,
-- can queue the caller for a grant by a release, or take it out of the queue. With ARGV[7], a read hold
-- is taken beside the caller's own live write hold at once (the downgrade), whatever the queue.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)
-- ARGV[1] owner id (one per hold)   ARGV[2] lease ms   ARGV[3] '0' try, '1' try and queue when busy,
-- '2' try and leave the queue when busy   ARGV[4] queue entry lifetime ms   ARGV[5] the wait's id
-- (mode '1'; '-' otherwise)   ARGV[6] 'r' read, 'w' write   ARGV[7] the owner id of the caller's write
-- hold to take a read hold beside, or '-'
-- Returns the fencing token (>= 1) when taken (or granted to the caller while this try was on its
-- way); 0 when ARGV[7] holds no live write hold (nothing is written); -2 - (ms until the earliest
-- holder's lease runs out, -1 if none) (<= -1) when busy.
-- Errors: the record holds another kind (a mutex's hash, a semaphore, a value not dlock's).
local capacity, err = shared_record(KEYS, 'rw', RW_CAPACITY)
if not capacity then return redis.error_reply(err) end
local t = redis.call('TIME')
local admit = false
if ARGV[7] ~= '-' then
  local entry = redis.call('HGET', KEYS[3], ARGV[7])
  local weight, expiry
  if entry then weight, expiry = string.match(entry, '^(%d+) %d+ (%d+)') end
  if not expiry or tonumber(expiry) <= millis(t) or tonumber(weight) < capacity then return 0 end
  admit = true
end
local n = 1
if ARGV[6] == 'w' then n = capacity end
local reply, terr = shared_acquire(KEYS, ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5], n, capacity, t, admit)
if not reply then return redis.error_reply(terr) end
return reply
