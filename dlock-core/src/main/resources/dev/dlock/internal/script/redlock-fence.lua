-- Redlock: raises this node's fencing counter to a token issued from a quorum (counter = max(counter,
-- token)), so that every later quorum meets a node whose counter is at least that token.
-- KEYS[1] fencing counter   ARGV[1] token
-- Returns the counter afterwards.
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local token = tonumber(ARGV[1])
if current < token then
  redis.call('SET', KEYS[1], ARGV[1])
  return token
end
return current
