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
local QUEUE, LEAVE = '1', '2'
local owner, n, lease = ARGV[1], tonumber(ARGV[6]), tonumber(ARGV[2])
local capacity, err = shared_record(KEYS[1], 'semaphore', ARGV[7])
if not capacity then return redis.error_reply(err) end
if n > capacity then
  leave_queue(KEYS[4], KEYS[5], owner)
  return redis.error_reply('ERR dlock semaphore ' .. KEYS[1] .. ' has ' .. capacity .. ' permits, fewer than the '
    .. n .. ' this acquire wants')
end
local t = redis.call('TIME')
local now = millis(t)
local used, earliest = shared_scan(KEYS[3], now)
used = shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], capacity, used, t)
local mine = redis.call('HGET', KEYS[3], owner)
if mine then
  -- granted to us (or our own hold re-taken to prove a full lease): the same token, a full lease
  local weight, token = string.match(mine, '^(%d+) (%d+)')
  shared_hold(KEYS[3], owner, weight, token, now + lease, lease, false)
  leave_queue(KEYS[4], KEYS[5], owner)
  return tonumber(token)
end
local head = redis.call('ZRANGE', KEYS[4], 0, 0)[1]
if (not head or head == owner) and used + n <= capacity then
  local token, terr = issue_token(KEYS[2], t)
  if not token then return redis.error_reply(terr) end
  shared_hold(KEYS[3], owner, n, token, now + lease, lease, false)
  leave_queue(KEYS[4], KEYS[5], owner)
  return tonumber(token)
end
if ARGV[3] == QUEUE then
  local ttl = tonumber(ARGV[4])
  redis.call('ZADD', KEYS[4], 'NX', micros(t), owner)
  redis.call('HSET', KEYS[5], owner, string.format('%d', now + ttl) .. ' ' .. ARGV[2] .. ' ' .. ARGV[5] .. ' ' .. n)
  for i = 4, 5 do
    if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
  end
elseif ARGV[3] == LEAVE then
  leave_queue(KEYS[4], KEYS[5], owner)
  shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], capacity, used, t) -- we may have blocked the head
end
if not earliest then return -1 end
return -2 - math.max(0, earliest - now)
