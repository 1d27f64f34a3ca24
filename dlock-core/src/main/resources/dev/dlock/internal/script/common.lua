-- Shared by acquire, release, pass, info, admin-status and admin-force-release (Scripts.loadWithCommon puts
-- it before them).
-- The key layout (LockKeys): lock = prefix:{name} (prefix:^{hex} for a name starting with '}'). Each
-- client waits on its own channel per lock: the lock key + ':wake:' + its client id, the part of an
-- owner id before the first ':' (LateGrantIT pins this against the Java side).
local function channel_of(lock, owner) return lock .. ':wake:' .. string.match(owner, '^[^:]*') end

-- How long a fencing counter outlives the last token of its name (7 days; docs/fencing.md).
local FENCE_IDLE_MS = '604800000'

-- The largest token: Lua numbers are doubles, exact up to 2^53; past that, +1 repeats or steps back.
local MAX_TOKEN = 9007199254740991

-- Takes an owner out of a lock's queue (both keys are written together, so the hash is only touched
-- when the sorted set had the owner).
local function leave_queue(queue, entries, owner)
  if redis.call('ZREM', queue, owner) == 1 then redis.call('HDEL', entries, owner) end
end

-- The error reply for a lock key that holds another type than dlock's hash, or nil: scripts that
-- only read check first, so an operator learns what holds the key instead of a bare WRONGTYPE.
local function wrong_lock_type(key)
  local kind = redis.call('TYPE', key).ok
  if kind ~= 'none' and kind ~= 'hash' then
    return redis.error_reply('WRONGTYPE dlock lock key ' .. key .. ' holds a ' .. kind .. ', not a dlock hash')
  end
  return nil
end

-- Server time {seconds, microseconds} to milliseconds and microseconds.
local function millis(t) return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end
local function micros(t) return tonumber(t[1]) * 1000000 + tonumber(t[2]) end

-- The next fencing token: max(last + 1, server time in µs). The counter is set to the token plus
-- 'extra' (nil: 0), which reserves the next 'extra' tokens for the caller (pass.lua's block).
-- One SET ... GET writes the clock's candidate and reads the last token in the same call (Redis 6.2+);
-- a second SET follows only when the counter was at or ahead of the clock. A key of another type
-- fails that first SET before anything is written; a string that is not a number is put back as it
-- was (without an expiry: what it had, if any, is gone) and refused.
-- Returns the token's text, or nil plus the error (a counter that is not a number, out of memory).
local function issue_token(fence, t, extra)
  extra = extra or 0
  local token = micros(t)
  local text = string.format('%d', token)
  local reserved = text
  if extra > 0 then reserved = string.format('%d', token + extra) end
  local raw = redis.pcall('SET', fence, reserved, 'PX', FENCE_IDLE_MS, 'GET')
  if type(raw) == 'table' and raw.err then
    if string.sub(raw.err, 1, 9) == 'WRONGTYPE' then
      return nil, 'WRONGTYPE dlock fencing key ' .. fence .. ' holds a value of another type'
    end
    return nil, raw.err
  end
  if raw then
    local last = tonumber(raw)
    if last == nil then
      redis.call('SET', fence, raw)
      return nil, 'WRONGTYPE dlock fencing key ' .. fence .. ' does not hold a number'
    end
    if last >= MAX_TOKEN - extra then
      redis.call('SET', fence, raw, 'PX', FENCE_IDLE_MS)
      return nil, 'ERR dlock fencing key ' .. fence .. ' is at ' .. raw .. ', too close to 2^53 - 1 (the largest'
        .. ' integer a token can be exactly) for another token; nothing was taken'
    end
    if token <= last then
      token = last + 1
      text = string.format('%d', token)
      redis.call('SET', fence, string.format('%d', token + extra), 'PX', FENCE_IDLE_MS)
    end
  end
  return text
end

-- Hands a lock that was just deleted to the oldest live queued waiter: pops queue heads, skipping
-- expired entries (waiters that died; at most 32 per call), issues a fresh fencing token, writes the
-- lock hash with owner = that waiter, granted = the entry's wait id ('<wait id>.<try>'; '1' for an entry
-- written by a client before wait ids, '<expiry> <lease>') and the waiter's own lease time, and publishes
-- 'g <token> <wait id> <owner>' on that waiter's client's channel only (the entry without a wait id gets
-- 'g <token> <owner>'). 'granted' names the wait so that only a try of that wait confirms the hand-off
-- with its token (acquire.lua, grant_confirmed): a thread's owner id is the same for all its waits. If no
-- token can be issued (the counter refuses), it publishes a plain wake-up there instead. (Out of memory
-- does not stop it: a script that has written already, as every caller has, may go on writing.)
-- Returns true when the lock was handed over.
local function hand_off(lock, fence, queue, entries)
  if redis.call('EXISTS', queue) == 0 then return false end -- cheaper than ZRANGE on no queue
  local t, now
  for _ = 1, 32 do
    local head = redis.call('ZRANGE', queue, 0, 0)[1]
    if not head then return false end
    if not t then
      t = redis.call('TIME') -- only when someone waits: the uncontended release stays at 3 calls
      now = millis(t)
    end
    redis.call('ZREM', queue, head)
    local entry = redis.call('HGET', entries, head)
    redis.call('HDEL', entries, head)
    if entry then
      local expiry, lease, wait = string.match(entry, '^(%d+) (%d+) ?(%S*)$')
      if expiry and tonumber(expiry) > now then
        local token = issue_token(fence, t)
        if not token then
          redis.call('PUBLISH', channel_of(lock, head), 'free') -- no token: let the head try itself
          return false
        end
        redis.call('HSET', lock, 'owner', head, 'token', token, 'granted', wait == '' and '1' or wait)
        redis.call('PEXPIRE', lock, lease)
        if wait == '' then
          redis.call('PUBLISH', channel_of(lock, head), 'g ' .. token .. ' ' .. head)
        else
          redis.call('PUBLISH', channel_of(lock, head), 'g ' .. token .. ' ' .. wait .. ' ' .. head)
        end
        return true
      end
    end
  end
  return false
end
