-- The shared-lock model (docs/lock-family.md), put after common.lua before the semaphore-*.lua and rw-*.lua
-- scripts (Scripts.loadShared). Holders with weights against a capacity, each holder its own lease with its
-- expiry in server time, and a FIFO queue that a release grants from, head first, as many waiters as
-- now fit. Keys of one name, all under its hash tag:
--   record   prefix:{N}           string '<kind> <declared> <capacity>': the kind of the name ('semaphore',
--                                 'rw') and its capacity; a string, so the mutex's scripts (HGET) refuse
--                                 it. Lives 7 idle days and never less than the holds and queue keys
--                                 (keep_record); with a capacity other than the declared count (setPermits)
--                                 it has no expiry, since no client could make it again
--   fence    prefix:{N}:fence     the name's fencing counter, shared with the mutex (common.lua)
--   holds    prefix:{N}:holds     hash: owner -> '<weight> <token> <expiry ms, server time>[ g]' (g: granted,
--                                 not yet taken by its waiter)
--   queue    prefix:{N}:sq        zset: owner -> server time in µs of its first queueing (FIFO)
--   entries  prefix:{N}:sqe       hash: owner -> '<expiry ms> <lease ms> <wait id> <weight>'

-- A read-write lock's capacity (record 'rw 1000000 1000000'): a read hold weighs 1, a write hold all
-- of it, so one writer excludes everyone and up to a million read holds fit side by side.
local RW_CAPACITY = '1000000'

-- Sets a key's expiry to 'ms' from now unless it already lives longer (a key without one gets it): the
-- shared model's keys are only ever kept longer by a write, so a short lease or wait written beside a
-- longer one never shortens the key the longer one lives in. PTTL compared here, not PEXPIRE GT: that
-- is Redis 7.0, and the scripts run on 6.2.
local function raise_expiry(key, ms)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end

-- Keeps the record at least 'ms' longer, as raise_expiry, except that a record without an expiry (a
-- count changed by setPermits) keeps none and an absent one is not made. Every write that keeps the holds
-- or queue keys longer keeps the record as long, so the name's kind and count last while any holder or
-- waiter does (a record that expired under a renewed holder was made again with the count in code).
local function keep_record(record, ms)
  local pttl = redis.call('PTTL', record)
  if pttl >= 0 and pttl < ms then redis.call('PEXPIRE', record, ms) end
end

-- The capacity in the name's record, made with 'declared' when absent (declared nil: not made). K: the
-- five keys. A semaphore's record absent while its holds or queue keys exist was lost (deleted, evicted,
-- or a failover's lost write: it outlives them otherwise), and the count it had may not be 'declared':
-- it is not made again, unless 'remake' (setPermits, which sets the count). A read-write lock's is made
-- again: its capacity is fixed. Returns capacity (nil when absent and not made), or nil plus an error
-- reply: the record holds another kind (or a mutex's hash, or something not dlock's), was made with
-- another count than 'declared', or was lost.
local function shared_record(K, kind, declared, remake)
  local key = K[1]
  local raw = redis.pcall('GET', key)
  if type(raw) == 'table' and raw.err then
    local t = redis.call('TYPE', key).ok
    local what = t == 'hash' and 'a dlock lock (a hash)' or ('a ' .. t)
    return nil, 'WRONGTYPE dlock key ' .. key .. ' holds ' .. what .. ', not a dlock ' .. kind .. '; nothing was changed'
  end
  if not raw then
    if not declared then return nil end
    if kind == 'semaphore' and not remake
        and (redis.call('EXISTS', K[3]) == 1 or redis.call('EXISTS', K[4]) == 1) then
      return nil, 'ERR dlock semaphore ' .. key .. ' lost its record (deleted, evicted or lost in a failover)'
        .. ' while permits were held or waited for: the count it had is unknown, so nothing was taken;'
        .. ' setPermits sets it again'
    end
    redis.call('SET', key, kind .. ' ' .. declared .. ' ' .. declared, 'PX', FENCE_IDLE_MS)
    for i = 3, 5 do keep_record(key, redis.call('PTTL', K[i])) end
    return tonumber(declared)
  end
  local k, d, c = string.match(raw, '^(%a+) (%d+) (%d+)$')
  if k ~= kind then
    return nil, 'WRONGTYPE dlock key ' .. key .. " holds '" .. string.sub(raw, 1, 40) .. "', not a dlock " .. kind
      .. '; nothing was changed'
  end
  if declared and d ~= declared then
    return nil, 'ERR dlock ' .. kind .. ' ' .. key .. ' was created with ' .. d .. ' permits (now ' .. c
      .. '), not the ' .. declared .. ' this client was given; nothing was changed'
  end
  if c ~= d then
    if redis.call('PTTL', key) ~= -1 then redis.call('PERSIST', key) end -- one written before records kept it
  else
    keep_record(key, tonumber(FENCE_IDLE_MS))
  end
  return tonumber(c)
end

-- Reads the holders at server time 'now' (ms): removes those whose lease ran out (their weight comes
-- back) and returns the weight the others hold together and the earliest expiry among them (nil: none).
-- One HGETALL: a holder's expiry lives in its own entry, so no other key can expire apart from it.
local function shared_scan(holds, now)
  local all = redis.call('HGETALL', holds)
  local used, earliest = 0, nil
  for i = 1, #all, 2 do
    local weight, expiry = string.match(all[i + 1], '^(%d+) %d+ (%d+)')
    expiry = tonumber(expiry)
    if not expiry or expiry <= now then
      redis.call('HDEL', holds, all[i])
    else
      used = used + tonumber(weight)
      if not earliest or expiry < earliest then earliest = expiry end
    end
  end
  return used, earliest
end

-- Writes a holder's entry: '<weight> <token> <expiry ms>' (+ ' g' when granted and not yet taken). The
-- hash lives 7 idle days, and never less than the longest lease in it: its expiry is raised to this
-- lease, never lowered (a 30 s hold beside a 30-day one must not cut the hash to 7 days, which would
-- drop the 30-day holder's entry with 23 days of its lease left). The record is kept as long.
local function shared_hold(record, holds, owner, weight, token, expiry, lease, granted)
  redis.call('HSET', holds, owner, weight .. ' ' .. token .. ' ' .. string.format('%d', expiry) .. (granted and ' g' or ''))
  local keep = math.max(tonumber(FENCE_IDLE_MS), lease)
  raise_expiry(holds, keep)
  keep_record(record, keep)
end

-- Grants queued waiters from the head, as many as now fit beside the 'used' weight: pops heads whose
-- entry expired (waiters that died; at most 32 per call) or that ask for more than the capacity (they
-- fail at their next try), and stops at the first live head that does not fit (strict FIFO: nobody
-- overtakes it). Each grant issues a token, makes the waiter a holder with its own lease time and 'g'
-- set, and publishes 'g <token> <wait id> <owner>' on that waiter's client's channel only.
-- Returns the weight held afterwards and how many were granted.
local function shared_grant(record, fence, holds, queue, entries, capacity, used, t)
  if not capacity or redis.call('EXISTS', queue) == 0 then return used, 0 end
  local now = millis(t)
  local granted, skipped = 0, 0
  while skipped < 32 do
    local head = redis.call('ZRANGE', queue, 0, 0)[1]
    if not head then break end
    local entry = redis.call('HGET', entries, head)
    local expiry, lease, wait, weight
    if entry then expiry, lease, wait, weight = string.match(entry, '^(%d+) (%d+) (%S+) (%d+)$') end
    if not expiry or tonumber(expiry) <= now or tonumber(weight) > capacity then
      leave_queue(queue, entries, head)
      skipped = skipped + 1
    else
      weight = tonumber(weight)
      if used + weight > capacity then break end
      local token = issue_token(fence, t)
      if not token then
        redis.call('PUBLISH', channel_of(record, head), 'free') -- no token: let the head try itself
        break
      end
      leave_queue(queue, entries, head)
      shared_hold(record, holds, head, weight, token, now + tonumber(lease), tonumber(lease), true)
      redis.call('PUBLISH', channel_of(record, head), 'g ' .. token .. ' ' .. wait .. ' ' .. head)
      used = used + weight
      granted = granted + 1
    end
  end
  return used, granted
end

-- One acquire of 'n' weight by 'owner' at server time 't' (the body of semaphore-acquire.lua and
-- rw-acquire.lua): purges expired holders and grants the waiters they made room for; re-takes the
-- owner's own hold (granted to it, or re-taken to prove a full lease) with the same token, whatever the
-- wait (an owner id is one acquire's: the client makes a new one for each, so this is that acquire's own
-- hold, never an earlier hold taken again by a later acquire as a mutex's thread owner can; acquire.lua,
-- GrantConfirmationIT); takes when
-- the weight is free and nobody queues ahead (strict FIFO), or when 'admit' (a read hold beside the
-- same caller's write hold: the downgrade); else queues (mode '1') or leaves the queue (mode '2').
-- K: the five keys (record, fence, holds, queue, entries). Returns the token, or the busy reply
-- -2 - (ms until the earliest holder's lease runs out, -1 if none); nil plus an error reply when no
-- token can be issued.
local function shared_acquire(K, owner, lease, mode, entry_ttl, wait, n, capacity, t, admit)
  local now = millis(t)
  local used, earliest = shared_scan(K[3], now)
  used = shared_grant(K[1], K[2], K[3], K[4], K[5], capacity, used, t)
  local mine = redis.call('HGET', K[3], owner)
  if mine then
    local weight, token = string.match(mine, '^(%d+) (%d+)')
    shared_hold(K[1], K[3], owner, weight, token, now + lease, lease, false)
    leave_queue(K[4], K[5], owner)
    return tonumber(token)
  end
  local head = redis.call('ZRANGE', K[4], 0, 0)[1]
  if admit or ((not head or head == owner) and used + n <= capacity) then
    local token, terr = issue_token(K[2], t)
    if not token then return nil, terr end
    shared_hold(K[1], K[3], owner, n, token, now + lease, lease, false)
    leave_queue(K[4], K[5], owner)
    return tonumber(token)
  end
  if mode == '1' then
    local ttl = tonumber(entry_ttl)
    redis.call('ZADD', K[4], 'NX', micros(t), owner)
    redis.call('HSET', K[5], owner, string.format('%d', now + ttl) .. ' ' .. lease .. ' ' .. wait .. ' ' .. n)
    raise_expiry(K[4], ttl)
    raise_expiry(K[5], ttl)
    keep_record(K[1], ttl)
  elseif mode == '2' then
    leave_queue(K[4], K[5], owner)
    shared_grant(K[1], K[2], K[3], K[4], K[5], capacity, used, t) -- we may have blocked the head
  end
  if not earliest then return -1 end
  return -2 - math.max(0, earliest - now)
end

-- Ends 'owner's hold if it still holds (or takes it out of the queue), then grants queued waiters from
-- the head as many as now fit (the body of semaphore-release.lua and rw-release.lua). K: the five keys.
-- Returns 2 when released and one waiter or more granted, 1 when released, 0 when it held nothing.
local function shared_release(K, owner, capacity)
  local t = redis.call('TIME')
  local used = shared_scan(K[3], millis(t))
  local mine = redis.call('HGET', K[3], owner)
  if mine then
    redis.call('HDEL', K[3], owner)
    used = used - tonumber(string.match(mine, '^(%d+)'))
  else
    leave_queue(K[4], K[5], owner)
  end
  local _, granted = shared_grant(K[1], K[2], K[3], K[4], K[5], capacity, used, t)
  if not mine then return 0 end
  if granted > 0 then return 2 end
  return 1
end
