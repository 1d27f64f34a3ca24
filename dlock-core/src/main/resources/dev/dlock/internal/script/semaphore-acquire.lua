-- Takes permits of a semaphore when they are free and nobody queues ahead (strict FIFO), issuing a
-- fencing token, all or nothing; when not, can queue the caller for a grant by a release, or take it
-- out of the queue. Expired holders are purged first and the waiters they made room for granted.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)
-- ARGV[1] owner id (one per acquire)   ARGV[2] lease ms   ARGV[3] '0' try, '1' try and queue when
-- busy, '2' try and leave the queue when busy   ARGV[4] queue entry lifetime ms   ARGV[5] the wait's
-- id (mode '1'; '-' otherwise)   ARGV[6] permits wanted (>= 1)   ARGV[7] the count the client was given
-- Returns the fencing token (>= 1) when taken (or granted to the caller by a release while this try
-- was on its way); -2 - (ms until the earliest holder's lease runs out, -1 if none) (<= -1) when busy.
-- Errors: the record holds another kind or count; more permits wanted than the semaphore has.
local owner, n = ARGV[1], tonumber(ARGV[6])
local capacity, err = shared_record(KEYS, 'semaphore', ARGV[7])
if not capacity then return redis.error_reply(err) end
if n > capacity then
  leave_queue(KEYS[4], KEYS[5], owner)
  return redis.error_reply('ERR dlock semaphore ' .. KEYS[1] .. ' has ' .. capacity .. ' permits, fewer than the '
    .. n .. ' this acquire wants')
end
local reply, terr = shared_acquire(KEYS, owner, tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5], n, capacity,
  redis.call('TIME'), false)
if not reply then return redis.error_reply(terr) end
return reply
