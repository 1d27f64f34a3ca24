-- Shared by release.lua and admin-force-release.lua (prepended to them by Scripts.load).
-- Hands a lock that was just deleted to the oldest live queued waiter: pops queue heads, skipping
-- expired entries (waiters that died; at most 32 per call), issues a fresh fencing token, writes the
-- lock hash with owner = that waiter, granted = 1 and the waiter's own lease time, and publishes
-- 'g <token> <owner>' on the wake-up channel. Out of memory, it publishes a plain wake-up instead.
-- Returns true when the lock was handed over.
local function hand_off(lock, fence, queue, entries, channel, fenceIdle)
  local t = redis.call('TIME')
  local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _ = 1, 32 do
    local head = redis.call('ZRANGE', queue, 0, 0)[1]
    if not head then return false end
    redis.call('ZREM', queue, head)
    local entry = redis.call('HGET', entries, head)
    redis.call('HDEL', entries, head)
    if entry then
      local space = string.find(entry, ' ', 1, true)
      if tonumber(string.sub(entry, 1, space - 1)) > nowMs then
        local last = tonumber(redis.pcall('GET', fence)) or 0
        local token = tonumber(t[1]) * 1000000 + tonumber(t[2])
        if token <= last then token = last + 1 end
        local tokenText = string.format('%d', token)
        local set = redis.pcall('SET', fence, tokenText, 'PX', fenceIdle)
        if type(set) == 'table' and set.err then
          redis.call('PUBLISH', channel, 'free') -- cannot issue a token: let the waiters try themselves
          return false
        end
        redis.call('HSET', lock, 'owner', head, 'token', tokenText, 'granted', '1')
        redis.call('PEXPIRE', lock, string.sub(entry, space + 1))
        redis.call('PUBLISH', channel, 'g ' .. tokenText .. ' ' .. head)
        return true
      end
    end
  end
  return false
end
