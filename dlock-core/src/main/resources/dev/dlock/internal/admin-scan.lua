-- One SCAN page of held locks (dlock list); SCAN, never KEYS, so Redis is not blocked.
-- No KEYS: the keys are found, not known; SCAN sees one node, so in a cluster it runs on each master.
-- ARGV[1] cursor   ARGV[2] MATCH pattern   ARGV[3] COUNT hint   ARGV[4] waiters' queue suffix
-- Returns {next cursor, {key, holder id, pttl ms, token, waiters}, ...}; only hashes with an owner.
local page = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3], 'TYPE', 'hash')
local result = {page[1]}
for _, key in ipairs(page[2]) do
  local holder = redis.call('HGET', key, 'owner')
  if holder then
    local waiters = redis.call('ZCARD', key .. ARGV[4])
    local token = tonumber(redis.call('HGET', key, 'token') or '0') or 0
    result[#result + 1] = {key, holder, redis.call('PTTL', key), token, waiters}
  end
end
return result
