-- Fenced read of the shared list: a read with a token lower than the fence is refused and logged, any other read
-- raises the fence to its token, so a stale holder's later write is refused (fencing a read-modify-write needs both).
-- KEYS[1] fence (string: highest token seen), KEYS[2] list (string: comma-terminated elements),
-- KEYS[3] rejections (list), KEYS[4] accepted (list: tokens of accepted operations, in server order)
-- ARGV[1] token, ARGV[2] '1' to check the fence, '0' for the broken variant, ARGV[3] label of the reader,
-- ARGV[4] '1' for a shared read (a read-write lock's read hold): checked, but it neither raises the fence nor is
-- logged in accepted, since overlapping readers reach the resource in any token order; '0' otherwise
-- Returns {1, list} when accepted, {0, ''} when refused.
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local token = tonumber(ARGV[1])
if ARGV[2] == '1' and token < last then
    redis.call('RPUSH', KEYS[3], 'read:' .. ARGV[1] .. ':' .. redis.call('GET', KEYS[1]) .. ':' .. ARGV[3])
    return {0, ''}
end
if ARGV[4] == '1' then
    return {1, redis.call('GET', KEYS[2]) or ''}
end
if token > last then
    redis.call('SET', KEYS[1], ARGV[1])
end
redis.call('RPUSH', KEYS[4], ARGV[1])
return {1, redis.call('GET', KEYS[2]) or ''}
