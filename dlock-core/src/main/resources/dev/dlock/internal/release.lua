-- Deletes the lock only if ARGV[1] owns it, then hands it straight to the oldest live queued waiter:
-- a fresh fencing token, the waiter's own lease time, and a message naming the new owner.
-- KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] queue (zset)   KEYS[4] queue entries (hash)
-- ARGV[1] owner id   ARGV[2] wake-up channel   ARGV[3] counter idle expiry ms
-- Returns 1 when released, 0 when the caller did not own the lock (the lock is not touched; the
-- caller's own queue entry, if any, is removed: it has given up).
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
  return 0
end
redis.call('DEL', KEYS[1])
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _ = 1, 32 do -- skips at most 32 expired entries (waiters that died); the rest wait for the next release
  local head = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
  if not head then return 1 end
  redis.call('ZREM', KEYS[3], head)
  local entry = redis.call('HGET', KEYS[4], head)
  redis.call('HDEL', KEYS[4], head)
  if entry then
    local space = string.find(entry, ' ', 1, true)
    local expiry = tonumber(string.sub(entry, 1, space - 1))
    if expiry > nowMs then
      local last = tonumber(redis.pcall('GET', KEYS[2])) or 0
      local token = tonumber(t[1]) * 1000000 + tonumber(t[2])
      if token <= last then token = last + 1 end
      local tokenText = string.format('%d', token)
      local set = redis.pcall('SET', KEYS[2], tokenText, 'PX', ARGV[3])
      if type(set) == 'table' and set.err then
        -- cannot issue a token (out of memory): no hand-off, let the waiters try for themselves
        redis.call('PUBLISH', ARGV[2], 'free')
        return 1
      end
      redis.call('HSET', KEYS[1], 'owner', head, 'token', tokenText, 'granted', '1')
      redis.call('PEXPIRE', KEYS[1], string.sub(entry, space + 1))
      redis.call('PUBLISH', ARGV[2], 'g ' .. tokenText .. ' ' .. head)
      return 1
    end
  end
end
return 1
