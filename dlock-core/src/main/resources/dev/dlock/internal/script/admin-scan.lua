-- One SCAN page of held locks of every kind (dlock list); SCAN, never KEYS, so Redis is not blocked.
-- No KEYS: the keys are found, not known; SCAN sees one node, so in a cluster it runs on each master.
-- A name's lock key is a hash (a mutex) or a string record (a shared lock: semaphore, ...), so the
-- page is not filtered by type; keys of other types, and strings that are no record, are skipped.
-- ARGV[1] cursor   ARGV[2] MATCH pattern   ARGV[3] COUNT hint
-- Returns {next cursor, {key, kind, capacity, waiters, holders}, ...}: only names with a live holder
-- (holders as admin_read's).
local page = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
local result = {page[1]}
local now = millis(redis.call('TIME'))
for _, key in ipairs(page[2]) do
  local ktype = redis.call('TYPE', key).ok
  local record = ktype == 'hash' or (ktype == 'string' and string.match(redis.call('GET', key), '^%a+ %d+ %d+$'))
  if record then
    local keys = {key, key .. ':fence', key .. ':q', key .. ':qe', key .. ':holds', key .. ':sq', key .. ':sqe'}
    local state = admin_read(keys, now, 0)
    if state and #state[4] > 0 then
      result[#result + 1] = {key, state[1], state[2], state[3], state[4]}
    end
  end
end
return result
