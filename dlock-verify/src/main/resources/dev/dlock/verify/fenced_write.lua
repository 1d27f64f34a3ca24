-- Fenced write of the shared list: refused and logged when the token is lower than the fence, else stored.
-- KEYS[1] fence, KEYS[2] list, KEYS[3] rejections, KEYS[4] accepted (see fenced_read.lua)
-- ARGV[1] token, ARGV[2] '1' to check the fence, '0' for the broken variant, ARGV[3] element written,
-- ARGV[4] the new value of the list (the old value read under the same token, plus the element)
-- Returns 1 when stored, 0 when refused.
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local token = tonumber(ARGV[1])
if ARGV[2] == '1' and token < last then
    redis.call('RPUSH', KEYS[3], 'write:' .. ARGV[1] .. ':' .. redis.call('GET', KEYS[1]) .. ':' .. ARGV[3])
    return 0
end
if token > last then
    redis.call('SET', KEYS[1], ARGV[1])
end
redis.call('SET', KEYS[2], ARGV[4])
redis.call('RPUSH', KEYS[4], ARGV[1])
return 1
