-- Redlock: takes the lock on one node unless another owner holds it there; the same owner extends it.
-- KEYS[1] lock key (a string: the owner id)   KEYS[2] this node's fencing counter
-- ARGV[1] owner id   ARGV[2] lease ms
-- Returns {1, counter} when taken (the counter INCRed for the new hold), {2, counter} when the owner
-- held it already (its time set anew, the counter as it stands), {0, pttl, counter} when another owner
-- holds it.
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {2, tonumber(redis.call('GET', KEYS[2]) or '0')}
end
if holder then
  return {0, redis.call('PTTL', KEYS[1]), tonumber(redis.call('GET', KEYS[2]) or '0')}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, redis.call('INCR', KEYS[2])}
