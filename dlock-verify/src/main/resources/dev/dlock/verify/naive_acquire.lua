-- The deliberately naive lock of negative control 1 (same key layout as dlock, different owner handling):
-- takes the lock if the key is absent; its release is a plain DEL without an owner check.
-- KEYS[1] lock hash, KEYS[2] fence counter
-- ARGV[1] owner id, ARGV[2] lease time in ms
-- Returns the fencing token, or 0 when the lock is busy.
if redis.call('EXISTS', KEYS[1]) == 1 then
    return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local token = math.max(last + 1, now)
local text = string.format('%.0f', token)
redis.call('SET', KEYS[2], text)
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', text)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return token
