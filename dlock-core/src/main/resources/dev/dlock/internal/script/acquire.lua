-- Takes the lock if it is free and issues a fencing token, all or nothing; when busy, can queue the
-- caller for a direct hand-off by the release (FIFO by first queueing) or take it out of the queue.
-- KEYS[1] lock hash {owner, token[, granted: the wait id a hand-off named, '1' if none]}
-- KEYS[2] fencing counter (string)
-- KEYS[3] queue (zset: owner -> server time in µs of its first queueing)
-- KEYS[4] queue entries (hash: owner -> "<expiry ms> <lease ms> <wait id>", server time)
-- ARGV[1] owner id  ARGV[2] lease ms  ARGV[3] '0' try, '1' try and queue when busy, '2' try and
-- leave the queue when busy  ARGV[4] queue entry lifetime ms  ARGV[5] (mode '1') the wait's id and
-- this try's number, '<wait id>.<try>', which the hand-off message names so that only this wait
-- accepts it (the client sends none in modes '0' and '2')
-- Returns the fencing token (>= 1) when taken, or handed to the caller's wait by a release while this
-- try was on its way; -2 - (the holder's pttl ms) (<= -1) when busy. One integer: no array to decode.
-- A hand-off is confirmed with its own token only by a try of the wait it names: an owner id is one
-- thread's for all its waits, so another acquire of the same owner (its next lock() after a release
-- that never ran) is a new hold and takes a fresh token, as do a plain try and a leaving try (tokens
-- strictly increase across holds: docs/fencing.md).
-- Every take removes the caller's own queue entry, whatever the mode: an entry left behind by an
-- earlier wait of the same owner would otherwise be counted as a waiter and handed the lock.
-- The first write of the take path (SET of the counter) and of the busy path (ZADD) are the ones
-- Redis checks against maxmemory, so under OOM nothing is written: no token is burned.
-- A key of another type makes HGET or GET fail with WRONGTYPE before anything is written.
local QUEUE, LEAVE = '1', '2' -- ARGV[3], as Acquisition names them ('0' is a plain try)

-- Whether a try naming 'wait' ('<wait id>.<try>', or nil) confirms a hand-off whose 'granted' field is
-- 'granted': it names the same wait (any of its tries: a later try of the wait may be the one on its
-- way, or a re-take of the grant with a full lease), or the hand-off named none ('1': an entry from
-- before wait ids).
local function grant_confirmed(granted, wait)
  if granted == '1' then return true end
  if not wait then return false end
  local id = string.match(granted, '^[^.]+')
  return id ~= nil and id == string.match(wait, '^[^.]+')
end

local holder = redis.call('HGET', KEYS[1], 'owner')
local granted = holder == ARGV[1] and redis.call('HGET', KEYS[1], 'granted')
if granted and grant_confirmed(granted, ARGV[5]) then
  redis.call('HDEL', KEYS[1], 'granted')
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  leave_queue(KEYS[3], KEYS[4], ARGV[1])
  return tonumber(redis.call('HGET', KEYS[1], 'token'))
end
if holder and holder ~= ARGV[1] then
  if ARGV[3] == QUEUE then
    local t = redis.call('TIME')
    local ttl = tonumber(ARGV[4])
    redis.call('ZADD', KEYS[3], 'NX', micros(t), ARGV[1])
    redis.call('HSET', KEYS[4], ARGV[1], string.format('%d', millis(t) + ttl) .. ' ' .. ARGV[2] .. ' ' .. ARGV[5])
    for i = 3, 4 do
      if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
    end
  elseif ARGV[3] == LEAVE then
    leave_queue(KEYS[3], KEYS[4], ARGV[1])
  end
  return -2 - redis.call('PTTL', KEYS[1])
end
-- Free, or our own hold from before (a lease this client already counts as lost, or a hand-off to
-- another wait of ours): a fresh token.
local token, err = issue_token(KEYS[2], redis.call('TIME'))
if not token then return redis.error_reply(err) end
if holder then redis.call('DEL', KEYS[1]) end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', token)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
leave_queue(KEYS[3], KEYS[4], ARGV[1])
return tonumber(token)
