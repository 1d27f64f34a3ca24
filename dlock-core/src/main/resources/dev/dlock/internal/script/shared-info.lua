-- Reads a shared lock's state (a semaphore's info() and availablePermits(), a read-write lock's views'
-- info()), purging expired holders (and granting the waiters they made room for); put after common.lua,
-- shared.lua and queue-read.lua.
-- KEYS[1] record   KEYS[2] fencing counter   KEYS[3] holds   KEYS[4] queue   KEYS[5] queue entries
-- (shared.lua)   ARGV[1] the kind ('semaphore', 'rw')   ARGV[2] the count the client was given, making
-- the record at first use ('': none, the record is not made)   ARGV[3] how many queued waiters to list
-- Returns {capacity (0: no record), weight held, waiters queued, last token issued for the name (0 if
-- unknown), holders as {owner, weight, token, ms left}, the first ARGV[3] waiters as {owner, weight}
-- in FIFO order}. Error: the record holds another kind or count.
local declared = ARGV[2] ~= '' and ARGV[2] or nil
local capacity, err = shared_record(KEYS, ARGV[1], declared)
if err then return redis.error_reply(err) end
local t = redis.call('TIME')
local now = millis(t)
local used = shared_scan(KEYS[3], now)
used = shared_grant(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], capacity, used, t)
local last = redis.pcall('GET', KEYS[2])
if type(last) ~= 'string' then last = '0' end
local holders = {}
local all = redis.call('HGETALL', KEYS[3])
for i = 1, #all, 2 do
  local weight, token, expiry = string.match(all[i + 1], '^(%d+) (%d+) (%d+)')
  holders[#holders + 1] = {all[i], tonumber(weight), tonumber(token), tonumber(expiry) - now}
end
local queue, waiters = read_queue(KEYS[4], KEYS[5], tonumber(ARGV[3]), 4)
return {capacity or 0, used, waiters, tonumber(last) or 0, holders, queue}
