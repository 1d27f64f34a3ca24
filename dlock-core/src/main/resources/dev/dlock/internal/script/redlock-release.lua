-- Redlock: deletes the lock on one node only if ARGV[1] owns it there.
-- KEYS[1] lock key   ARGV[1] owner id
-- Returns 1 when deleted, 0 when the owner did not hold it on this node (nothing touched).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
