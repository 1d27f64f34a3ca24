-- Renews many permit leases in one round trip; each only if its owner still holds it (by server time).
-- Used for read-write holds too: their holders' hash has the same shape.
-- KEYS[i] a semaphore's holds hash (shared.lua)   ARGV[1] lease ms   ARGV[i+1] owner id of KEYS[i]
-- Returns an array: 1 renewed, 0 gone or run out (nothing touched; the next script that reads the
-- holders purges it).
-- The holds hash's expiry is only raised, never lowered (a renewal beside a longer fixed lease must not
-- shorten it); when it is raised, so is the name's record's (the holds key without ':holds', in the same
-- slot), so a holder renewed for more than 7 days without an acquire keeps its name's kind and count.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[1])
local result = {}
local keys = KEYS -- Scripts.crossSlot replaces this line
for i, key in ipairs(keys) do
  local entry = redis.pcall('HGET', key, ARGV[i + 1])
  if type(entry) == 'table' and entry.err and not string.find(entry.err, '^WRONGTYPE') then
    return redis.error_reply(entry.err) -- e.g. a slot that moved off this node: renewed by slot instead
  end
  local weight, token, expiry
  if type(entry) == 'string' then weight, token, expiry = string.match(entry, '^(%d+) (%d+) (%d+)') end
  if expiry and tonumber(expiry) > now then
    redis.call('HSET', key, ARGV[i + 1], weight .. ' ' .. token .. ' ' .. string.format('%d', now + ms))
    if redis.call('PTTL', key) < ms then
      redis.call('PEXPIRE', key, ms)
      local record = string.match(key, '^(.*):holds$')
      -- only a record: the name's key may be a mutex's hash by now, whose expiry is its holder's lease
      if record and redis.call('TYPE', record).ok == 'string' then
        local left = redis.call('PTTL', record)
        if left >= 0 and left < ms then redis.call('PEXPIRE', record, ms) end
      end
    end
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
