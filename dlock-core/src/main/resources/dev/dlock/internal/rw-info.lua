-- Reads a read-write lock's holders (DistributedLock.info() of its read and write views), purging
-- expired holders (and granting the waiters they made room for); makes no record.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)
-- Returns {last token issued for the name (0 if unknown), waiters queued, then per live holder: owner
-- id, 'r' or 'w', token, ms left, weight}. Error: the record holds another kind.
local capacity, err = shared_record(KEYS[1], 'rw', nil)
if err then return redis.error_reply(err) end
local t = redis.call('TIME')
local now = millis(t)
local used = shared_scan(KEYS[3], now)
shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], capacity, used, t)
local last = redis.pcall('GET', KEYS[2])
if type(last) ~= 'string' then last = '0' end
local result = {tonumber(last) or 0, redis.call('ZCARD', KEYS[4])}
local all = redis.call('HGETALL', KEYS[3])
for i = 1, #all, 2 do
  local weight, token, expiry = string.match(all[i + 1], '^(%d+) (%d+) (%d+)')
  result[#result + 1] = all[i]
  result[#result + 1] = (capacity and tonumber(weight) >= capacity) and 'w' or 'r'
  result[#result + 1] = tonumber(token)
  result[#result + 1] = tonumber(expiry) - now
  result[#result + 1] = tonumber(weight)
end
return result
