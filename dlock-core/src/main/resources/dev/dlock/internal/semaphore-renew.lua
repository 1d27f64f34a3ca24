-- Renews many permit leases in one round trip; each only if its owner still holds it (by server time).
-- KEYS[i] a semaphore's holds hash (shared.lua)   ARGV[1] lease ms   ARGV[i+1] owner id of KEYS[i]
-- Returns an array: 1 renewed, 0 gone or run out (nothing touched; the next script that reads the
-- holders purges it).
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
    if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
