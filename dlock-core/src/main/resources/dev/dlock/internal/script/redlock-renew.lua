-- Redlock: sets the lock's remaining time on one node only if ARGV[1] owns it there (renewal, expireIn).
-- KEYS[1] lock key   ARGV[1] owner id   ARGV[2] new time to live, ms
-- Returns 1 when set, 0 when the owner did not hold it on this node (nothing touched).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
